package authz

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// countAll counts every row of a table, whatever the namespace.
func countAll(t testing.TB, az *Authz, table string) int {
	t.Helper()
	var n int
	if err := az.db.NewRaw("SELECT count(*) FROM "+table).Scan(context.Background(), &n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// With admin keys configured, a stranger's well-formed key is refused with
// 401 on every RBAC route, and nothing it sends is stored: no role, no
// revision, no audit record under its fingerprint; its refusal is audited
// under no client. The admin keys (in any letter case) work.
func TestClosedAdminPlaneRefusesStranger(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		host, admin := newKey(), newKey()
		az, _ := openREST(t, target, func(c *Config) {
			c.ClientKey = host
			c.ClientKeys = []string{strings.ToUpper(admin)}
		})
		e := newTestRouter(t, az, "")
		stranger := newKey()
		desc := `{"description":"` + strings.Repeat("x", 1000) + `"}`
		for _, rq := range []struct{ method, path, body string }{
			{"POST", "/api/role/squat", desc},
			{"POST", "/api/permission/squat/all", ""},
			{"POST", "/api/membership/mallory/squat", ""},
			{"DELETE", "/api/role/squat", ""},
			{"GET", "/api/roles", ""},
			{"GET", "/api/audit", ""},
		} {
			w := performRequest(e, rq.method, rq.path, stranger, strings.NewReader(rq.body), "Content-Type", "application/json")
			checkEnvelope(t, w, http.StatusUnauthorized)
			if got := w.Header().Get("WWW-Authenticate"); got != "Bearer" {
				t.Errorf("%s %s: WWW-Authenticate = %q, want Bearer", rq.method, rq.path, got)
			}
		}
		for _, table := range []string{"rolegate_roles", "rolegate_permissions", "rolegate_memberships", "rolegate_revisions"} {
			if n := countAll(t, az, table); n != 0 {
				t.Errorf("%s holds %d rows after a stranger's writes, want 0", table, n)
			}
		}
		strangerClient := mustClient(t, az, stranger) // the library API stays open: the host's own code
		if recs, err := storage.ListAudit(context.Background(), az.db, strangerClient.fingerprint, "", 0, 100); err != nil || len(recs) != 0 {
			t.Errorf("audit records under the stranger's fingerprint: %v, %v", recs, err)
		}
		recs, err := storage.ListAudit(context.Background(), az.db, "", "", 0, 100)
		if err != nil || len(recs) != 6 {
			t.Fatalf("refusals audited under no client: %d, %v; want 6", len(recs), err)
		}
		for _, r := range recs {
			if r.Outcome != "refused: invalid client key" || strings.Contains(r.Resource, "squat") {
				t.Errorf("refusal record %+v", r)
			}
		}

		for i, key := range []string{host, admin, strings.ToUpper(host)} {
			checkEnvelope(t, performRequest(e, "POST", fmt.Sprintf("/api/role/editor-%d", i), key, nil), http.StatusCreated)
			checkEnvelope(t, performRequest(e, "GET", "/api/roles", key, nil), http.StatusOK)
		}
	})
}

