package authz

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// The REST additions the admin console uses: PUT /api/role/{role} to
// change a description, GET /api/users, and ?prefix on the lists of
// roles, of users, of a role's members and of a user's roles.

func TestRESTPutRoleDescription(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, _ storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		put := func(target, body string) *httptest.ResponseRecorder {
			t.Helper()
			if body == "" {
				return performRequest(e, http.MethodPut, target, key, nil)
			}
			return performRequest(e, http.MethodPut, target, key, strings.NewReader(body), "Content-Type", "application/json")
		}
		checkEnvelope(t, performRequest(e, http.MethodPost, "/api/role/editor", key,
			strings.NewReader(`{"description":"old"}`), "Content-Type", "application/json"), http.StatusCreated)

		body := checkEnvelope(t, put("/api/role/editor", `{"description":"Can edit notes"}`), http.StatusOK)
		if body["message"] != "description changed" {
			t.Errorf("message %q, want %q", body["message"], "description changed")
		}
		want := map[string]any{"role": "editor", "description": "Can edit notes"}
		if !reflect.DeepEqual(body["data"], want) {
			t.Errorf("data %v, want %v", body["data"], want)
		}
		got := checkEnvelope(t, performRequest(e, http.MethodGet, "/api/role/editor", key, nil), http.StatusOK)
		if d := got["data"].(map[string]any)["description"]; d != "Can edit notes" {
			t.Errorf("GET after PUT: description %q", d)
		}
		body = checkEnvelope(t, put("/api/role/editor", `{"description":"Can edit notes"}`), http.StatusOK)
		if body["message"] != "description unchanged" {
			t.Errorf("same description again: message %q", body["message"])
		}
		body = checkEnvelope(t, put("/api/role/editor", `{"description":""}`), http.StatusOK)
		if !reflect.DeepEqual(body["data"], map[string]any{"role": "editor", "description": ""}) {
			t.Errorf("cleared: data %v", body["data"])
		}

		for _, tc := range []struct {
			name, target, body string
			want               int
		}{
			{"missing role", "/api/role/nope", `{"description":"x"}`, http.StatusNotFound},
			{"no body", "/api/role/editor", "", http.StatusBadRequest},
			{"no description field", "/api/role/editor", `{}`, http.StatusBadRequest},
			{"unknown field", "/api/role/editor", `{"description":"x","owner":"y"}`, http.StatusBadRequest},
			{"not a string", "/api/role/editor", `{"description":7}`, http.StatusBadRequest},
			{"control character", "/api/role/editor", `{"description":"a\u0007b"}`, http.StatusBadRequest},
			{"invalid role name", "/api/role/%20x", `{"description":"x"}`, http.StatusBadRequest},
			{"unknown parameter", "/api/role/editor?scope=x", `{"description":"x"}`, http.StatusBadRequest},
		} {
			t.Run(tc.name, func(t *testing.T) {
				checkEnvelope(t, put(tc.target, tc.body), tc.want)
			})
		}
		cl := mustClient(t, az, key)
		if _, err := cl.SetRoleDescription(context.Background(), "nope", "x"); !errors.Is(err, ErrRoleNotFound) {
			t.Errorf("SetRoleDescription of a missing role: %v, want ErrRoleNotFound", err)
		}
		if _, err := cl.SetRoleDescription(context.Background(), "bad/name", "x"); !errors.Is(err, ErrInvalidName) {
			t.Errorf("SetRoleDescription of an invalid name: %v, want ErrInvalidName", err)
		}

		// Audited like every write: the changes, and the 404.
		audit := checkEnvelope(t, performRequest(e, http.MethodGet, "/api/audit?action=set_description", key, nil), http.StatusOK)
		var outcomes []string
		for _, r := range audit["data"].([]any) {
			rec := r.(map[string]any)
			outcomes = append(outcomes, rec["resource"].(string)+" "+rec["outcome"].(string))
		}
		joined := strings.Join(outcomes, "; ")
		if strings.Count(joined, "role:editor") < 3 || !strings.Contains(joined, "role:nope") {
			t.Errorf("set_description audit records %q: want the three PUTs of editor and the refusal of nope", outcomes)
		}
	})
}

func TestRESTPrefix(t *testing.T) {
	forEachStoreEncrypted(t, func(t *testing.T, az *Authz, _ bool) { testRESTPrefix(t, az) })
}

