package authz

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// BenchmarkRESTCheck measures GET /api/has_permission/{user}/{name} served
// by the real router of a host app built like examples/hostapp (gin.New,
// gin.Recovery, Mount), warm cache, the small workload's 512 checks in
// turn, against the app's unguarded GET / (gin's JSON of a small map) on
// the same engine. quiet logs below Info (the request log is off);
// info logs each request at Info as text to io.Discard, as hostapp does
// to its stderr.
func BenchmarkRESTCheck(b *testing.B) {
	gin.SetMode(gin.ReleaseMode)
	for _, lg := range []struct {
		name  string
		level slog.Level
	}{{"quiet", slog.LevelWarn}, {"info", slog.LevelInfo}} {
		key := newKey()
		az := openTarget(b, storagetest.SQLite(b), func(cfg *Config) {
			cfg.ClientKey = key
			cfg.RevisionCheckInterval = time.Hour
			cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: lg.level}))
		})
		c := mustClient(b, az, key)
		d := makeBenchData(benchSizes[0])
		d.load(b, c)
		r := gin.New()
		r.Use(gin.Recovery())
		if err := az.Mount(r); err != nil {
			b.Fatal(err)
		}
		r.GET("/", func(c *gin.Context) {
			c.JSON(http.StatusOK, gin.H{"app": "hostapp", "notes": "/notes"})
		})
		checks := make([]*http.Request, len(d.checks))
		for i, ck := range d.checks {
			checks[i] = httptest.NewRequest(http.MethodGet, "/api/has_permission/"+ck.user+"/"+ck.perm, nil)
			checks[i].Header.Set("Authorization", "Bearer "+key)
		}
		root := httptest.NewRequest(http.MethodGet, "/", nil)
		w := &discardWriter{h: http.Header{}}
		for _, req := range append(checks, root) { // warm the cache
			r.ServeHTTP(w, req)
			if w.code != http.StatusOK {
				b.Fatalf("%s answered %d", req.URL.Path, w.code)
			}
		}
		b.Run(lg.name+"/unguarded", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r.ServeHTTP(w, root)
			}
		})
		b.Run(lg.name+"/has_permission", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r.ServeHTTP(w, checks[i&511])
			}
		})
	}
}
