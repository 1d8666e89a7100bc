package casbincompare

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/casbin/casbin/v2"
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/rolegate/rolegate/authz"
	_ "github.com/rolegate/rolegate/authz/sqlite" // the default store: a SQLite file
	"github.com/rolegate/rolegate/examples/rolegatectl/casbinimport"
)

func init() { gin.SetMode(gin.TestMode) }

// TestExamples: every RBAC example of Casbin's folder, read from Casbin's
// module as published. The ones rolegate's model expresses import whole
// (nothing skipped) and every user of the file agrees with Casbin on
// every (object, action[, domain]) the file names, and so does every role
// asked as a role (role names are not users in rolegate; Casbin's g(x, x)
// holds). Every other one is refused before anything is written, or
// agrees everywhere. Without the model, the policy alone is refused or
// imports as with it.
func TestExamples(t *testing.T) {
	for _, ex := range rbacExamples(t) {
		t.Run(ex.String(), func(t *testing.T) {
			rules := readRules(t, ex.policy)
			model := readModel(t, ex.model)
			res, err := casbinimport.Import(rules, model)
			modelErr := err
			var ref *casbinimport.Refusal
			want := slices.Contains(expressible, ex)
			switch {
			case errors.As(err, &ref):
				if want {
					t.Fatalf("refused: %v", err)
				}
				t.Logf("refused: %v", err)
			case err != nil:
				t.Fatal(err)
			default:
				if len(res.Skipped) != 0 {
					t.Fatalf("skipped rules: %+v", res.Skipped)
				}
				users, roles := agree(t, ex, rules, res)
				t.Logf("agreement: users %s, roles %s", users, roles)
			}
			// From the policy's shape alone.
			modelRefused := modelErr != nil
			bare, err := casbinimport.Import(rules, nil)
			switch {
			case errors.As(err, &ref):
				t.Logf("without the model: refused: %v", err)
			case err != nil:
				t.Fatal(err)
			case modelRefused:
				t.Logf("without the model: the policy alone reads as plain RBAC (%d roles); only the model says what rolegate cannot express", len(bare.Policy.Roles))
			case !reflect.DeepEqual(bare.Policy, res.Policy):
				t.Errorf("without the model, a different import:\n%+v\nwith it:\n%+v", bare.Policy, res.Policy)
			}
		})
	}
}

// tally counts answers that agree.
type tally struct{ agree, total int }

func (c tally) String() string { return fmt.Sprintf("%d/%d", c.agree, c.total) }

// agree imports res into a fresh rolegate and asks both every
// combination the file names; it fails on every answer that differs.
func agree(t *testing.T, ex example, rules []casbinimport.Rule, res casbinimport.Result) (users, roles tally) {
	t.Helper()
	e, err := casbin.NewEnforcer(examplePath(t, ex.model), examplePath(t, ex.policy))
	if err != nil {
		t.Fatal(err)
	}
	rg := importInto(t, res.Policy)
	n := namesOf(rules, res.Domains)
	ask := func(sub, dom, obj, act string, asRole bool) {
		req := []any{sub, obj, act}
		if res.Domains {
			req = []any{sub, dom, obj, act}
		}
		want, err := e.Enforce(req...)
		if err != nil {
			t.Fatal(err)
		}
		var got bool
		if asRole {
			name := sub
			if res.Domains {
				name = sub + "@" + dom
			}
			got = rg.roleHas(t, name, obj+":"+act)
		} else {
			got = rg.userHas(t, sub, obj+":"+act, dom)
		}
		c := &users
		if asRole {
			c = &roles
		}
		c.total++
		if got == want {
			c.agree++
		} else {
			t.Errorf("%v (role %v): rolegate %v, Casbin %v", req, asRole, got, want)
		}
	}
	for _, s := range append(append([]string(nil), n.users...), n.roles...) {
		asRole := slices.Contains(n.roles, s)
		for _, o := range n.objs {
			for _, a := range n.acts {
				for _, d := range n.doms {
					ask(s, d, o, a, asRole)
				}
			}
		}
	}
	if users.total == 0 {
		t.Fatal("no checks made")
	}
	return users, roles
}

// names are what a policy names: users (subjects that are no role,
// and "nobody"), roles, objects, actions and domains.
type names struct{ users, roles, objs, acts, doms []string }

