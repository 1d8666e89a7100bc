package authz

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// BenchmarkWhereCan is the warm Client.WhereCan of a user with 1,000
// scoped memberships (org-0000 to org-0999): as "editor" in the even orgs
// and "lead" in the odd ones, so that "approve" (lead's) is one sorted list
// of 500, "edit" (both roles') a merge of 1,000 the entry remembers, and
// "delete" (nobody's) nowhere. Besides ns/op (wall time: on a loaded
// machine it counts the time the thread waited for a core) it reports
// cpu-ns/op, the CPU time of the loop's own thread.
func BenchmarkWhereCan(b *testing.B) {
	az := openTarget(b, storagetest.SQLite(b), nil)
	c := mustClient(b, az, newKey())
	ctx := context.Background()
	ops := []Operation{
		{Op: "add_role", Role: "editor"}, {Op: "add_role", Role: "lead"},
		{Op: "add_permission", Role: "editor", Permission: "edit"},
		{Op: "add_permission", Role: "lead", Permission: "edit"},
		{Op: "add_permission", Role: "lead", Permission: "approve"},
	}
	for i := range 1000 {
		role := "editor"
		if i%2 == 1 {
			role = "lead"
		}
		ops = append(ops, Operation{Op: "add_membership", User: "alice", Role: role, Scope: fmt.Sprintf("org-%04d", i)})
	}
	if _, err := c.Batch(ctx, ops); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name, perm string
		n          int
	}{{"one-role", "approve", 500}, {"two-roles", "edit", 1000}, {"nowhere", "delete", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			if w, err := c.WhereCan(ctx, "alice", bc.perm); err != nil || w.Len() != bc.n {
				b.Fatalf("%d scopes, %v", w.Len(), err)
			}
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ResetTimer()
			start, ok := threadCPU()
			for i := 0; i < b.N; i++ {
				if w, _ := c.WhereCan(ctx, "alice", bc.perm); w.Len() != bc.n {
					b.Fatal("wrong answer")
				}
			}
			end, _ := threadCPU()
			b.StopTimer()
			if ok {
				b.ReportMetric(float64((end-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkRESTCheckBatch compares, on one host app served over loopback
// HTTP (keep-alive, one request at a time), 100 checks asked as 100 GET
// /api/has_permission requests with the same 100 asked in one POST
// /api/check, alternating within each iteration so that both see the same
// load. It reports the checks per second of each and their ratio (x).
func BenchmarkRESTCheckBatch(b *testing.B) {
	gin.SetMode(gin.ReleaseMode)
	key := newKey()
	az := openTarget(b, storagetest.SQLite(b), func(cfg *Config) {
		cfg.ClientKey = key
		cfg.RevisionCheckInterval = time.Hour
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn}))
	})
	c := mustClient(b, az, key)
	d := makeBenchData(benchSizes[0])
	d.load(b, c)
	r := gin.New()
	r.Use(gin.Recovery())
	if err := az.Mount(r); err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	hc := srv.Client()

	checks := d.checks[:100]
	var body strings.Builder
	body.WriteString(`{"checks":[`)
	for i, ck := range checks {
		if i > 0 {
			body.WriteByte(',')
		}
		scope := ""
		if i%2 == 1 {
			scope = fmt.Sprintf(`,"scope":"org-%d"`, i)
		}
		fmt.Fprintf(&body, `{"user":%q,"permission":%q%s}`, ck.user, ck.perm, scope)
	}
	body.WriteString(`]}`)
	batch := []byte(body.String())
	do := func(req *http.Request) {
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%s %s: %d", req.Method, req.URL.Path, resp.StatusCode)
		}
	}
	single := func() {
		for i, ck := range checks {
			u := srv.URL + "/api/has_permission/" + ck.user + "/" + ck.perm
			if i%2 == 1 {
				u += fmt.Sprintf("?scope=org-%d", i)
			}
			req, _ := http.NewRequest(http.MethodGet, u, nil)
			do(req)
		}
	}
	many := func() {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/check", bytes.NewReader(batch))
		req.Header.Set("Content-Type", "application/json")
		do(req)
	}
	single() // warm the cache and the connection
	many()
	b.ResetTimer()
	var singles, batches time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		single()
		t1 := time.Now()
		many()
		singles += t1.Sub(t0)
		batches += time.Since(t1)
	}
	b.StopTimer()
	n := float64(len(checks) * b.N)
	b.ReportMetric(n/singles.Seconds(), "single-checks/s")
	b.ReportMetric(n/batches.Seconds(), "batch-checks/s")
	b.ReportMetric(singles.Seconds()/batches.Seconds(), "x")
}