// Open mode (no admin keys) bounds the rows of one namespace: the write
// past the limit is 507 in the error envelope and stores nothing; a
// deletion makes room again. Concurrent writers on two replicas do not
// overshoot.
func TestOpenModeRowLimit(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		const limit = 6
		mod := func(c *Config) { c.MaxRowsPerClient = limit }
		az, _ := openREST(t, target, mod)
		e := newTestRouter(t, az, "")
		key := newKey()
		cl := mustClient(t, az, key)
		checkEnvelope(t, performRequest(e, "POST", "/api/role/r", key, nil), http.StatusCreated)
		for i := range limit - 1 {
			checkEnvelope(t, performRequest(e, "POST", "/api/membership/u"+string(rune('a'+i))+"/r", key, nil), http.StatusCreated)
		}
		for _, p := range []string{"/api/role/r2", "/api/permission/r/p", "/api/membership/zed/r"} {
			body := checkEnvelope(t, performRequest(e, "POST", p, key, nil), http.StatusInsufficientStorage)
			if msg, _ := body["error"].(string); !strings.Contains(msg, "AUTH_MAX_ROWS_PER_CLIENT") {
				t.Errorf("507 detail %q does not name the setting", msg)
			}
		}
		// What exists already is still answered as existing (200).
		checkEnvelope(t, performRequest(e, "POST", "/api/role/r", key, nil), http.StatusOK)
		if n := countRows(t, az, cl, "rolegate_roles") + countRows(t, az, cl, "rolegate_memberships") + countRows(t, az, cl, "rolegate_permissions"); n != limit {
			t.Fatalf("namespace holds %d rows, want %d", n, limit)
		}
		checkEnvelope(t, performRequest(e, "DELETE", "/api/membership/ua/r", key, nil), http.StatusOK)
		checkEnvelope(t, performRequest(e, "POST", "/api/permission/r/p", key, nil), http.StatusCreated)
		// Another namespace has its own budget.
		checkEnvelope(t, performRequest(e, "POST", "/api/role/r", newKey(), nil), http.StatusCreated)

		// Concurrent writers of one namespace on two replicas.
		az2, _ := openREST(t, target, mod)
		key2 := newKey()
		c1, c2 := mustClient(t, az, key2), mustClient(t, az2, key2)
		if _, err := c1.AddRole(context.Background(), "team", ""); err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 40)
		for i := range 40 {
			go func() {
				c := c1
				if i%2 == 1 {
					c = c2
				}
				_, err := c.AddMembership(context.Background(), "user"+strings.Repeat("x", i), "team")
				errs <- err
			}()
		}
		created := 0
		for range 40 {
			if err := <-errs; err == nil {
				created++
			} else if !strings.Contains(err.Error(), ErrQuotaExceeded.Error()) {
				t.Errorf("concurrent add: %v", err)
			}
		}
		if n := countRows(t, az, c1, "rolegate_memberships") + 1; n != limit || created != limit-1 {
			t.Errorf("concurrent writers stored %d rows (%d created), want exactly %d", n, created, limit)
		}
	})
}

// Open mode bounds the namespaces: the first write of one namespace too
// many is 507, existing namespaces keep writing; concurrent first writes
// on two replicas do not overshoot.
func TestOpenModeNamespaceLimit(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		const limit = 3
		mod := func(c *Config) { c.MaxNamespaces = limit }
		az, _ := openREST(t, target, mod)
		az2, _ := openREST(t, target, mod)
		e := newTestRouter(t, az, "")
		first := newKey()
		checkEnvelope(t, performRequest(e, "POST", "/api/role/a", first, nil), http.StatusCreated)

		errs := make(chan error, 12)
		for i := range 12 {
			go func() {
				a := az
				if i%2 == 1 {
					a = az2
				}
				c, err := a.Client(newKey())
				if err == nil {
					_, err = c.AddRole(context.Background(), "a", "")
				}
				errs <- err
			}()
		}
		ok := 0
		for range 12 {
			if err := <-errs; err == nil {
				ok++
			} else if !strings.Contains(err.Error(), ErrQuotaExceeded.Error()) {
				t.Errorf("concurrent first write: %v", err)
			}
		}
		if n := countAll(t, az, "rolegate_roles"); ok != limit-1 || n != limit {
			t.Fatalf("%d concurrent first writes succeeded, %d roles stored; want %d and %d", ok, n, limit-1, limit)
		}
		body := checkEnvelope(t, performRequest(e, "POST", "/api/role/a", newKey(), nil), http.StatusInsufficientStorage)
		if msg, _ := body["error"].(string); !strings.Contains(msg, "AUTH_MAX_NAMESPACES") {
			t.Errorf("507 detail %q does not name the setting", msg)
		}
		checkEnvelope(t, performRequest(e, "POST", "/api/role/b", first, nil), http.StatusCreated)
		if n := countAll(t, az, "rolegate_revisions"); n != limit {
			t.Errorf("%d namespaces written, want %d", n, limit)
		}
	})
}

// With admin keys, the open-mode bounds do not apply: the admins and the
// host's own code are trusted.
func TestClosedAdminPlaneUnbounded(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, func(c *Config) {
			c.ClientKey = newKey()
			c.MaxRowsPerClient, c.MaxNamespaces = 1, 1
		})
		for range 2 {
			c := mustClient(t, az, newKey())
			for _, r := range []string{"a", "b"} {
				if _, err := c.AddRole(context.Background(), r, ""); err != nil {
					t.Fatalf("closed plane, library write: %v", err)
				}
			}
		}
	})
}