func namesOf(rules []casbinimport.Rule, domains bool) names {
	var n names
	isRole := map[string]bool{}
	for _, r := range rules {
		if r.PType == "g" {
			isRole[r.Values[1]] = true
		}
	}
	add := func(list *[]string, v string) {
		if !slices.Contains(*list, v) {
			*list = append(*list, v)
		}
	}
	subject := func(s string) {
		if isRole[s] {
			add(&n.roles, s)
		} else {
			add(&n.users, s)
		}
	}
	for _, r := range rules {
		v := r.Values
		switch r.PType {
		case "p":
			if domains {
				add(&n.doms, v[1])
				v = append([]string{v[0]}, v[2:]...)
			}
			subject(v[0])
			add(&n.objs, v[1])
			add(&n.acts, v[2])
		case "g":
			subject(v[0])
			subject(v[1])
			if len(v) == 3 {
				add(&n.doms, v[2])
			}
		case "g2":
			add(&n.objs, v[0])
			add(&n.objs, v[1])
		}
	}
	if !domains {
		n.doms = []string{""}
	}
	add(&n.users, "nobody")
	return n
}

func examplePath(t *testing.T, name string) string {
	return filepath.Join(casbinDir(t), "examples", name)
}

func readRules(t *testing.T, name string) []casbinimport.Rule {
	t.Helper()
	f, err := os.Open(examplePath(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rules, err := casbinimport.ReadCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

func readModel(t *testing.T, name string) *casbinimport.Model {
	t.Helper()
	f, err := os.Open(examplePath(t, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := casbinimport.ReadModel(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// rolegate is a fresh rolegate on loopback with one client key.
type rolegate struct{ url, key string }

// importInto runs rolegate on a fresh SQLite file behind a real HTTP
// server on loopback and applies the policy the way "rolegatectl import
// casbin" does (one batch).
func importInto(t *testing.T, p authz.Policy) rolegate {
	t.Helper()
	cfg := authz.DefaultConfig()
	cfg.DatabaseType = "sqlite"
	cfg.SQLitePath = filepath.Join(t.TempDir(), "auth.sqlite3")
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	// Open mode (no admin keys) bounds each client's writes and reads in
	// flight against strangers; this client is the test's own and faster.
	cfg.OpenWritesPerSecond, cfg.MaxReadsInFlight = 1_000_000, 1<<20
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	az, err := authz.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { az.Close() })
	eng := gin.New()
	eng.UseRawPath, eng.UnescapePathValues = true, true
	if err := az.Mount(eng); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(eng)
	t.Cleanup(ts.Close)
	rg := rolegate{url: ts.URL, key: uuid.NewString()}
	cl, err := az.Client(rg.key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Batch(ctx, authz.PlanPolicy(authz.Policy{}, p)); err != nil {
		t.Fatalf("import: %v", err)
	}
	return rg
}

// userHas asks GET /api/has_permission, with ?scope= for a domain.
func (rg rolegate) userHas(t *testing.T, user, perm, scope string) bool {
	t.Helper()
	q := url.Values{}
	if scope != "" {
		q.Set("scope", scope)
	}
	ok, _ := rg.result(t, "/api/has_permission/"+url.PathEscape(user)+"/"+url.PathEscape(perm), q)
	return ok
}

// roleHas asks GET /api/permission/{role}/{perm}?effective=true (what
// "rolegatectl check --role" asks); a role that does not exist holds
// nothing.
func (rg rolegate) roleHas(t *testing.T, role, perm string) bool {
	t.Helper()
	ok, status := rg.result(t, "/api/permission/"+url.PathEscape(role)+"/"+url.PathEscape(perm), url.Values{"effective": {"true"}})
	return ok && status == http.StatusOK
}

func (rg rolegate) result(t *testing.T, path string, q url.Values) (bool, int) {
	t.Helper()
	u := rg.url + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Authorization", "Bearer "+rg.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return false, resp.StatusCode
	}
	var body struct {
		Data struct {
			Result bool `json:"result"`
		} `json:"data"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&body) != nil {
		t.Fatalf("GET %s: %d", u, resp.StatusCode)
	}
	return body.Data.Result, resp.StatusCode
}
