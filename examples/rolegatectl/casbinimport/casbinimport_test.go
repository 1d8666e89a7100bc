package casbinimport

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/authz"
)

func convertFile(t *testing.T, name string) Result {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rules, err := ReadCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Import(rules, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestConvertRBAC(t *testing.T) {
	res := convertFile(t, "rbac_policy.csv")
	want := []authz.PolicyRole{
		{Name: "alice", Permissions: []string{"data1:read"}},
		{Name: "bob", Permissions: []string{"data2:write"}},
		{Name: "data2_admin", Permissions: []string{"data2:read", "data2:write"}},
	}
	if !reflect.DeepEqual(res.Policy.Roles, want) {
		t.Errorf("roles = %+v", res.Policy.Roles)
	}
	wantM := []authz.PolicyMembership{{User: "alice", Role: "alice"}, {User: "bob", Role: "bob"}, {User: "alice", Role: "data2_admin"}, {User: "data2_admin", Role: "data2_admin"}}
	if !reflect.DeepEqual(res.Policy.Memberships, wantM) || len(res.Skipped) != 0 || res.Domains {
		t.Errorf("memberships = %+v, skipped %+v", res.Policy.Memberships, res.Skipped)
	}
}

func TestConvertResourceRoles(t *testing.T) {
	res := convertFile(t, "rbac_with_resource_roles_policy.csv")
	for _, r := range res.Policy.Roles {
		if r.Name == "data_group_admin" && !reflect.DeepEqual(r.Permissions, []string{"data1:write", "data2:write", "data_group:write"}) {
			t.Errorf("data_group_admin = %v", r.Permissions)
		}
	}
}

func TestConvertHierarchyAndDomains(t *testing.T) {
	res := convertFile(t, "rbac_with_hierarchy_policy.csv")
	var admin authz.PolicyRole
	for _, r := range res.Policy.Roles {
		if r.Name == "admin" {
			admin = r
		}
	}
	if !reflect.DeepEqual(admin.Inherits, []string{"data1_admin", "data2_admin"}) {
		t.Errorf("admin = %+v", admin)
	}
	res = convertFile(t, "rbac_with_domains_policy.csv")
	if !res.Domains {
		t.Fatal("domains not detected")
	}
	wantM := []authz.PolicyMembership{{User: "admin", Role: "admin@domain1", Scope: "domain1"}, {User: "alice", Role: "admin@domain1", Scope: "domain1"}, {User: "admin", Role: "admin@domain2", Scope: "domain2"}, {User: "bob", Role: "admin@domain2", Scope: "domain2"}}
	if !reflect.DeepEqual(res.Policy.Memberships, wantM) {
		t.Errorf("memberships = %+v", res.Policy.Memberships)
	}
	if len(res.Policy.Roles) != 2 || res.Policy.Roles[0].Name != "admin@domain1" || !reflect.DeepEqual(res.Policy.Roles[0].Permissions, []string{"data1:read", "data1:write"}) {
		t.Errorf("roles = %+v", res.Policy.Roles)
	}
}

// TestConvertSkipsAndSays: unknown sections, wrong field counts and bad
// names are listed with their lines, never dropped quietly.
func TestConvertSkipsAndSays(t *testing.T) {
	rules, err := ReadCSV(strings.NewReader(`# comment
p, alice, data1, read
p, too, many, fields, here, x
g, a/b, r
m, whatever
"p", "quoted, name", "obj", "act"
p, e` + "\x1b[2J" + `vil, o, a
`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Import(rules, nil)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, s := range res.Skipped {
		lines = append(lines, s.Line)
		if s.Reason == "" || s.Text == "" {
			t.Errorf("skipped without reason: %+v", s)
		}
		if strings.ContainsRune(s.Text, 0x1b) || strings.ContainsRune(s.Reason, 0x1b) {
			t.Errorf("control character printed: %q", s.Text)
		}
	}
	if !reflect.DeepEqual(lines, []int{3, 4, 5, 7}) {
		t.Errorf("skipped lines = %v (%+v)", lines, res.Skipped)
	}
	found := false
	for _, r := range res.Policy.Roles {
		if r.Name == "quoted, name" && reflect.DeepEqual(r.Permissions, []string{"obj:act"}) {
			found = true
		}
	}
	if !found {
		t.Errorf("quoted rule not imported: %+v", res.Policy.Roles)
	}
}
