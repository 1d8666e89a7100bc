package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/storage/storagetest"
)

const cliPolicy = `version: 1
roles:
  - name: admin
    description: Everything
    permissions:
      - delete
      - edit
      - read
  - name: editor
    description: Writes notes
    permissions:
      - edit
      - read
  - name: viewer
    permissions:
      - read
`

// TestPolicyApplyDiffExport: apply, then diff is empty, export equals the
// file, and applying the export changes nothing; memberships made at run
// time survive; a file with memberships manages them.
func TestPolicyApplyDiffExport(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := startServer(t, target)
		k := newKey()
		must(t, 0, s.url, k, "role", "add", "legacy")
		must(t, 0, s.url, k, "role", "add", "viewer")
		must(t, 0, s.url, k, "member", "add", "carol", "viewer")
		f := writeFile(t, "policy.yaml", cliPolicy)

		var plan []authz.Operation
		jsonOut(t, s.url, k, &plan, "policy", "diff", "-f", f)
		if len(plan) != 9 || plan[len(plan)-1].Op != "add_permission" {
			t.Errorf("diff before apply = %+v", plan)
		}
		must(t, 1, s.url, k, "policy", "diff", "-f", f, "--exit-code")
		if r := must(t, 0, s.url, k, "policy", "apply", "-f", f, "--dry-run"); !strings.Contains(r.stdout, "del_role") {
			t.Errorf("dry run: %q", r.stdout)
		}
		must(t, 0, s.url, k, "role", "permissions", "legacy") // the dry run deleted nothing
		if r := must(t, 0, s.url, k, "policy", "apply", "-f", f); !strings.Contains(r.stdout, "applied 9 change(s)") {
			t.Errorf("apply: %q", r.stdout)
		}
		if r := must(t, 0, s.url, k, "policy", "diff", "-f", f, "--exit-code"); strings.TrimSpace(r.stdout) != "no changes" {
			t.Errorf("diff after apply: %q", r.stdout)
		}
		r := must(t, 0, s.url, k, "policy", "export")
		if r.stdout != cliPolicy {
			t.Errorf("export differs from the file:\n%s\nwant\n%s", r.stdout, cliPolicy)
		}
		exported := writeFile(t, "export.yaml", r.stdout)
		if r := must(t, 0, s.url, k, "policy", "apply", "-f", exported); !strings.Contains(r.stdout, "applied 0 change(s)") {
			t.Errorf("apply of the export: %q", r.stdout)
		}
		must(t, 0, s.url, k, "check", "carol", "read") // a run-time membership survives

		withMembers := writeFile(t, "members.yaml", cliPolicy+"memberships:\n  - user: dave\n    role: editor\n")
		must(t, 0, s.url, k, "policy", "apply", "-f", withMembers)
		must(t, 1, s.url, k, "check", "carol", "read")
		must(t, 0, s.url, k, "check", "dave", "edit")
		r = must(t, 0, s.url, k, "policy", "export", "--memberships")
		if !strings.HasSuffix(r.stdout, "memberships:\n  - user: dave\n    role: editor\n") {
			t.Errorf("export --memberships:\n%s", r.stdout)
		}
		// Bad files are usage errors, and change nothing.
		bad := writeFile(t, "bad.yaml", "version: 1\nroles:\n  - name: x\n    permisions: [a]\n")
		if r := must(t, 2, s.url, k, "policy", "apply", "-f", bad); !strings.Contains(r.stderr, "invalid policy") {
			t.Errorf("bad file: %q", r.stderr)
		}
		if r := must(t, 2, s.url, k, "policy", "apply"); !strings.Contains(r.stderr, "-f FILE is required") {
			t.Errorf("apply without -f: %q", r.stderr)
		}
		// -f - reads standard input.
		if r := ctlIn(t, s.url, k, cliPolicy, "policy", "diff", "-f", "-"); r.code != 0 || strings.TrimSpace(r.stdout) != "no changes" {
			t.Errorf("diff -f -: %d %q %q", r.code, r.stdout, r.stderr)
		}
		// export -f FILE writes the file, 0600.
		out := filepath.Join(t.TempDir(), "out.yaml")
		must(t, 0, s.url, k, "policy", "export", "-f", out)
		if b, err := os.ReadFile(out); err != nil || !strings.HasPrefix(string(b), "version: 1\nroles:\n") {
			t.Errorf("export -f: %q, %v", b, err)
		}
	})
}

