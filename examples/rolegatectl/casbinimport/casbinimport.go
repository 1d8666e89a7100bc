// Package casbinimport turns Casbin RBAC policies (a policy.csv, or the
// rows of a casbin_rule table) into a rolegate policy. rolegatectl's
// "import casbin" uses it; so does the test that runs Casbin and rolegate
// on the same files.
//
// The mapping (documented in the README, "Importing from Casbin"):
//
//   - p, R, PERM            role R is granted PERM.
//   - p, R, OBJ, ACT        role R is granted "OBJ:ACT".
//   - p, R, DOM, OBJ, ACT   (when the policy has domains) role "R@DOM" is
//     granted "OBJ:ACT": a Casbin role's grants differ per domain, a
//     rolegate role's do not, so each (role, domain) becomes a role.
//   - a trailing effect field "allow" is dropped; "deny" rules are skipped
//     (rolegate has no deny), and listed.
//   - g, A, B               A is a member of role B; or, when A is itself a
//     role (the second field of some g line), A inherits B.
//   - g, U, R, DOM          U is a member of role "R@DOM" in scope DOM.
//   - g2, OBJ, GROUP        resource roles: every grant on GROUP (directly
//     or through further g2 lines) is also granted on OBJ.
//   - A user granted permissions directly (p, alice, data1, read, alice
//     named nowhere as a role) gets a role of the same name with alice as
//     its only member: Casbin's g(r.sub, p.sub) holds for r.sub == p.sub.
//
// The policy has domains when some g line has a domain field. Every line
// that fits none of these (other section types, extra fields, names that
// rolegate refuses) is listed in Skipped with its reason; nothing is
// silently dropped.
package casbinimport

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/rolegate/rolegate/authz"
)

// Rule is one Casbin policy line: its section type (p, g, g2, ...) and
// values.
type Rule struct {
	Line   int // 1-based line of the file, or row number of the table
	PType  string
	Values []string
}

func (r Rule) String() string {
	return strings.Join(append([]string{r.PType}, r.Values...), ", ")
}

