package casbincompare

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// casbinDir is Casbin's module directory, as published (the version
// go.mod requires), from which the examples and tests are read as they
// are.
func casbinDir(t *testing.T) string {
	t.Helper()
	casbinDirOnce.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/casbin/casbin/v2").Output()
		if err != nil {
			casbinDirErr = err
			return
		}
		casbinDirPath = strings.TrimSpace(string(out))
		if casbinDirPath == "" {
			casbinDirErr = os.ErrNotExist
		}
	})
	if casbinDirErr != nil {
		t.Fatalf("Casbin's module directory (go mod download github.com/casbin/casbin/v2): %v", casbinDirErr)
	}
	return casbinDirPath
}

var (
	casbinDirOnce sync.Once
	casbinDirPath string
	casbinDirErr  error
)

// example is one model with one policy of Casbin's examples folder.
type example struct{ model, policy string }

func (e example) String() string {
	return strings.TrimSuffix(e.model, ".conf") + "+" + strings.TrimSuffix(e.policy, ".csv")
}

// expressible are the examples rolegate's model expresses: they must
// import whole and agree with Casbin everywhere.
var expressible = []example{
	{"rbac_model.conf", "rbac_policy.csv"},
	{"rbac_model.conf", "rbac_with_hierarchy_policy.csv"},
	{"rbac_with_resource_roles_model.conf", "rbac_with_resource_roles_policy.csv"},
	{"rbac_with_domains_model.conf", "rbac_with_domains_policy.csv"},
	{"rbac_with_domains_model.conf", "rbac_with_domains_policy2.csv"},
	{"rbac_with_domains_model.conf", "rbac_with_hierarchy_with_domains_policy.csv"},
}

// policyOf pairs the models that have no policy of their own name with
// the policy Casbin's tests load them with.
var policyOf = map[string]string{
	"rbac_model_in_multi_line.conf":               "rbac_policy.csv",
	"rbac_model_matcher_using_in_op.conf":         "rbac_policy.csv",
	"rbac_model_matcher_using_in_op_bracket.conf": "rbac_policy.csv",
	"rbac_with_not_deny_model.conf":               "rbac_with_deny_policy.csv",
	"keymatch_with_rbac_in_domain.conf":           "keymatch_with_rbac_in_domain.csv",
}

// rbacExamples lists every RBAC example of the folder (a model whose name
// says rbac, and OrBAC): the expressible ones, then each other model with
// its policy.
func rbacExamples(t *testing.T) []example {
	t.Helper()
	confs, err := filepath.Glob(filepath.Join(casbinDir(t), "examples", "*.conf"))
	if err != nil {
		t.Fatal(err)
	}
	out := append([]example(nil), expressible...)
	seen := map[example]bool{}
	for _, e := range out {
		seen[e] = true
	}
	sort.Strings(confs)
	for _, c := range confs {
		m := filepath.Base(c)
		if !strings.Contains(m, "rbac") {
			continue
		}
		p, ok := policyOf[m]
		if !ok {
			p = strings.TrimSuffix(m, "_model.conf") + "_policy.csv"
		}
		if _, err := os.Stat(filepath.Join(casbinDir(t), "examples", p)); err != nil {
			t.Errorf("%s: no policy found (%s)", m, p)
			continue
		}
		if e := (example{m, p}); !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}