// TestPolicyInheritanceRefusedByOlderServer: a file with inheritance is
// not half-applied to a server without it: nothing is stored, exit 1.
func TestPolicyInheritanceRefusedByOlderServer(t *testing.T) {
	s := startServer(t, storagetest.SQLite(t))
	if featureInheritance.present(openAPIDoc(t, s.url)) {
		t.Skip("this server supports inheritance; TestPolicyInheritance covers it")
	}
	k := newKey()
	f := writeFile(t, "p.yaml", cliPolicy+"  - name: lead\n    inherits: [editor]\n")
	if r := must(t, 1, s.url, k, "policy", "apply", "-f", f); !strings.Contains(r.stderr, "role inheritance") {
		t.Errorf("stderr %q", r.stderr)
	}
	var roles []map[string]string
	jsonOut(t, s.url, k, &roles, "role", "list")
	if len(roles) != 0 {
		t.Errorf("roles stored by a refused apply: %v", roles)
	}
}

// TestPolicySchemaMatchesFormat: the published JSON Schema names exactly
// the fields ParsePolicy reads (a case's fields are those of a cases
// file's entries too), and the example file parses.
func TestPolicySchemaMatchesFormat(t *testing.T) {
	b, err := os.ReadFile("policy.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties map[string]struct {
			Items struct {
				Properties map[string]any `json:"properties"`
			} `json:"items"`
		} `json:"properties"`
		Defs struct {
			Case struct {
				Properties map[string]any `json:"properties"`
			} `json:"case"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	fields := func(v any) []string {
		var out []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			if tag := strings.Split(rt.Field(i).Tag.Get("yaml"), ",")[0]; tag != "" && tag != "-" {
				out = append(out, tag)
			}
		}
		return out
	}
	keys := func(m map[string]any) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		return out
	}
	check := func(what string, got, want []string) {
		if g, w := strings.Join(sorted(got), ","), strings.Join(sorted(want), ","); g != w {
			t.Errorf("%s: schema has %s, the format %s", what, g, w)
		}
	}
	top := []string{}
	for k := range schema.Properties {
		top = append(top, k)
	}
	check("policy", top, fields(authz.Policy{}))
	check("role", keys(schema.Properties["roles"].Items.Properties), fields(authz.PolicyRole{}))
	check("membership", keys(schema.Properties["memberships"].Items.Properties), fields(authz.PolicyMembership{}))
	check("case", keys(schema.Defs.Case.Properties), fields(authz.PolicyCase{}))
	check("cases file", []string{"cases", "memberships"}, fields(authz.PolicyCases{}))
	ex, err := os.ReadFile("example-policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := authz.ParsePolicy(ex); err != nil {
		t.Errorf("example-policy.yaml: %v", err)
	}
}

func sorted(v []string) []string {
	out := append([]string(nil), v...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// BenchmarkPolicyApply10000Grants times "policy apply" of a fresh policy
// of 100 roles with 100 permissions each (10,000 grants) against a server
// on loopback: reading the (empty) state, planning, and one batch.
//
//	(cd examples/rolegatectl && go test -run '^$' -bench PolicyApply10000 -benchtime 1x .)
func BenchmarkPolicyApply10000Grants(b *testing.B) {
	b.StopTimer()
	var sb strings.Builder
	sb.WriteString("version: 1\nroles:\n")
	for r := range 100 {
		fmt.Fprintf(&sb, "  - name: role%03d\n    permissions:\n", r)
		for p := range 100 {
			fmt.Fprintf(&sb, "      - perm%03d.%03d\n", r, p)
		}
	}
	for _, name := range []string{"sqlite", "postgresql"} {
		b.Run(name, func(b *testing.B) {
			target := storagetest.SQLite(b)
			if name == "postgresql" {
				target = storagetest.PostgreSQL(b)
			}
			s := startServer(b, target)
			f := writeFile(b, "p.yaml", sb.String())
			for range b.N {
				k := newKey() // a fresh namespace each time
				b.StartTimer()
				start := time.Now()
				r := ctl(b, s.url, k, "policy", "apply", "-f", f)
				el := time.Since(start)
				b.StopTimer()
				if r.code != 0 || !strings.Contains(r.stdout, "applied 10100 change(s)") {
					b.Fatalf("apply: %d %s %s", r.code, r.stdout, r.stderr)
				}
				b.ReportMetric(el.Seconds(), "s/apply")
				// A second apply reads 10,000 grants back and changes nothing.
				start = time.Now()
				r = ctl(b, s.url, k, "policy", "apply", "-f", f)
				b.ReportMetric(time.Since(start).Seconds(), "s/noop-apply")
				if r.code != 0 || !strings.Contains(r.stdout, "applied 0 change(s)") {
					b.Fatalf("second apply: %d %s %s", r.code, r.stdout, r.stderr)
				}
			}
		})
	}
}
