package casbincompare

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/examples/rolegatectl/casbinimport"
)

// expectation is one check of Casbin's own tests on a file: the helper
// it calls (testEnforce, testGetRoles, ...) and its arguments after t and
// e, as published.
type expectation struct {
	where string // file:line of Casbin's test
	ex    example
	call  string
	args  []any // string, int, bool, []string or [][]string; nil when the call spans lines
}

var (
	reNewEnforcer = regexp.MustCompile(`New\w*Enforcer\(\s*"examples/([^"]+\.conf)"\s*,\s*"examples/([^"]+\.csv)"`)
	reAnyEnforcer = regexp.MustCompile(`New\w*Enforcer\(`)
	reCheck       = regexp.MustCompile(`^(test\w+)\(t, e,`)
	reMutate      = regexp.MustCompile(`\be\.\w+\(`)
)

// casbinExpectations reads Casbin's *_test.go as published and collects
// every call of a test helper on an enforcer loaded from one of the
// expressible examples, before the test changes that enforcer (any other
// call on it ends the run of checks that belong to the files).
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
		sc.Buffer(nil, 1<<20)
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
				args, _ := literals(line)
				out = append(out, expectation{where: filepath.Base(f) + ":" + strconv.Itoa(n), ex: *cur,
					call: reCheck.FindStringSubmatch(line)[1], args: args})
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

// literals reads the arguments after t and e of a call written with
// literals only.
func literals(line string) ([]any, bool) {
	x, err := parser.ParseExpr(line)
	if err != nil {
		return nil, false
	}
	call, ok := x.(*ast.CallExpr)
	if !ok || len(call.Args) < 2 {
		return nil, false
	}
	var out []any
	for _, a := range call.Args[2:] {
		v, ok := literal(a)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

func literal(x ast.Expr) (any, bool) {
	switch x := x.(type) {
	case *ast.BasicLit:
		if x.Kind == token.INT {
			n, err := strconv.Atoi(x.Value)
			return n, err == nil
		}
		if x.Kind != token.STRING {
			return nil, false
		}
		s, err := strconv.Unquote(x.Value)
		return s, err == nil
	case *ast.Ident:
		b, err := strconv.ParseBool(x.Name)
		return b, err == nil
	case *ast.CompositeLit:
		nested := false
		if at, ok := x.Type.(*ast.ArrayType); ok {
			_, nested = at.Elt.(*ast.ArrayType)
		}
		strs, rows := []string{}, [][]string{}
		for _, e := range x.Elts {
			v, ok := literal(e)
			if !ok {
				return nil, false
			}
			switch v := v.(type) {
			case string:
				strs = append(strs, v)
			case []string:
				rows = append(rows, v)
			default:
				return nil, false
			}
		}
		if nested {
			return rows, true
		}
		return strs, true
	}
	return nil, false
}

// TestCasbinExpectations: Casbin's own tests' expectations on the
// examples rolegate expresses, asked of rolegate after the import. A
// decision (testEnforce and its cached and domain forms) is asked of
// has_permission for a user and of the role's effective grant for a role.
// The role and permission queries are asked of the matching list routes,
// in rolegate's names: a role R in domain D is "R@D", the role a user
// holds for their direct grants is not one of their roles, and
// Casbin's rows [sub, (dom,) obj, act] compare by the permission name
// "obj:act". Helpers about Casbin's storage (GetPolicy, HasPolicy,
// GetFilteredPolicy, ...), EnforceEx explanations and the resource-user
// listings have no rolegate counterpart and are counted apart.
func TestCasbinExpectations(t *testing.T) {
	exps := casbinExpectations(t)
	byEx := map[example][]expectation{}
	for _, e := range exps {
		byEx[e.ex] = append(byEx[e.ex], e)
	}
	if len(byEx) < 5 {
		t.Fatalf("found expectations for %d examples only: is Casbin's test layout still the same?", len(byEx))
	}
	met, total, other := 0, 0, map[string]int{}
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
			q := &querier{rg: importInto(t, res.Policy), domains: res.Domains, roles: namesOf(rules, res.Domains).roles}
			ok, n := 0, 0
			for _, e := range list {
				if e.args == nil {
					other[e.call+" (spans lines)"]++
					continue
				}
				got, want, known := q.answer(t, e)
				if !known {
					other[e.call]++
					continue
				}
				n++
				if equalAnswers(got, want) {
					ok++
				} else {
					t.Errorf("%s: %s%q: rolegate %v, Casbin's test wants %v", e.where, e.call, e.args, got, want)
				}
			}
			t.Logf("Casbin's expectations met: %d/%d", ok, n)
			met += ok
			total += n
		})
	}
	t.Logf("Casbin's expectations met in all: %d/%d; without a rolegate counterpart: %v", met, total, other)
}
