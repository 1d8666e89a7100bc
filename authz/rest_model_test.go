package authz

import (
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// modelScenario: role inheritance, scoped memberships, effective views and
// explain, through every new route and parameter, in order.
var modelScenario = []restStep{
	{"add-role-viewer", "POST", "/api/role/viewer", "", 201},
	{"add-role-editor", "POST", "/api/role/editor", "", 201},
	{"add-role-admin", "POST", "/api/role/admin", "", 201},
	{"add-permission-viewer-read", "POST", "/api/permission/viewer/read", "", 201},
	{"add-permission-editor-edit", "POST", "/api/permission/editor/edit", "", 201},
	{"add-permission-admin-manage", "POST", "/api/permission/admin/manage", "", 201},
	{"inherit-editor-viewer", "POST", "/api/role/editor/inherits/viewer", "", 201},
	{"inherit-editor-viewer-again", "POST", "/api/role/editor/inherits/viewer", "{}", 200},
	{"inherit-admin-editor", "POST", "/api/role/admin/inherits/editor", "", 201},
	{"inherit-viewer-admin-cycle", "POST", "/api/role/viewer/inherits/admin", "", 409},
	{"inherit-viewer-viewer-cycle", "POST", "/api/role/viewer/inherits/viewer", "", 409},
	{"inherit-ghost-viewer", "POST", "/api/role/ghost/inherits/viewer", "", 404},
	{"inherit-viewer-ghost", "POST", "/api/role/viewer/inherits/ghost", "", 404},
	{"parents-admin", "GET", "/api/role/admin/inherits", "", 200},
	{"parents-viewer", "GET", "/api/role/viewer/inherits", "", 200},
	{"parents-ghost", "GET", "/api/role/ghost/inherits", "", 404},
	{"add-membership-sara-admin", "POST", "/api/membership/sara/admin", "", 201},
	{"user-has-permission-sara-read", "GET", "/api/has_permission/sara/read", "", 200},
	{"user-has-permission-sara-read-explain", "GET", "/api/has_permission/sara/read?explain=true", "", 200},
	{"user-has-permission-sara-manage-explain", "GET", "/api/has_permission/sara/manage?explain=true", "", 200},
	{"user-has-permission-sara-nope-explain", "GET", "/api/has_permission/sara/nope?explain=true", "", 200},
	{"user-permissions-sara-effective", "GET", "/api/user_permissions/sara", "", 200},
	{"which-roles-can-read", "GET", "/api/which_roles_can/read", "", 200},
	{"which-users-can-read", "GET", "/api/which_users_can/read", "", 200},
	{"has-permission-admin-read-direct", "GET", "/api/permission/admin/read", "", 200},
	{"has-permission-admin-read-effective", "GET", "/api/permission/admin/read?effective=true", "", 200},
	{"has-permission-admin-read-explain", "GET", "/api/permission/admin/read?explain=true", "", 200},
	{"has-permission-admin-nope-explain", "GET", "/api/permission/admin/nope?explain=true", "", 200},
	{"has-permission-admin-read-explain-bad", "GET", "/api/permission/admin/read?explain=maybe", "", 400},
	{"role-permissions-admin-direct", "GET", "/api/role_permissions/admin", "", 200},
	{"role-permissions-admin-effective", "GET", "/api/role_permissions/admin?effective=true", "", 200},
	{"role-permissions-admin-effective-bad", "GET", "/api/role_permissions/admin?effective=maybe", "", 400},
	{"add-membership-alice-editor-org-42", "POST", "/api/membership/alice/editor?scope=org-42", "", 201},
	{"add-membership-alice-editor-org-42-again", "POST", "/api/membership/alice/editor?scope=org-42", "", 200},
	{"add-membership-alice-editor-bad-scope", "POST", "/api/membership/alice/editor?scope=%20org", "", 400},
	{"has-membership-alice-editor", "GET", "/api/membership/alice/editor", "", 200},
	{"has-membership-alice-editor-org-42", "GET", "/api/membership/alice/editor?scope=org-42", "", 200},
	{"has-membership-alice-editor-org-7", "GET", "/api/membership/alice/editor?scope=org-7", "", 200},
	{"user-has-permission-alice-read", "GET", "/api/has_permission/alice/read", "", 200},
	{"user-has-permission-alice-read-org-42", "GET", "/api/has_permission/alice/read?scope=org-42", "", 200},
	{"user-has-permission-alice-read-org-42-explain", "GET", "/api/has_permission/alice/read?scope=org-42&explain=true", "", 200},
	{"user-has-permission-alice-read-org-7", "GET", "/api/has_permission/alice/read?scope=org-7", "", 200},
	{"user-has-permission-sara-read-org-7", "GET", "/api/has_permission/sara/read?scope=org-7", "", 200},
	{"user-roles-alice", "GET", "/api/user_roles/alice", "", 200},
	{"user-roles-alice-org-42", "GET", "/api/user_roles/alice?scope=org-42", "", 200},
	{"user-permissions-alice-org-42", "GET", "/api/user_permissions/alice?scope=org-42", "", 200},
	{"members-editor", "GET", "/api/members/editor", "", 200},
	{"members-editor-org-42", "GET", "/api/members/editor?scope=org-42", "", 200},
	{"which-users-can-read-org-42", "GET", "/api/which_users_can/read?scope=org-42", "", 200},
	{"del-membership-alice-editor", "DELETE", "/api/membership/alice/editor", "", 200},
	{"del-membership-alice-editor-org-42", "DELETE", "/api/membership/alice/editor?scope=org-42", "", 200},
	{"user-has-permission-alice-read-org-42-after", "GET", "/api/has_permission/alice/read?scope=org-42", "", 200},
	{"del-inherit-admin-editor", "DELETE", "/api/role/admin/inherits/editor", "", 200},
	{"del-inherit-admin-editor-again", "DELETE", "/api/role/admin/inherits/editor", "", 200},
	{"user-has-permission-sara-read-after", "GET", "/api/has_permission/sara/read", "", 200},
	{"inherit-admin-editor-back", "POST", "/api/role/admin/inherits/editor", "", 201},
	{"del-role-editor", "DELETE", "/api/role/editor", "", 200},
	{"parents-admin-after", "GET", "/api/role/admin/inherits", "", 200},
	{"user-has-permission-sara-read-after-delete", "GET", "/api/has_permission/sara/read", "", 200},
}

// TestRESTModelScenario runs modelScenario on SQLite and PostgreSQL:
// status, envelope, and each body against its golden file.
func TestRESTModelScenario(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		for _, st := range modelScenario {
			t.Run(st.name, func(t *testing.T) {
				w := performRequest(e, st.method, st.path, key, strings.NewReader(st.body),
					"X-Request-ID", st.name, "Content-Type", "application/json")
				checkGolden(t, "model/"+st.name, checkEnvelope(t, w, st.status))
			})
		}
	})
}
