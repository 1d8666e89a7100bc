package middleware

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/gin-gonic/gin"
)

// mapChecker is the cheapest possible Checker, so that the benchmark
// measures the guard, not the checker.
type mapChecker map[string]map[string]struct{}

func (m mapChecker) UserHasPermission(_ context.Context, user, p string) (bool, error) {
	_, ok := m[user][p]
	return ok, nil
}

func (m mapChecker) UserHasRole(context.Context, string, string) (bool, error) { return false, nil }

// discardWriter is a ResponseWriter that keeps nothing, so that the
// benchmark counts gin's and the guard's allocations, not a recorder's.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(int)             {}

// BenchmarkGuardCheck sends warm requests through a real gin.Engine to the
// same handler unguarded and guarded. The difference is the guard's cost.
// Its only allocations come from storing the user for UserFrom: gin's
// c.Set creates the Keys map on first use (2 allocations: map and its
// first group) and the user string is boxed into an interface (1). The
// "+keys" cases put another middleware that already uses c.Keys in front,
// as RequestID or ClientKeyAuth would, leaving the boxing alone.
func BenchmarkGuardCheck(b *testing.B) {
	ch := mapChecker{"sara": {"cook": {}}}
	g, err := NewGuard(GuardConfig{Checker: ch, Resolver: HeaderResolver("X-User-Id"), AnyPermissions: []string{"cook"}})
	if err != nil {
		b.Fatal(err)
	}
	noContent := func(c *gin.Context) { c.Status(http.StatusNoContent) }
	r := gin.New()
	r.GET("/open", noContent)
	r.GET("/guarded", g, noContent)
	// usesKeys stores a pointer, which needs no boxing, so that its only
	// allocation is the Keys map itself.
	marker := new(int)
	usesKeys := func(c *gin.Context) { c.Set("bench.marker", marker) }
	r.GET("/open-keys", usesKeys, noContent)
	r.GET("/guarded-keys", usesKeys, g, noContent)
	// observed: the guard with an observer that counts, as authz's
	// metrics do (one atomic add per decision).
	observed, err := NewGuard(GuardConfig{Checker: ch, Resolver: HeaderResolver("X-User-Id"),
		AnyPermissions: []string{"cook"}, Observer: new(countingObserver)})
	if err != nil {
		b.Fatal(err)
	}
	r.GET("/observed", observed, noContent)

	for _, bc := range []struct{ name, path, user string }{
		{"unguarded", "/open", "sara"},
		{"allowed", "/guarded", "sara"},
		{"denied", "/guarded", "jack"},
		{"unguarded+keys", "/open-keys", "sara"},
		{"allowed+keys", "/guarded-keys", "sara"},
		{"allowed+observer", "/observed", "sara"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, bc.path, nil)
			req.Header.Set("X-User-Id", bc.user)
			w := &discardWriter{h: http.Header{}}
			r.ServeHTTP(w, req) // warm the context pool
			b.ReportAllocs()
			for b.Loop() {
				r.ServeHTTP(w, req)
			}
		})
	}
}

// countingObserver counts decisions by outcome.
type countingObserver [GuardOutcomes]atomic.Uint64

func (o *countingObserver) GuardDecided(_ *gin.Context, d GuardDecision) { o[d.Outcome].Add(1) }