// The row limit counts rows written before it applied: by a closed plane,
// and by a version without row bounds (a namespace with no bound row).
func TestOpenModeRowLimitCountsEarlierRows(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key, other := newKey(), newKey()
		closed := openTarget(t, target, func(c *Config) { c.ClientKey = newKey() })
		for _, k := range []string{key, other} {
			c := mustClient(t, closed, k)
			for _, r := range []string{"a", "b", "c", "d", "e"} {
				if _, err := c.AddRole(ctx, r, ""); err != nil {
					t.Fatal(err)
				}
			}
		}
		// As if other's rows were written before row bounds were kept.
		if _, err := closed.db.NewRaw("UPDATE rolegate_revisions SET row_bound = NULL WHERE ns = ?", mustClient(t, closed, other).scope.NS).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		closed.Close()

		az := openTarget(t, target, func(c *Config) { c.MaxRowsPerClient = 3 })
		for _, k := range []string{key, other} {
			c := mustClient(t, az, k)
			if _, err := c.AddRole(ctx, "f", ""); !errors.Is(err, ErrQuotaExceeded) {
				t.Fatalf("a sixth row over a limit of 3: %v, want ErrQuotaExceeded", err)
			}
			for _, r := range []string{"a", "b", "c"} {
				if _, err := c.DelRole(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := c.AddRole(ctx, "f", ""); err != nil {
				t.Fatalf("with 2 rows left, a third: %v", err)
			}
			if n := countRows(t, az, c, "rolegate_roles"); n != 3 {
				t.Errorf("%d roles, want 3", n)
			}
		}
	})
}

// A batch adds many rows in one write: the open mode's row limit holds for
// it too, and a refused batch stores nothing.
func TestOpenModeRowLimitBatch(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		const limit = 6
		az, _ := openREST(t, target, func(c *Config) { c.MaxRowsPerClient = limit })
		e := newTestRouter(t, az, "")
		key := newKey()
		cl := mustClient(t, az, key)
		ops := `{"operations":[{"op":"add_role","role":"r"}`
		for i := range limit + 3 {
			ops += fmt.Sprintf(`,{"op":"add_permission","role":"r","permission":"p%d"}`, i)
		}
		ops += `]}`
		body := checkEnvelope(t, performRequest(e, "POST", "/api/batch", key, strings.NewReader(ops)), http.StatusInsufficientStorage)
		if msg, _ := body["error"].(string); !strings.Contains(msg, "AUTH_MAX_ROWS_PER_CLIENT") {
			t.Errorf("507 detail %q does not name the setting", msg)
		}
		if n := countRows(t, az, cl, "rolegate_roles") + countRows(t, az, cl, "rolegate_permissions"); n != 0 {
			t.Fatalf("a refused batch stored %d rows", n)
		}
		// Within the limit it goes through.
		small := `{"operations":[{"op":"add_role","role":"r"},{"op":"add_permission","role":"r","permission":"p"}]}`
		checkEnvelope(t, performRequest(e, "POST", "/api/batch", key, strings.NewReader(small)), http.StatusCreated)
	})
}

// Scoped memberships and inheritance links are rows too: in open mode a
// stranger cannot grow a namespace past the limit with them.
func TestOpenModeRowLimitCountsScopesAndInheritance(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		const limit = 5
		az, _ := openREST(t, target, func(c *Config) { c.MaxRowsPerClient = limit })
		e := newTestRouter(t, az, "")
		key := newKey()
		checkEnvelope(t, performRequest(e, "POST", "/api/role/a", key, nil), http.StatusCreated)
		checkEnvelope(t, performRequest(e, "POST", "/api/role/b", key, nil), http.StatusCreated)
		checkEnvelope(t, performRequest(e, "POST", "/api/role/a/inherits/b", key, nil), http.StatusCreated)
		checkEnvelope(t, performRequest(e, "POST", "/api/membership/u1/a?scope=org-1", key, nil), http.StatusCreated)
		checkEnvelope(t, performRequest(e, "POST", "/api/membership/u2/a?scope=org-2", key, nil), http.StatusCreated)
		for i := range 3 {
			checkEnvelope(t, performRequest(e, "POST", fmt.Sprintf("/api/membership/u%d/a?scope=org-x", i+3), key, nil), http.StatusInsufficientStorage)
		}
		checkEnvelope(t, performRequest(e, "POST", "/api/role/b/inherits/a", key, nil), http.StatusConflict) // a cycle is still a cycle
		cl := mustClient(t, az, key)
		if n := countRows(t, az, cl, "rolegate_scoped_memberships") + countRows(t, az, cl, "rolegate_role_parents"); n != 3 {
			t.Fatalf("scoped memberships and links stored: %d, want 3", n)
		}
	})
}
