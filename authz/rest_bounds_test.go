package authz

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/authz/internal/clock"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// POST /api/membership and /api/permission with ?expires_at and
// ?starts_at: 201 when the row is created, 200 when it existed (bounds
// changed or not), the bounds in the answer as stored; starts_at not
// before expires_at is a 400, an expires_at already past a 422, a value
// that is not RFC 3339 a 400 naming its parameter; nothing is stored by a
// refused POST. A bounds change is a write (a new Rolegate-Revision).
func TestRESTBoundsOnPOST(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		clk := clock.NewFake(boundsT0)
		az := openClocked(t, target, clk, nil)
		e := newTestRouter(t, az, "")
		key := newKey()
		c := mustClient(t, az, key)
		ctx := context.Background()
		mustDo(t)(c.AddRole(ctx, "editor", ""))
		q := func(kv ...string) string {
			v := url.Values{}
			for i := 0; i+1 < len(kv); i += 2 {
				v.Set(kv[i], kv[i+1])
			}
			return "?" + v.Encode()
		}
		friday := "2030-01-11T18:00:00+01:00" // 17:00 UTC
		monday := "2030-01-14T09:00:00.5Z"
		last := ""
		for i, step := range []struct {
			path   string
			status int
			data   string // text the answer must hold
			write  bool   // a new revision
		}{
			{"/api/membership/alice/editor" + q("expires_at", friday), 201, `"expires_at":"2030-01-11T17:00:00Z"`, true},
			{"/api/membership/alice/editor" + q("expires_at", friday), 200, `"expires_at":"2030-01-11T17:00:00Z"`, false},
			{"/api/membership/alice/editor" + q("starts_at", monday), 200, `"starts_at":"2030-01-14T09:00:00.5Z"`, true},
			{"/api/membership/alice/editor" + q("scope", "org-1", "expires_at", friday), 201, `"scope":"org-1","expires_at":"2030-01-11T17:00:00Z"`, true},
			{"/api/permission/editor/edit" + q("starts_at", friday, "expires_at", monday), 201, `"starts_at":"2030-01-11T17:00:00Z","expires_at":"2030-01-14T09:00:00.5Z"`, true},
			{"/api/permission/editor/edit", 200, `"name":"edit"}`, true}, // the bounds removed
			{"/api/permission/editor/edit", 200, `"name":"edit"}`, false},
			{"/api/membership/bob/editor" + q("starts_at", monday, "expires_at", friday), 400, "starts_at", false},
			{"/api/membership/bob/editor" + q("starts_at", friday, "expires_at", friday), 400, "starts_at", false},
			{"/api/permission/editor/read" + q("expires_at", "2030-01-07T09:00:00Z"), 422, "expires_at", false},
			{"/api/permission/editor/read" + q("expires_at", "tomorrow"), 400, "expires_at must be a time in RFC 3339", false},
			{"/api/membership/bob/editor" + q("starts_at", "2030-01-14"), 400, "starts_at must be a time in RFC 3339", false},
			{"/api/membership/bob/editor?expires_at=2030-01-14T09:00:00Z&expires_at=2030-01-15T09:00:00Z", 400, "expires_at given more than once", false},
			{"/api/membership/bob/editor" + q("expires_after", friday), 400, "unknown query parameter", false},
		} {
			w := performRequest(e, http.MethodPost, step.path, key, nil)
			checkEnvelope(t, w, step.status)
			if text := w.Body.String(); !strings.Contains(text, step.data) {
				t.Fatalf("step %d: POST %s answered %s; want %s in it", i, step.path, text, step.data)
			}
			if step.status >= 300 {
				continue
			}
			rev := w.Header().Get("Rolegate-Revision")
			if rev == "" || (rev != last) != step.write {
				t.Fatalf("step %d: revision %q after %q; a write: %v", i, rev, last, step.write)
			}
			last = rev
		}
		// Nothing of the refused POSTs was stored.
		if ok, err := c.HasPermission(ctx, "editor", "read"); ok || err != nil {
			t.Fatalf("a refused grant is there: %v, %v", ok, err)
		}
		if roles, err := c.GetUserRoles(ctx, "bob"); len(roles) != 0 || err != nil {
			t.Fatalf("a refused membership is there: %v, %v", roles, err)
		}
	})
}
