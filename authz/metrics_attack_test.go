package authz

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// seriesCount is the number of series the registry holds.
func seriesCount(t *testing.T, h *metricsHost) int {
	t.Helper()
	mfs, err := h.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, mf := range mfs {
		n += len(mf.GetMetric())
	}
	return n
}

// A stranger cannot mint series: whatever varies in what they send
// (paths, names, keys, headers, methods, console paths), the labels are
// route templates, outcomes and status codes, so a second round of
// different values adds no series. GET /metrics takes an admin key, in
// any letter case, and refuses every other.
func TestMetricsStrangerCardinality(t *testing.T) {
	h := newMetricsHost(t, storagetest.SQLite(t), nil)
	round := func(i int) {
		s := fmt.Sprintf("r%d-%s", i, uuid.NewString()[:8])
		for _, req := range [][]string{
			{http.MethodGet, "/notes/" + s, "X-User", s},
			{http.MethodGet, "/notes/" + s, "X-User", strings.Repeat(s, 100)},
			{http.MethodGet, "/notes/" + s},
			{http.MethodGet, "/api/roles", "Authorization", "Bearer " + uuid.NewString()},
			{http.MethodGet, "/api/role/" + s, "Authorization", "Bearer " + s},
			{http.MethodGet, "/api/" + s},
			{http.MethodGet, "/console/" + s},
			{http.MethodGet, "/console/assets/" + s + ".js"},
			{"PURGE", "/api/role/" + s},
			{http.MethodOptions, "/api/role/" + s, "Origin", "http://" + s + ".example"},
			{http.MethodGet, "/ping", "X-Request-ID", s},
			{http.MethodGet, "/metrics", "Authorization", "Bearer " + uuid.NewString()},
		} {
			r, err := http.NewRequest(req[0], h.srv.URL+req[1], nil)
			if err != nil {
				t.Fatal(err)
			}
			for j := 2; j+1 < len(req); j += 2 {
				r.Header.Set(req[j], req[j+1])
			}
			res, err := h.srv.Client().Do(r)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if req[1] == "/metrics" && res.StatusCode != http.StatusUnauthorized {
				t.Errorf("GET /metrics with a key that is not an admin key: %d, want 401", res.StatusCode)
			}
		}
	}
	round(0)
	round(1)
	base := seriesCount(t, h)
	for i := 2; i < 20; i++ {
		round(i)
	}
	if n := seriesCount(t, h); n != base {
		t.Errorf("a stranger's requests grew the series from %d to %d", base, n)
	}
	scrape := func(key string) (int, string) {
		return h.get(t, "/metrics", "Authorization", "Bearer "+key)
	}
	code, body := scrape(strings.ToUpper(h.key))
	if code != http.StatusOK {
		t.Fatalf("GET /metrics with the admin key in upper case: %d", code)
	}
	if strings.Contains(body, "r1-") || strings.Contains(body, h.key) {
		t.Error("the scrape carries something a stranger sent, or the key")
	}
}
