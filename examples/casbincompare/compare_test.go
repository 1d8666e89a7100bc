package casbincompare

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/casbin/casbin/v2"
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/examples/rolegatectl/casbinimport"
)

const fixtures = "../rolegatectl/casbinimport/testdata/"

func init() { gin.SetMode(gin.TestMode) }

// TestSameAnswersRBAC: Casbin's basic RBAC example.
func TestSameAnswersRBAC(t *testing.T) {
	compare(t, "rbac_model.conf", "rbac_policy.csv")
}

// TestSameAnswersResourceRoles: RBAC with resource roles (g2).
func TestSameAnswersResourceRoles(t *testing.T) {
	compare(t, "rbac_with_resource_roles_model.conf", "rbac_with_resource_roles_policy.csv")
}

// compare imports the policy into a fresh rolegate, then asks both every
// (user, object, action[, domain]) question the policy's names allow and
// fails on the first answer that differs. Returns how many it asked.
func compare(t *testing.T, model, policy string) int {
	t.Helper()
	e, err := casbin.NewEnforcer(fixtures+model, fixtures+policy)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(fixtures + policy)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := casbinimport.ReadCSV(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	res := casbinimport.Convert(rules)
	if len(res.Skipped) != 0 {
		t.Fatalf("skipped rules: %+v", res.Skipped)
	}
	srv, key := startRolegate(t)
	cl, err := srv.Client(key)
	if err != nil {
		t.Fatal(err)
	}
	plan := authz.PlanPolicy(authz.Policy{}, res.Policy)
	if _, err := cl.Batch(context.Background(), plan); err != nil {
		t.Fatalf("import: %v", err)
	}

	users, objs, acts, doms := names(rules, res.Domains)
	asked := 0
	for _, u := range users {
		for _, o := range objs {
			for _, a := range acts {
				for _, d := range doms {
					var want bool
					if res.Domains {
						want, err = e.Enforce(u, d, o, a)
					} else {
						want, err = e.Enforce(u, o, a)
					}
					if err != nil {
						t.Fatal(err)
					}
					got := hasPermission(t, srvURL(t), key, u, o+":"+a, d)
					if got != want {
						t.Errorf("%s %s %s (domain %q): rolegate %v, Casbin %v", u, o, a, d, got, want)
					}
					asked++
				}
			}
		}
	}
	t.Logf("%d checks, all equal", asked)
	if asked == 0 {
		t.Fatal("no checks made")
	}
	return asked
}

// names collects the users (g first fields that are not roles, and direct
// p subjects), objects, actions and domains of a policy.
func names(rules []casbinimport.Rule, domains bool) (users, objs, acts, doms []string) {
	roles := map[string]bool{}
	for _, r := range rules {
		if r.PType == "g" {
			roles[r.Values[1]] = true
		}
	}
	add := func(list *[]string, v string) {
		if !slices.Contains(*list, v) {
			*list = append(*list, v)
		}
	}
	for _, r := range rules {
		v := r.Values
		switch r.PType {
		case "p":
			if domains {
				add(&doms, v[1])
				v = append([]string{v[0]}, v[2:]...)
			}
			if !roles[v[0]] {
				add(&users, v[0])
			}
			add(&objs, v[1])
			add(&acts, v[2])
		case "g":
			if !roles[v[0]] {
				add(&users, v[0])
			}
			if len(v) == 3 {
				add(&doms, v[2])
			}
		case "g2":
			add(&objs, v[0])
		}
	}
	if !domains {
		doms = []string{""}
	}
	add(&users, "nobody")
	return
}

var serverURLs = map[*testing.T]string{}

func srvURL(t *testing.T) string { return serverURLs[t] }

// startRolegate runs rolegate on a fresh SQLite file behind a real HTTP
// server on loopback, and returns it with a new client key.
func startRolegate(t *testing.T) (*authz.Authz, string) {
	t.Helper()
	cfg := authz.DefaultConfig()
	cfg.DatabaseType = "sqlite"
	cfg.SQLitePath = filepath.Join(t.TempDir(), "auth.sqlite3")
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
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
	serverURLs[t] = ts.URL
	return az, uuid.NewString()
}

// hasPermission asks GET /api/has_permission, with ?scope= for a domain.
func hasPermission(t *testing.T, base, key, user, perm, scope string) bool {
	t.Helper()
	u := base + "/api/has_permission/" + url.PathEscape(user) + "/" + url.PathEscape(perm)
	if scope != "" {
		u += "?scope=" + url.QueryEscape(scope)
	}
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Data struct {
			Result bool `json:"result"`
		} `json:"data"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&body) != nil {
		t.Fatalf("GET %s: %d", u, resp.StatusCode)
	}
	return body.Data.Result
}
