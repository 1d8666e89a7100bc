package middleware

import (
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"
)

// internChecker is a fakeChecker that also interns users, the way authz's
// client points at the name inside its cache entry.
type internChecker struct {
	*fakeChecker
	names map[string]*string
	wrong bool // answer a pointer to another name, which must be ignored
}

func (ic *internChecker) InternUser(user string) *string {
	if ic.wrong {
		other := "mallory"
		return &other
	}
	return ic.names[user]
}

func TestGuardWithUserInterner(t *testing.T) {
	sara := "sara"
	for name, ic := range map[string]*internChecker{
		"interned":     {fakeChecker: newFakeChecker(), names: map[string]*string{"sara": &sara}},
		"not interned": {fakeChecker: newFakeChecker(), names: map[string]*string{}},
		"wrong name":   {fakeChecker: newFakeChecker(), wrong: true},
	} {
		t.Run(name, func(t *testing.T) {
			g, err := NewGuard(GuardConfig{Checker: ic, Resolver: HeaderResolver("X-User"), AnyPermissions: []string{"cook"}})
			if err != nil {
				t.Fatal(err)
			}
			var seen string
			var ok bool
			r := newTestRouter()
			r.GET("/x", g, func(c *gin.Context) { seen, ok = UserFrom(c); c.Status(http.StatusOK) })
			w := performRequest(r, http.MethodGet, "/x", nil, "X-User", "sara")
			if w.Code != http.StatusOK || !ok || seen != "sara" {
				t.Fatalf("status %d, UserFrom = %q, %v; want 200 and sara", w.Code, seen, ok)
			}
		})
	}
}
