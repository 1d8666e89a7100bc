package casbinimport

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz"
)

// FuzzReadModel: any model text is read, recognised or refused without a
// panic, in time linear in its size.
func FuzzReadModel(f *testing.F) {
	for _, name := range []string{"rbac_model.conf", "rbac_with_domains_model.conf", "rbac_with_deny_model.conf", "rbac_with_resource_roles_model.conf"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(nestedModel(50))
	f.Add(rbacSections + "m = g(r.sub, p.sub) && (r.obj == p.obj && 'x\" || (r.act in ('a'))")
	f.Fuzz(func(t *testing.T, text string) {
		start := time.Now()
		m, err := ReadModel(strings.NewReader(text))
		if err != nil {
			return
		}
		sh, err := m.Shape()
		if err == nil && (sh.Sub < 0 || len(sh.Perm) == 0 || len(sh.Perm) > 2) {
			t.Fatalf("accepted a shape without its fields: %+v", sh)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("%d bytes took %v", len(text), d)
		}
	})
}

// FuzzReadCSV: any policy text is read and imported or refused without a
// panic; roles imported have valid names, and every skipped line says
// why.
func FuzzReadCSV(f *testing.F) {
	for _, name := range []string{"rbac_policy.csv", "rbac_with_domains_policy.csv", "rbac_with_hierarchy_with_domains_policy.csv", "rbac_with_resource_roles_policy.csv", "rbac_with_deny_policy.csv"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("p, alice, data1, read\ng, bob, alice\n  # c\ng, a, b\ng, b, a\n")
	f.Add("p, r.sub.Age > 18, data1, read\np, x, a:b, c\n")
	f.Fuzz(func(t *testing.T, text string) {
		rules, err := ReadCSV(strings.NewReader(text))
		if err != nil {
			return
		}
		res, err := Import(rules, nil)
		if err != nil {
			return
		}
		for _, s := range res.Skipped {
			if s.Reason == "" {
				t.Fatalf("skipped without a reason: %+v", s)
			}
		}
		for _, r := range res.Policy.Roles {
			if !authz.ValidName(r.Name) {
				t.Fatalf("invalid role name %q imported", r.Name)
			}
		}
	})
}