func testRESTPrefix(t *testing.T, az *Authz) {
	e := newTestRouter(t, az, "")
	key := newKey()
	ctx := context.Background()
	cl := mustClient(t, az, key)
	roles := []string{"al", "alpha", "alpine", "alp ine", "beta", "ünï", "üb", "zeta"}
	for _, r := range roles {
		if _, err := cl.AddRole(ctx, r, ""); err != nil {
			t.Fatal(err)
		}
	}
	users := []string{"u1", "u10", "u2", "v1", "ülf"}
	for _, u := range users {
		if _, err := cl.AddMembership(ctx, u, "alpha"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cl.AddMembership(ctx, "u1", "beta"); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.AddMembershipIn(ctx, "org-1", "u3", "alpha"); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.AddMembershipIn(ctx, "org-1", "u1", "alpine"); err != nil {
		t.Fatal(err)
	}
	get := func(target string, want int) map[string]any {
		t.Helper()
		return checkEnvelope(t, performRequest(e, http.MethodGet, target, key, nil), want)
	}
	q := url.QueryEscape
	for _, tc := range []struct {
		target, field string
		want          []string
	}{
		{"/api/roles?prefix=al", "role", []string{"al", "alp ine", "alpha", "alpine"}},
		{"/api/roles?prefix=alp", "role", []string{"alp ine", "alpha", "alpine"}},
		{"/api/roles?prefix=" + q("alp "), "role", []string{"alp ine"}},
		{"/api/roles?prefix=al&limit=2", "role", []string{"al", "alp ine"}},
		{"/api/roles?prefix=al&limit=2&after=" + q("alp ine"), "role", []string{"alpha", "alpine"}},
		{"/api/roles?prefix=al&after=alpine", "role", []string{}},
		{"/api/roles?prefix=" + q("ü"), "role", []string{"üb", "ünï"}},
		{"/api/roles?prefix=zeta", "role", []string{"zeta"}},
		{"/api/roles?prefix=zz", "role", []string{}},
		{"/api/roles?prefix=", "role", []string{"al", "alp ine", "alpha", "alpine", "beta", "zeta", "üb", "ünï"}},
		{"/api/members/alpha?prefix=u1", "user", []string{"u1", "u10"}},
		{"/api/members/alpha?prefix=u&limit=2", "user", []string{"u1", "u10"}},
		{"/api/members/alpha?prefix=u&after=u10", "user", []string{"u2"}},
		{"/api/members/alpha?prefix=" + q("ü"), "user", []string{"ülf"}},
		{"/api/members/alpha?prefix=u3", "user", []string{}},
		{"/api/members/alpha?prefix=u3&scope=org-1", "user", []string{"u3"}},
		{"/api/user_roles/u1?prefix=al", "role", []string{"alpha"}},
		{"/api/user_roles/u1?prefix=al&scope=org-1", "role", []string{"alpha", "alpine"}},
		{"/api/user_roles/u1?prefix=b", "role", []string{"beta"}},
		{"/api/users", "user", []string{"u1", "u10", "u2", "u3", "v1", "ülf"}},
		{"/api/users?prefix=u1", "user", []string{"u1", "u10"}},
		{"/api/users?limit=2&after=u10", "user", []string{"u2", "u3"}},
		{"/api/users?prefix=u&limit=3&after=u1", "user", []string{"u10", "u2", "u3"}},
		{"/api/users?prefix=" + q("ü"), "user", []string{"ülf"}},
		{"/api/users?prefix=w", "user", []string{}},
	} {
		t.Run(tc.target, func(t *testing.T) {
			got := listNames(t, get(tc.target, http.StatusOK), tc.field)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s: %q, want %q", tc.target, got, tc.want)
			}
		})
	}
	// The scoped view marks each entry.
	body := get("/api/members/alpha?prefix=u&scope=org-1", http.StatusOK)
	want := []any{
		map[string]any{"user": "u1"}, map[string]any{"user": "u10"}, map[string]any{"user": "u2"},
		map[string]any{"user": "u3", "scope": "org-1"},
	}
	if !reflect.DeepEqual(body["data"], want) {
		t.Errorf("scoped members with a prefix: %v, want %v", body["data"], want)
	}
	for _, target := range []string{
		"/api/roles?prefix=a%2Fb",
		"/api/roles?prefix=a%07",
		"/api/roles?prefix=a&prefix=b",
		"/api/roles?prefix=" + strings.Repeat("x", 129),
		"/api/which_roles_can/alpha?prefix=a", // not a route with ?prefix
		"/api/members/nope?prefix=a",
		"/api/users?scope=org-1",
	} {
		t.Run(target, func(t *testing.T) {
			wantCode := http.StatusBadRequest
			if strings.Contains(target, "nope") {
				wantCode = http.StatusNotFound
			}
			body := get(target, wantCode)
			if wantCode == http.StatusBadRequest && !strings.Contains(body["error"].(string), "prefix") && !strings.Contains(target, "scope") {
				t.Errorf("error %q does not name prefix", body["error"])
			}
		})
	}
}
