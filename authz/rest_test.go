package authz

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// restStep is one request of the REST scenario, with the expected status
// and the golden file of its body.
type restStep struct {
	name   string // also the golden file and the client's X-Request-ID
	method string
	path   string
	body   string
	status int
}

// jackAndSara is DESIGN.md's example (Sara can cook, Jack can dance, both
// can laugh) through every route of the REST API, in order.
var jackAndSara = []restStep{
	{"roles-empty", "GET", "/api/roles", "", 200},
	{"add-role-cook", "POST", "/api/role/cook", `{"description": "Can cook"}`, 201},
	{"add-role-cook-again", "POST", "/api/role/cook", `{"description": "ignored"}`, 200},
	{"add-role-dancer", "POST", "/api/role/dancer", "", 201},
	{"add-role-everyone", "POST", "/api/role/everyone", `{}`, 201},
	{"roles", "GET", "/api/roles", "", 200},
	{"add-permission-cook-cook", "POST", "/api/permission/cook/cook", "", 201},
	{"add-permission-cook-cook-again", "POST", "/api/permission/cook/cook", `{}`, 200},
	{"add-permission-dancer-dance", "POST", "/api/permission/dancer/dance", "", 201},
	{"add-permission-everyone-laugh", "POST", "/api/permission/everyone/laugh", "", 201},
	{"add-membership-sara-cook", "POST", "/api/membership/sara/cook", "", 201},
	{"add-membership-sara-cook-again", "POST", "/api/membership/sara/cook", "", 200},
	{"add-membership-jack-dancer", "POST", "/api/membership/jack/dancer", "", 201},
	{"add-membership-sara-everyone", "POST", "/api/membership/sara/everyone", "", 201},
	{"add-membership-jack-everyone", "POST", "/api/membership/jack/everyone", "", 201},
	{"has-permission-cook-cook", "GET", "/api/permission/cook/cook", "", 200},
	{"has-permission-dancer-cook", "GET", "/api/permission/dancer/cook", "", 200},
	{"has-membership-sara-cook", "GET", "/api/membership/sara/cook", "", 200},
	{"has-membership-jack-cook", "GET", "/api/membership/jack/cook", "", 200},
	{"user-has-permission-sara-cook", "GET", "/api/has_permission/sara/cook", "", 200},
	{"user-has-permission-jack-cook", "GET", "/api/has_permission/jack/cook", "", 200},
	{"user-has-permission-jack-dance", "GET", "/api/has_permission/jack/dance", "", 200},
	{"user-has-permission-jack-laugh", "GET", "/api/has_permission/jack/laugh", "", 200},
	{"user-has-permission-sara-laugh", "GET", "/api/has_permission/sara/laugh", "", 200},
	{"user-permissions-sara", "GET", "/api/user_permissions/sara", "", 200},
	{"user-permissions-jack", "GET", "/api/user_permissions/jack", "", 200},
	{"user-permissions-nobody", "GET", "/api/user_permissions/nobody", "", 200},
	{"user-roles-jack", "GET", "/api/user_roles/jack", "", 200},
	{"role-permissions-cook", "GET", "/api/role_permissions/cook", "", 200},
	{"members-everyone", "GET", "/api/members/everyone", "", 200},
	{"members-everyone-page-1", "GET", "/api/members/everyone?limit=1", "", 200},
	{"members-everyone-page-2", "GET", "/api/members/everyone?limit=1&after=jack", "", 200},
	{"members-everyone-page-3", "GET", "/api/members/everyone?limit=1&after=sara", "", 200},
	{"roles-after-cook", "GET", "/api/roles?after=cook", "", 200},
	{"which-roles-can-laugh", "GET", "/api/which_roles_can/laugh", "", 200},
	{"which-users-can-laugh", "GET", "/api/which_users_can/laugh", "", 200},
	{"which-users-can-cook", "GET", "/api/which_users_can/cook", "", 200},
	{"del-membership-jack-everyone", "DELETE", "/api/membership/jack/everyone", "", 200},
	{"del-membership-jack-everyone-again", "DELETE", "/api/membership/jack/everyone", "", 200},
	{"user-has-permission-jack-laugh-after", "GET", "/api/has_permission/jack/laugh", "", 200},
	{"del-permission-everyone-laugh", "DELETE", "/api/permission/everyone/laugh", "", 200},
	{"del-permission-everyone-laugh-again", "DELETE", "/api/permission/everyone/laugh", "", 200},
	{"del-role-dancer", "DELETE", "/api/role/dancer", "", 200},
	{"del-role-dancer-again", "DELETE", "/api/role/dancer", "", 200},
	{"user-has-permission-jack-dance-after", "GET", "/api/has_permission/jack/dance", "", 200},
	{"user-roles-jack-after", "GET", "/api/user_roles/jack", "", 200},
	{"audit", "GET", "/api/audit?limit=6", "", 200},
	{"ping", "GET", "/ping", "", 200},
}

