package loginx_test

import (
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// BenchmarkResolveSession is the guard's hot path: resolving the user of a
// request that carries a valid authToken, warm.
func BenchmarkResolveSession(b *testing.B) {
	db := storagetest.OpenTarget(b, storagetest.SQLite(b))
	e := newEnv(b, db)
	tok := e.mustLogin(alice)["authToken"].(string)
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest("GET", "/notes", nil)
	c.Request.Header.Set("Authorization", "Bearer "+tok)
	resolve := e.svc.Resolver()
	if u, err := resolve(c); err != nil || u != aliceName {
		b.Fatal(u, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := resolve(c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLogin is a whole login against the loopback provider on SQLite:
// ID token verification, userinfo call, user upsert, session creation.
func BenchmarkLogin(b *testing.B) {
	db := storagetest.OpenTarget(b, storagetest.SQLite(b))
	e := newEnv(b, db)
	u := loginxtest.User{Subject: "bench", PreferredUsername: "bench", Email: "bench@example.org"}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		id, at := e.idp.Login(u)
		body := loginBody(service, at, id, 60)
		b.StartTimer()
		if code, out := e.do("POST", "/api/v1/login", body); code != 200 {
			b.Fatal(code, out)
		}
	}
}
