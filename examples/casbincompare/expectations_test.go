package casbincompare

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/examples/rolegatectl/casbinimport"
)

// expectation is one check of Casbin's own tests: a request and the
// answer Casbin's test wants.
type expectation struct {
	where   string // file:line of Casbin's test
	ex      example
	request []string // sub, [dom,] obj, act
	want    bool
}

var (
	reNewEnforcer = regexp.MustCompile(`New\w*Enforcer\(\s*"examples/([^"]+\.conf)"\s*,\s*"examples/([^"]+\.csv)"`)
	reAnyEnforcer = regexp.MustCompile(`New\w*Enforcer\(`)
	reCheck       = regexp.MustCompile(`\btest(?:Enforce|DomainEnforce|EnforceSync|EnforceCache|SyncEnforceCache)\(t, \w+, (.*)\)\s*$`)
	reMutate      = regexp.MustCompile(`\be\.\w+\(`)
)

// casbinExpectations reads Casbin's *_test.go as published and collects
// every testEnforce-style check made on an enforcer loaded from one of
// the expressible examples, before the test changes that enforcer (any
// other call on it ends the run of checks that belong to the files).
func casbinExpectations(t *testing.T) []expectation {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(casbinDir(t), "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []expectation
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		var cur *example
		n := 0
		for sc.Scan() {
			n++
			line := strings.TrimSpace(sc.Text())
			switch {
			case strings.HasPrefix(line, "func "):
				cur = nil
			case reNewEnforcer.MatchString(line):
				m := reNewEnforcer.FindStringSubmatch(line)
				cur = nil
				if ex := (example{m[1], m[2]}); slices.Contains(expressible, ex) {
					cur = &ex
				}
			case reAnyEnforcer.MatchString(line):
				cur = nil
			case reCheck.MatchString(line):
				if cur == nil {
					continue
				}
				if req, want, ok := literalArgs(reCheck.FindStringSubmatch(line)[1]); ok {
					out = append(out, expectation{where: filepath.Base(f) + ":" + strconv.Itoa(n), ex: *cur, request: req, want: want})
				}
			case reMutate.MatchString(line):
				cur = nil
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// literalArgs reads `"a", "b", "c", true`: string literals then a bool.
func literalArgs(s string) ([]string, bool, bool) {
	parts := strings.Split(s, ",")
	var req []string
	for _, p := range parts[:len(parts)-1] {
		v, err := strconv.Unquote(strings.TrimSpace(p))
		if err != nil {
			return nil, false, false
		}
		req = append(req, v)
	}
	want, err := strconv.ParseBool(strings.TrimSpace(parts[len(parts)-1]))
	return req, want, err == nil && len(req) >= 3
}

// TestCasbinExpectations: Casbin's own tests' expectations on the
// examples rolegate expresses are met by rolegate after the import (a
// user subject through has_permission, a role subject through the role's
// effective grant).
func TestCasbinExpectations(t *testing.T) {
	exps := casbinExpectations(t)
	byEx := map[example][]expectation{}
	for _, e := range exps {
		byEx[e.ex] = append(byEx[e.ex], e)
	}
	if len(byEx) < 3 {
		t.Fatalf("found expectations for %d examples only: is Casbin's test layout still the same?", len(byEx))
	}
	met, total := 0, 0
	for _, ex := range expressible {
		list := byEx[ex]
		if len(list) == 0 {
			t.Logf("%s: no expectations in Casbin's tests", ex)
			continue
		}
		t.Run(ex.String(), func(t *testing.T) {
			rules := readRules(t, ex.policy)
			res, err := casbinimport.Import(rules, readModel(t, ex.model))
			if err != nil {
				t.Fatal(err)
			}
			rg := importInto(t, res.Policy)
			roles := namesOf(rules, res.Domains).roles
			ok := 0
			for _, e := range list {
				sub, dom, rest := e.request[0], "", e.request[1:]
				if res.Domains {
					if len(rest) != 3 {
						t.Errorf("%s: %v is not a request with a domain", e.where, e.request)
						continue
					}
					dom, rest = rest[0], rest[1:]
				}
				perm := strings.Join(rest, ":")
				var got bool
				if slices.Contains(roles, sub) {
					name := sub
					if res.Domains {
						name += "@" + dom
					}
					got = rg.roleHas(t, name, perm)
				} else {
					got = rg.userHas(t, sub, perm, dom)
				}
				if got != e.want {
					t.Errorf("%s: %v: rolegate %v, Casbin's test wants %v", e.where, e.request, got, e.want)
				} else {
					ok++
				}
			}
			t.Logf("Casbin's expectations met: %d/%d", ok, len(list))
			met += ok
			total += len(list)
		})
	}
	t.Logf("Casbin's expectations met in all: %d/%d", met, total)
}