// TestRESTScenario runs every route on SQLite and PostgreSQL, at the root
// and under a prefix group: status, envelope, and the body against its
// golden file (one file for both databases and both mounts, so they must
// answer alike).
func TestRESTScenario(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, prefix := range []string{"", "/auth"} {
			name := "root"
			if prefix != "" {
				name = "prefix"
			}
			t.Run(name, func(t *testing.T) {
				az, logs := openREST(t, target, nil)
				e := newTestRouter(t, az, prefix)
				key := newKey()
				for _, st := range jackAndSara {
					t.Run(st.name, func(t *testing.T) {
						w := performRequest(e, st.method, prefix+st.path, key, strings.NewReader(st.body),
							"X-Request-ID", st.name, "Content-Type", "application/json")
						body := checkEnvelope(t, w, st.status)
						// Our own request id, never the one the client sent.
						if got := w.Header().Get("X-Request-ID"); got == st.name || uuid.Validate(got) != nil {
							t.Errorf("X-Request-ID = %q, want a fresh UUID of ours", got)
						}
						if data, ok := body["data"].(map[string]any); ok && st.name == "ping" && target.Name == "postgresql" {
							// The listener is PostgreSQL's alone (TestPingData).
							if data["listener"] != true {
								t.Errorf("listener %v", data["listener"])
							}
							delete(data, "listener")
						}
						checkGolden(t, "scenario/"+st.name, body)
					})
				}
				if strings.Contains(logs.String(), key) {
					t.Errorf("the client key appears in the logs")
				}
			})
		}
	})
}

// TestRESTAuditPaging: newest first, before and limit page through the
// records, the default limit is 100 and the maximum 1000.
func TestRESTAuditPaging(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		for _, r := range []string{"a", "b", "c", "d", "e"} {
			checkEnvelope(t, performRequest(e, "POST", "/api/role/"+r, key, nil), 201)
		}
		records := func(target string) []map[string]any {
			t.Helper()
			body := checkEnvelope(t, performRequest(e, "GET", target, key, nil), 200)
			var out []map[string]any
			raw, _ := json.Marshal(body["data"])
			if err := json.Unmarshal(raw, &out); err != nil {
				t.Fatal(err)
			}
			return out
		}
		all := records("/api/audit")
		if len(all) != 5 {
			t.Fatalf("got %d records, want 5", len(all))
		}
		for i, want := range []string{"role:e", "role:d", "role:c", "role:b", "role:a"} {
			if all[i]["resource"] != want || all[i]["action"] != "add_role" || all[i]["outcome"] != "created" {
				t.Errorf("record %d = %v, want add_role %s created", i, all[i], want)
			}
			if all[i]["remote_addr"] != "192.0.2.1" || all[i]["request_id"] == "" {
				t.Errorf("record %d lacks the request's id or address: %v", i, all[i])
			}
		}
		page := records("/api/audit?limit=2")
		if len(page) != 2 || page[0]["id"] != all[0]["id"] || page[1]["id"] != all[1]["id"] {
			t.Fatalf("first page = %v", page)
		}
		last := int64(page[1]["id"].(float64))
		page = records("/api/audit?limit=2&before=" + jsonInt(last))
		if len(page) != 2 || page[0]["id"] != all[2]["id"] || page[1]["id"] != all[3]["id"] {
			t.Fatalf("second page = %v", page)
		}
		if got := records("/api/audit?limit=1000"); len(got) != 5 {
			t.Errorf("limit=1000 gave %d records", len(got))
		}
	})
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestRESTDefaultAuditLimit(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), nil)
	e := newTestRouter(t, az, "")
	key := newKey()
	c := mustClient(t, az, key)
	for i := range 105 {
		if _, err := c.AddRole(t.Context(), "r"+jsonInt(int64(i)), ""); err != nil {
			t.Fatal(err)
		}
	}
	body := checkEnvelope(t, performRequest(e, "GET", "/api/audit", key, nil), 200)
	if n := len(body["data"].([]any)); n != DefaultAuditLimit {
		t.Errorf("GET /api/audit gave %d records, want %d", n, DefaultAuditLimit)
	}
	checkEnvelope(t, performRequest(e, "GET", "/api/audit?limit=1001", key, nil), http.StatusBadRequest)
}
