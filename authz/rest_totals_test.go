package authz

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/rolegate/rolegate/middleware"
)

// TestRESTTotalCount: GET /api/roles and GET /api/users report in
// X-Total-Count how many entries match ?prefix, whatever the page, sent
// with the headers (before the body); another client's rows are never
// counted; the other lists and error answers carry no count.
func TestRESTTotalCount(t *testing.T) {
	forEachStoreEncrypted(t, func(t *testing.T, az *Authz, _ bool) { testRESTTotalCount(t, az) })
}

func testRESTTotalCount(t *testing.T, az *Authz) {
	e := newTestRouter(t, az, "")
	ctx := context.Background()
	key, otherKey := newKey(), newKey()
	cl, other := mustClient(t, az, key), mustClient(t, az, otherKey)
	must := func(_ bool, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// 57 roles: bulk-00 … bulk-49, alpha, alpine, beta, ünï, üb, r, s.
	for i := range 50 {
		must(cl.AddRole(ctx, fmt.Sprintf("bulk-%02d", i), ""))
	}
	for _, r := range []string{"alpha", "alpine", "beta", "ünï", "üb", "r", "s"} {
		must(cl.AddRole(ctx, r, ""))
	}
	// 7 users: u1 in two roles and a scope, u3 and w9 only in scopes.
	for _, u := range []string{"u1", "u10", "u2", "v1", "ülf"} {
		must(cl.AddMembership(ctx, u, "r"))
	}
	must(cl.AddMembership(ctx, "u1", "s"))
	must(cl.AddMembershipIn(ctx, "org-1", "u1", "r"))
	must(cl.AddMembershipIn(ctx, "org-1", "u3", "r"))
	must(cl.AddMembershipIn(ctx, "org-2", "w9", "s"))
	must(cl.AddMembershipIn(ctx, "org-1", "w9", "s"))
	// The other client has names under every prefix asked below.
	for _, r := range []string{"alpha", "alp-other", "bulk-99", "r", "zeta", "ü-other"} {
		must(other.AddRole(ctx, r, ""))
	}
	for _, u := range []string{"u1", "u11", "u4", "v2", "ü-other", "w9"} {
		must(other.AddMembership(ctx, u, "r"))
	}
	must(other.AddMembershipIn(ctx, "org-1", "u5", "r"))

	q := url.QueryEscape
	for _, tc := range []struct {
		target string
		want   int
	}{
		{"/api/roles", 57},
		{"/api/roles?limit=50", 57},
		{"/api/roles?limit=50&after=bulk-47", 57},
		{"/api/roles?prefix=", 57},
		{"/api/roles?prefix=bulk-", 50},
		{"/api/roles?prefix=bulk-1&limit=3", 10},
		{"/api/roles?prefix=alp", 2},
		{"/api/roles?prefix=alp&after=alpine", 2},
		{"/api/roles?prefix=" + q("ü"), 2},
		{"/api/roles?prefix=" + q("u\u0308"), 2}, // normalised to NFC, as the list's prefix
		{"/api/roles?prefix=zeta", 0},
		{"/api/users", 7},
		{"/api/users?limit=2&after=u10", 7},
		{"/api/users?prefix=u", 4},
		{"/api/users?prefix=u1", 2},
		{"/api/users?prefix=u3", 1},
		{"/api/users?prefix=w", 1},
		{"/api/users?prefix=" + q("ü"), 1},
		{"/api/users?prefix=u4", 0},
	} {
		t.Run(tc.target, func(t *testing.T) {
			w := performRequest(e, http.MethodGet, tc.target, key, nil)
			checkEnvelope(t, w, http.StatusOK)
			// Result's header is the one sent with the status line, before
			// the body: a header set afterwards would not be in it.
			if got := w.Result().Header.Get(middleware.HeaderTotalCount); got != strconv.Itoa(tc.want) {
				t.Errorf("%s: X-Total-Count %q, want %d", tc.target, got, tc.want)
			}
		})
	}
	// The count is what the list holds when read whole.
	for _, target := range []string{"/api/roles?prefix=b", "/api/users?prefix=u1", "/api/users"} {
		w := performRequest(e, http.MethodGet, target, key, nil)
		data, _ := checkEnvelope(t, w, http.StatusOK)["data"].([]any)
		if got := w.Result().Header.Get(middleware.HeaderTotalCount); got != strconv.Itoa(len(data)) {
			t.Errorf("%s: X-Total-Count %q, the list holds %d", target, got, len(data))
		}
	}
	// The other client counts its own rows only.
	for target, want := range map[string]int{"/api/roles": 6, "/api/roles?prefix=alp": 2, "/api/users": 7, "/api/users?prefix=u": 4} {
		w := performRequest(e, http.MethodGet, target, otherKey, nil)
		checkEnvelope(t, w, http.StatusOK)
		if got := w.Result().Header.Get(middleware.HeaderTotalCount); got != strconv.Itoa(want) {
			t.Errorf("other client %s: X-Total-Count %q, want %d", target, got, want)
		}
	}
	// No count on the other lists, on other routes, or with an error.
	for _, tc := range []struct {
		target string
		code   int
	}{
		{"/api/members/r", http.StatusOK},
		{"/api/members/r?prefix=u", http.StatusOK},
		{"/api/user_roles/u1", http.StatusOK},
		{"/api/role_permissions/r", http.StatusOK},
		{"/api/scoped_memberships", http.StatusOK},
		{"/api/role/r", http.StatusOK},
		{"/api/roles?prefix=a%2Fb", http.StatusBadRequest},
		{"/api/users?limit=0", http.StatusBadRequest},
		{"/api/users?at_least=r99999", http.StatusBadRequest},
		{"/api/roles?nope=1", http.StatusBadRequest},
	} {
		w := performRequest(e, http.MethodGet, tc.target, key, nil)
		checkEnvelope(t, w, tc.code)
		if got, ok := w.Result().Header[middleware.HeaderTotalCount]; ok {
			t.Errorf("%s: X-Total-Count %q, want none", tc.target, got)
		}
	}
	if w := performRequest(e, http.MethodGet, "/api/roles", "", nil); w.Header().Get(middleware.HeaderTotalCount) != "" {
		t.Errorf("GET /api/roles without a key: X-Total-Count %q", w.Header().Get(middleware.HeaderTotalCount))
	}
}