// Skipped is a rule that was not imported, and why.
type Skipped struct {
	Rule   Rule   `json:"-"`
	Text   string `json:"rule"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// Result is an import: the policy to apply (memberships included), and
// the rules left out.
type Result struct {
	Policy  authz.Policy
	Skipped []Skipped
	// Domains: the policy was read as RBAC with domains.
	Domains bool
}

// ReadCSV reads a Casbin policy.csv: one rule a line, fields separated by
// commas (quotes allowed), white space around fields trimmed, blank lines
// and lines starting with # ignored.
func ReadCSV(r io.Reader) ([]Rule, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.Comment = '#'
	cr.LazyQuotes = true
	var out []Rule
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		if len(rec) == 0 || (len(rec) == 1 && rec[0] == "") {
			continue
		}
		// Trailing empty fields (a casbin_rule row's unused v3..v5) carry
		// nothing.
		for len(rec) > 1 && rec[len(rec)-1] == "" {
			rec = rec[:len(rec)-1]
		}
		out = append(out, Rule{Line: line, PType: rec[0], Values: rec[1:]})
	}
}

// Convert maps rules to a rolegate policy; see the package comment.
func Convert(rules []Rule) Result {
	var res Result
	skip := func(r Rule, why string, a ...any) {
		res.Skipped = append(res.Skipped, Skipped{Rule: r, Text: r.String(), Line: r.Line, Reason: fmt.Sprintf(why, a...)})
	}
	// First pass: which names are roles, and are there domains.
	roleNames := map[string]bool{}
	for _, r := range rules {
		if r.PType == "g" && len(r.Values) >= 2 {
			roleNames[r.Values[1]] = true
			if len(r.Values) == 3 {
				res.Domains = true
			}
		}
	}
	type grant struct{ role, obj, act, perm string } // obj/act empty for p, R, PERM
	var grants []grant
	groups := map[string][]string{} // g2: group -> objects in it
	perms := map[string]map[string]bool{}
	inherits := map[string]map[string]bool{}
	members := map[authz.PolicyMembership]bool{}
	roles := map[string]bool{}
	users := map[string]bool{} // direct subjects of p lines that are not roles
	for _, r := range rules {
		v := r.Values
		if bad := firstInvalid(v); bad >= 0 {
			skip(r, "field %d is not a valid rolegate name (1 to 128 characters, no control characters, no '/', no leading or trailing space)", bad+1)
			continue
		}
		switch r.PType {
		case "p":
			if n := len(v); n >= 3 && (v[n-1] == "allow" || v[n-1] == "deny") {
				if v[n-1] == "deny" {
					skip(r, "deny effect: rolegate grants only")
					continue
				}
				v = v[:n-1]
			}
			switch {
			case len(v) == 2:
				grants = append(grants, grant{role: v[0], perm: v[1]})
			case len(v) == 3 && !res.Domains:
				grants = append(grants, grant{role: v[0], obj: v[1], act: v[2]})
			case len(v) == 4 && res.Domains:
				grants = append(grants, grant{role: domainRole(v[0], v[1]), obj: v[2], act: v[3]})
			default:
				skip(r, "%d fields: not p, ROLE, PERMISSION / p, ROLE, OBJ, ACT / p, ROLE, DOMAIN, OBJ, ACT (with domains)", len(v))
			}
		case "g":
			switch len(v) {
			case 2:
				if res.Domains {
					skip(r, "a g line without a domain in a policy with domains")
				} else if roleNames[v[0]] {
					roles[v[0]], roles[v[1]] = true, true
					add(inherits, v[0], v[1])
				} else {
					roles[v[1]] = true
					members[authz.PolicyMembership{User: v[0], Role: v[1]}] = true
				}
			case 3:
				dr := domainRole(v[1], v[2])
				if !authz.ValidName(dr) {
					skip(r, "the role name it maps to (ROLE@DOMAIN) is longer than 128 characters")
					continue
				}
				if roleNames[v[0]] {
					skip(r, "role-to-role link within a domain: not supported")
					continue
				}
				roles[dr] = true
				members[authz.PolicyMembership{User: v[0], Role: dr, Scope: v[2]}] = true
			default:
				skip(r, "%d fields: not g, USER, ROLE / g, ROLE, ROLE / g, USER, ROLE, DOMAIN", len(v))
			}
		case "g2":
			if len(v) != 2 {
				skip(r, "%d fields: not g2, OBJECT, GROUP", len(v))
				continue
			}
			groups[v[1]] = append(groups[v[1]], v[0])
		default:
			skip(r, "section %q has no RBAC meaning in rolegate", r.PType)
		}
	}
	for _, g := range grants {
		if !authz.ValidName(g.role) || (g.obj != "" && !authz.ValidName(g.obj+":"+g.act)) {
			res.Skipped = append(res.Skipped, Skipped{Text: "p, " + g.role + ", " + g.obj + ", " + g.act, Reason: "the role or permission name it maps to is longer than 128 characters"})
			continue
		}
		roles[g.role] = true
		if g.obj == "" {
			add(perms, g.role, g.perm)
			continue
		}
		for _, obj := range expand(g.obj, groups) {
			add(perms, g.role, obj+":"+g.act)
		}
	}
	// Direct grants to users: a role of the user's name, the user its member.
	for _, g := range grants {
		if !roleNames[g.role] && !res.Domains {
			users[g.role] = true
		}
	}
	for u := range users {
		members[authz.PolicyMembership{User: u, Role: u}] = true
	}
	p := authz.Policy{Version: authz.PolicyVersion, ManageMemberships: true, Memberships: []authz.PolicyMembership{}}
	for _, name := range sortedKeys(roles) {
		p.Roles = append(p.Roles, authz.PolicyRole{Name: name, Permissions: sortedKeys(perms[name]), Inherits: sortedKeys(inherits[name])})
	}
	for m := range members {
		p.Memberships = append(p.Memberships, m)
	}
	p.Normalize()
	res.Policy = p
	return res
}

// firstInvalid is the index of the first value that is not a valid
// rolegate name, or -1.
func firstInvalid(v []string) int {
	for i, x := range v {
		if !authz.ValidName(x) {
			return i
		}
	}
	return -1
}

// domainRole names the rolegate role of a Casbin role in one domain.
func domainRole(role, domain string) string { return role + "@" + domain }

// expand lists obj and every object grouped under it by g2 lines,
// transitively (cycles are cut).
func expand(obj string, groups map[string][]string) []string {
	seen := map[string]bool{obj: true}
	queue := []string{obj}
	for i := 0; i < len(queue); i++ {
		for _, o := range groups[queue[i]] {
			if !seen[o] {
				seen[o] = true
				queue = append(queue, o)
			}
		}
	}
	sort.Strings(queue)
	return queue
}

func add(m map[string]map[string]bool, k, v string) {
	if m[k] == nil {
		m[k] = map[string]bool{}
	}
	m[k][v] = true
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	if len(out) == 0 {
		return nil
	}
	return out
}
