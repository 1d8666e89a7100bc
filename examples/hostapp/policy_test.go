package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/authz/authztest"
	"github.com/rolegate/rolegate/middleware"
)

// TestGuardsAgainstPolicy runs the app's guards against its real policy
// (policy.yaml) through package authztest: the policy's decisions
// (testdata/policy-cases.yaml, with the members they are about), then
// each guarded route as each of those members, on the app's own router.
func TestGuardsAgainstPolicy(t *testing.T) {
	gin.SetMode(gin.TestMode)
	cases := authztest.ReadCases(t, "testdata/policy-cases.yaml")
	p, err := cases.AddTo(authztest.ReadPolicy(t, "policy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := authztest.New(t, p, authztest.Options{Config: authz.Config{Resolver: middleware.HeaderResolver("X-User")}})
	s.Cases(t, cases.Cases)

	e, err := newEngine(s.Authz, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	create := func(path, user string) string {
		t.Helper()
		code, body := send(t, http.MethodPost, srv.URL+path, `{"text":"x"}`, "X-User", user)
		var n note
		if code != http.StatusCreated || json.Unmarshal([]byte(body), &n) != nil {
			t.Fatalf("POST %s as %s: %d %s", path, user, code, body)
		}
		return n.ID
	}
	n1, n2, o42, o7 := create("/notes", "sara"), create("/notes", "sara"), create("/orgs/org-42/notes", "alice"), create("/orgs/org-7/notes", "jack")
	for _, tc := range []struct {
		method, path, user string
		want               int
	}{
		{"GET", "/notes", "intern", 200},
		{"POST", "/notes", "intern", 403}, // viewers only read
		{"POST", "/notes", "sara", 201},
		{"GET", "/notes", "nobody", 403},
		{"GET", "/orgs/org-42/notes", "intern", 200}, // a global viewer reads every org
		{"POST", "/orgs/org-42/notes", "alice", 201},
		{"POST", "/orgs/org-7/notes", "alice", 403}, // alice edits in org-42 only
		{"POST", "/notes", "alice", 403},
		{"GET", "/orgs/org-7/notes", "jack", 200}, // a moderator is an editor and a viewer
		{"DELETE", "/notes/" + n1, "intern", 403},
		{"DELETE", "/notes/" + n1, "jack", 403},              // jack moderates org-7 only
		{"DELETE", "/orgs/org-42/notes/" + o42, "jack", 403}, // not in org-42
		{"DELETE", "/orgs/org-7/notes/" + o7, "alice", 403},
		{"DELETE", "/notes/" + n1, "mod", 204},
		{"DELETE", "/orgs/org-42/notes/" + o42, "mod", 204}, // a global moderator, every org
		{"DELETE", "/notes/" + n2, "sara", 204},             // the author, without notes.delete
	} {
		body := ""
		if tc.method == http.MethodPost {
			body = `{"text":"x"}`
		}
		if code, answer := send(t, tc.method, srv.URL+tc.path, body, "X-User", tc.user); code != tc.want {
			t.Errorf("%s %s as %s = %d %s, want %d", tc.method, tc.path, tc.user, code, answer, tc.want)
		}
	}
}
