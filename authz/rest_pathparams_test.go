package authz

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestPlusInPathIsAPlus: with the UseRawPath settings Mount's doc
// recommends, "/api/membership/john+test/r%c3%b4le" (lower-case hex
// elsewhere in the path) stored the user "john test". Both the
// recommended and gin's default settings store "john+test".
func TestPlusInPathIsAPlus(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, rawPath := range []bool{true, false} {
			name := map[bool]string{true: "UseRawPath", false: "default"}[rawPath]
			t.Run(name, func(t *testing.T) {
				az := openTarget(t, target, nil)
				e := newTestRouter(t, az, "")
				if !rawPath {
					e = gin.New()
					if err := az.Mount(e); err != nil {
						t.Fatal(err)
					}
				}
				key := newKey()
				cl := mustClient(t, az, key)
				mustOK(t)(cl.AddRole(context.Background(), "r\u00f4le", ""))
				for _, path := range []string{"/api/membership/john+test/r%c3%b4le", "/api/membership/ann+lee/r%C3%B4le"} {
					checkEnvelope(t, performRequest(e, http.MethodPost, path, key, nil), http.StatusCreated)
				}
				users, err := cl.GetRoleMembers(context.Background(), "r\u00f4le")
				if err != nil || !slices.Equal(users, []string{"ann+lee", "john+test"}) {
					t.Fatalf("members = %q, %v; want ann+lee and john+test", users, err)
				}
				w := performRequest(e, http.MethodGet, "/api/user_roles/john+test?limit=5", key, nil)
				if got := listNames(t, checkEnvelope(t, w, http.StatusOK), "role"); !slices.Equal(got, []string{"r\u00f4le"}) {
					t.Errorf("user_roles of john+test = %q", got)
				}
			})
		}
	})
}
