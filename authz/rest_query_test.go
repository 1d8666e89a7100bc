package authz

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRESTUnknownQueryParameter: a misspelt or wrongly cased parameter is
// refused with 400 naming it and the accepted ones, never ignored; above
// all ?scpoe= and ?Scope= on a membership must not make a global
// membership.
func TestRESTUnknownQueryParameter(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		ctx := context.Background()
		cl := mustClient(t, az, key)
		mustOK(t)(cl.AddRole(ctx, "editor", ""))

		for _, q := range []string{"scpoe", "Scope", "SCOPE", "scope "} {
			t.Run("membership ?"+q, func(t *testing.T) {
				for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
					w := performRequest(e, method, "/api/membership/sq2/editor?"+strings.ReplaceAll(q, " ", "%20")+"=org-1", key, nil)
					body := checkEnvelope(t, w, http.StatusBadRequest)
					detail, _ := body["error"].(string)
					if !strings.Contains(detail, `"`+q+`"`) || !strings.Contains(detail, "scope") {
						t.Errorf("%s: detail %q names neither %q nor the accepted scope", method, detail, q)
					}
				}
				roles, err := cl.GetUserRoles(ctx, "sq2")
				assertList(t, "global roles of sq2", roles, err)
				scoped, err := cl.GetUserRolesIn(ctx, "org-1", "sq2")
				if err != nil || len(scoped) != 0 {
					t.Errorf("roles of sq2 in org-1: %v, %v", scoped, err)
				}
			})
		}

		t.Run("every route", func(t *testing.T) {
			for _, rt := range restRoutes() {
				w := performRequest(e, rt.method, fillPath(rt.path, -1, "")+"?bogus=1", key, nil)
				body := checkEnvelope(t, w, http.StatusBadRequest)
				if detail, _ := body["error"].(string); !strings.Contains(detail, `"bogus"`) {
					t.Errorf("%s %s: detail %q does not name the parameter", rt.method, rt.path, detail)
				}
			}
			w := performRequest(e, http.MethodPost, "/api/batch?bogus=1", key, strings.NewReader(`{"operations":[]}`))
			checkEnvelope(t, w, http.StatusBadRequest)
		})

		t.Run("accepted parameters", func(t *testing.T) {
			for _, target := range []string{
				"/api/membership/sq2/editor?scope=org-1",
				"/api/user_roles/sq2?scope=org-1&limit=10&after=a",
				"/api/members/editor?scope=org-1&limit=1",
				"/api/role_permissions/editor?effective=true&limit=5",
				"/api/permission/editor/edit?effective=true&explain=true",
				"/api/has_permission/sq2/edit?scope=org-1&explain=true",
				"/api/scoped_memberships?limit=1",
				"/api/audit?limit=5&action=add_role&before=1000",
				"/api/roles?limit=1&after=a",
				"/api/roles?prefix=a&limit=1",
				"/api/members/editor?prefix=s&scope=org-1",
				"/api/user_roles/sq2?prefix=e",
				"/api/users?prefix=s&limit=1&after=a",
			} {
				checkEnvelope(t, performRequest(e, http.MethodGet, target, key, nil), http.StatusOK)
			}
		})
	})
}
