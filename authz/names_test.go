package authz

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/storage/storagetest"
)

const (
	nfcRole = "r\u00f4le"  // "rôle", composed
	nfdRole = "ro\u0302le" // "rôle", decomposed
)

// TestLookAlikeNames: a composed and a decomposed "rôle" are one role, one
// user and one permission through the library, REST and guards; names with
// invisible format characters are refused.
func TestLookAlikeNames(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, func(c *Config) {
			c.ClientKey = "6f1c2e9a-3b4d-4c5e-9f60-718293a4b5c6"
			c.Resolver = func(c *gin.Context) (string, error) { return c.GetHeader("X-User"), nil }
		})
		ctx := context.Background()
		key := "6f1c2e9a-3b4d-4c5e-9f60-718293a4b5c6"
		cl := mustClient(t, az, key)
		mustOK(t)(cl.AddRole(ctx, nfcRole, ""))
		if created, err := cl.AddRole(ctx, nfdRole, ""); err != nil || created {
			t.Fatalf("AddRole(decomposed) = %v, %v; want an existing role", created, err)
		}
		mustOK(t)(cl.AddPermission(ctx, nfdRole, nfdRole))
		mustOK(t)(cl.AddMembership(ctx, nfdRole+"-user", nfcRole))
		if created, err := cl.AddMembership(ctx, nfcRole+"-user", nfdRole); err != nil || created {
			t.Fatalf("AddMembership(composed user) = %v, %v; want an existing membership", created, err)
		}
		roles, err := cl.Roles(ctx)
		if err != nil || len(roles) != 1 || roles[0].Role != nfcRole {
			t.Fatalf("Roles = %v, %v; want only the NFC role", roles, err)
		}
		if users, _ := cl.GetRoleMembers(ctx, nfdRole); !slices.Equal(users, []string{nfcRole + "-user"}) {
			t.Errorf("members = %q", users)
		}
		for _, u := range []string{nfcRole + "-user", nfdRole + "-user"} {
			if ok, err := cl.UserHasPermission(ctx, u, nfdRole); err != nil || !ok {
				t.Errorf("UserHasPermission(%q) = %v, %v", u, ok, err)
			}
		}
		for _, bad := range []string{"ad\u200bmin", "\u202eadmin", "ad\u00admin"} {
			if _, err := cl.AddRole(ctx, bad, ""); !errors.Is(err, ErrInvalidName) {
				t.Errorf("AddRole(%q) = %v, want ErrInvalidName", bad, err)
			}
		}

		e := newTestRouter(t, az, "")
		// REST: the decomposed path names the existing role.
		w := performRequest(e, http.MethodPost, "/api/role/ro%CC%82le", key, nil)
		checkEnvelope(t, w, http.StatusOK)
		w = performRequest(e, http.MethodGet, "/api/membership/ro%CC%82le-user/r%C3%B4le", key, nil)
		if body := checkEnvelope(t, w, http.StatusOK); body["data"].(map[string]any)["result"] != true {
			t.Errorf("membership of the decomposed user: %s", w.Body.String())
		}
		w = performRequest(e, http.MethodGet, "/api/members/ro%CC%82le?after=ro%CC%82le-a", key, nil)
		if got := listNames(t, checkEnvelope(t, w, http.StatusOK), "user"); !slices.Equal(got, []string{nfcRole + "-user"}) {
			t.Errorf("members after a decomposed name = %q", got)
		}
		for _, path := range []string{"/api/role/ad%E2%80%8Bmin", "/api/role/%E2%80%AEadmin"} {
			checkEnvelope(t, performRequest(e, http.MethodPost, path, key, nil), http.StatusBadRequest)
		}

		// Guards: built with the decomposed name, asked for a decomposed user.
		g := gin.New()
		g.GET("/x", az.RequirePermission(nfdRole), func(c *gin.Context) { c.Status(http.StatusNoContent) })
		for _, u := range []string{nfcRole + "-user", nfdRole + "-user"} {
			if w := performRequest(g, http.MethodGet, "/x", "", nil, "X-User", u); w.Code != http.StatusNoContent {
				t.Errorf("guard for user %q: %d %s", u, w.Code, w.Body.String())
			}
		}
	})
}
