// Package casbinimport turns Casbin RBAC policies (a policy.csv, or the
// rows of a casbin_rule table), with their model when given, into a
// rolegate policy. rolegatectl's "import casbin" uses it; so does the test
// that runs Casbin and rolegate on Casbin's own examples.
//
// Import first finds the form of the policy: from the model (ReadModel,
// Model.Shape) or, without one, from the policy's shape (ShapeOf). rolegate
// expresses RBAC (g(r.sub, p.sub) with r.X == p.X), a role hierarchy,
// resource roles (g2(r.obj, p.obj)), domains (g(r.sub, p.sub, r.dom) with
// r.dom == p.dom) and a hierarchy within domains. Anything else is a
// *Refusal, before anything is converted: deny or priority effects,
// keyMatch/regexMatch/globMatch matchers, ABAC conditions, time-windowed
// role links, several policy types, and a literal * as a name (a pattern
// in Casbin, a plain name in rolegate).
//
// The mapping (documented in the README, "Importing from Casbin"):
//
//   - p, R, PERM            role R is granted PERM.
//   - p, R, OBJ, ACT        role R is granted "OBJ:ACT".
//   - p, R, DOM, OBJ, ACT   (with domains) role "R@DOM" is granted
//     "OBJ:ACT": a Casbin role's grants differ per domain, a rolegate
//     role's do not, so each (role, domain) becomes a role.
//   - a trailing effect field "allow" is dropped; a "deny" line under an
//     allow-only model is skipped (it never allows in Casbin either).
//   - g, A, B               A is a member of role B; or, when A is itself a
//     role (the second field of some g line), A inherits B.
//   - g, U, R, DOM          U is a member of role "R@DOM" in scope DOM; or,
//     when U is itself a role, "U@DOM" inherits "R@DOM".
//   - g2, OBJ, GROUP        resource roles: every grant on GROUP (directly
//     or through further g2 lines) is also granted on OBJ.
//   - A user granted permissions directly (p, alice, data1, read, alice
//     named nowhere as a role) gets a role of the same name with alice as
//     its only member ("alice@DOM", in scope DOM, with domains): Casbin's
//     g(r.sub, p.sub) holds for r.sub == p.sub.
//   - Role names are not users: Casbin answers for a role asked as a
//     subject (g(x, x) holds); rolegate asks a role's effective grant
//     instead (GET /api/permission/{role}/{name}?effective=true,
//     "rolegatectl check --role").
//
// Every line that fits none of these (other section types, wrong field
// counts, names that rolegate refuses) is listed in Skipped with its
// reason; nothing is silently dropped. Names in messages are escaped
// (Escape).
package casbinimport

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
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
	// Warnings: where the import, applied, answers otherwise than Casbin
	// (users reaching grants through role chains longer than Casbin
	// follows).
	Warnings []string
}

// ReadCSV reads a Casbin policy.csv as Casbin's file adapter does: one
// rule a line, fields separated by commas (quotes allowed), white space
// around fields trimmed; blank lines, and lines whose first non-blank
// character is #, are ignored (an indented # comment is a comment).
func ReadCSV(r io.Reader) ([]Rule, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	var out []Rule
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		cr := csv.NewReader(strings.NewReader(line))
		cr.FieldsPerRecord = -1
		cr.TrimLeadingSpace = true
		cr.LazyQuotes = true
		rec, err := cr.Read()
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		// Trailing empty fields (a casbin_rule row's unused v3..v5) carry
		// nothing.
		for len(rec) > 1 && rec[len(rec)-1] == "" {
			rec = rec[:len(rec)-1]
		}
		if len(rec) == 1 && rec[0] == "" {
			continue
		}
		out = append(out, Rule{Line: n, PType: rec[0], Values: rec[1:]})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than %d bytes", n+1, maxLineBytes)
		}
		return nil, err
	}
	return out, nil
}

// maxLineBytes bounds one line of a policy or model file.
const maxLineBytes = 1 << 20

// Import reads rules as the model says (or, with a nil model, as their
// shape says), refuses what rolegate cannot express, and converts the
// rest. A *Refusal error means nothing may be written.
func Import(rules []Rule, model *Model) (Result, error) {
	var sh Shape
	var err error
	if model != nil {
		sh, err = model.Shape()
	} else {
		sh, err = ShapeOf(rules)
	}
	if err != nil {
		return Result{}, err
	}
	if err := Check(rules, sh); err != nil {
		return Result{}, err
	}
	res := Convert(rules, sh)
	res.Warnings = deepChains(rules, sh)
	return res, nil
}

// ShapeOf reads the RBAC form from the policy alone, where it is
// unambiguous: domains when a g line carries a third field, resource
// roles when there are g2 lines, an effect field when p lines end in
// allow or deny. What it cannot express is refused by Check.
func ShapeOf(rules []Rule) (Shape, error) {
	sh := Shape{Dom: -1, Sub: 0, Group: -1}
	for _, r := range rules {
		n := len(r.Values)
		switch {
		case r.PType == "g" && n == 3:
			sh.Domains = true
		case r.PType == "g" && n == 5 && timeWindow(r.Values[3:]):
			sh.Domains = true
		case r.PType == "g2":
			sh.ResourceRoles = true
		case r.PType == "p" && n >= 3 && isEffect(r.Values[n-1]):
			sh.Effect = true
		}
	}
	return sh, nil
}

// Check refuses a policy that uses what rolegate cannot express: deny
// rules (without a model that ignores them), time-windowed g lines,
// other policy or role types, a literal * as a name; and what would import
// with another meaning than Casbin's: matcher expressions as fields
// without a model, an object or action containing ":", role links that
// loop (each named by its lines).
func Check(rules []Rule, sh Shape) error {
	ref := &Refusal{}
	gArity := 2
	if sh.Domains {
		gArity = 3
	}
	for _, r := range rules {
		v := r.Values
		switch {
		case r.PType == "p":
			if n := len(v); !sh.FromModel && n >= 3 && v[n-1] == "deny" {
				ref.add(reasonDeny)
			}
		case r.PType == "g":
			if len(v) == gArity+2 && timeWindow(v[gArity:]) || len(v) == 4 && !sh.Domains && timeWindow(v[2:]) {
				ref.add(reasonTime)
			}
		case r.PType == "g2" && sh.ResourceRoles:
		case reSectionType.MatchString(r.PType) && r.PType[0] == 'g':
			ref.add(reasonRoleTypes)
		case reSectionType.MatchString(r.PType):
			ref.add(reasonSeveral)
		default:
			continue
		}
		if slices.Contains(v, "*") {
			ref.add(reasonWildcard)
		}
	}
	checkFaithful(rules, sh, ref)
	return ref.err()
}

var reSectionType = regexp.MustCompile(`^[pgr][0-9]*$`)

func isEffect(s string) bool { return s == "allow" || s == "deny" }

// timeWindow: two fields that are each a Casbin link time
// ("2006-01-02 15:04:05") or "_" (no bound).
func timeWindow(v []string) bool {
	if len(v) != 2 {
		return false
	}
	for _, s := range v {
		if s != "_" && !reTime.MatchString(s) {
			return false
		}
	}
	return true
}

// Convert maps rules of the given shape to a rolegate policy; see the
// package comment. Lines it cannot map are listed in Skipped.
func Convert(rules []Rule, sh Shape) Result {
	res := Result{Domains: sh.Domains}
	skip := func(r Rule, why string, a ...any) {
		res.Skipped = append(res.Skipped, Skipped{Rule: r, Text: Escape(r.String()), Line: r.Line, Reason: fmt.Sprintf(why, a...)})
	}
	// First pass: which names are roles (the second field of a g line).
	roleNames := map[string]bool{}
	for _, r := range rules {
		if r.PType == "g" && len(r.Values) >= 2 {
			roleNames[r.Values[1]] = true
		}
	}
	type grant struct {
		rule     Rule
		sub, dom string
		perm     []string // the parts of the permission name
		group    int      // index in perm of the object g2 groups, or -1
	}
	var grants []grant
	groups := map[string][]string{} // g2: group -> objects in it
	perms := map[string]map[string]bool{}
	inherits := map[string]map[string]bool{}
	members := map[authz.PolicyMembership]bool{}
	roles := map[string]bool{}
	named := map[string][2]string{} // ROLE@DOMAIN -> (role, domain)
	// roleIn names role in dom, or says why it cannot.
	roleIn := func(role, dom string) (string, string) {
		if !sh.Domains {
			return role, ""
		}
		dr := domainRole(role, dom)
		if !authz.ValidName(dr) {
			return "", "the role name it maps to (ROLE@DOMAIN) is longer than 128 characters"
		}
		if was, ok := named[dr]; ok && was != [2]string{role, dom} {
			return "", fmt.Sprintf("role %s in domain %s maps to the same rolegate role %s as role %s in domain %s",
				Escape(role), Escape(dom), Escape(dr), Escape(was[0]), Escape(was[1]))
		}
		named[dr] = [2]string{role, dom}
		return dr, ""
	}
	for _, r := range rules {
		v := r.Values
		if bad := firstInvalid(v); bad >= 0 {
			skip(r, "field %d is not a valid rolegate name (1 to 128 characters, no control characters, no '/', no leading or trailing space)", bad+1)
			continue
		}
		switch r.PType {
		case "p":
			g, why := readGrant(v, sh)
			if why != "" {
				skip(r, "%s", why)
				continue
			}
			grants = append(grants, grant{rule: r, sub: g.sub, dom: g.dom, perm: g.perm, group: g.group})
		case "g":
			switch {
			case len(v) == 2 && !sh.Domains:
				if roleNames[v[0]] {
					roles[v[0]], roles[v[1]] = true, true
					add(inherits, v[0], v[1])
				} else {
					roles[v[1]] = true
					members[authz.PolicyMembership{User: v[0], Role: v[1]}] = true
				}
			case len(v) == 2:
				skip(r, "a g line without a domain (g, USER, ROLE) in a policy with domains (g, USER, ROLE, DOMAIN)")
			case len(v) == 3 && sh.Domains:
				parent, why := roleIn(v[1], v[2])
				if why != "" {
					skip(r, "%s", why)
					continue
				}
				if roleNames[v[0]] {
					// A role in a role, within one domain: the two roles
					// of that domain inherit.
					child, why := roleIn(v[0], v[2])
					if why != "" {
						skip(r, "%s", why)
						continue
					}
					roles[child], roles[parent] = true, true
					add(inherits, child, parent)
					continue
				}
				roles[parent] = true
				members[authz.PolicyMembership{User: v[0], Role: parent, Scope: v[2]}] = true
			case len(v) == 3:
				skip(r, "a g line with a domain (g, USER, ROLE, DOMAIN) in a model without domains")
			default:
				skip(r, "%d fields: not g, USER, ROLE / g, ROLE, ROLE / g, USER, ROLE, DOMAIN", len(v))
			}
		case "g2":
			if len(v) != 2 || !sh.ResourceRoles {
				skip(r, "%d fields: not g2, OBJECT, GROUP in a model with resource roles", len(v))
				continue
			}
			groups[v[1]] = append(groups[v[1]], v[0])
		default:
			skip(r, "section %q has no RBAC meaning in rolegate", Escape(r.PType))
		}
	}
	users := map[[2]string]bool{} // direct subjects of p lines that are not roles, per domain
	for _, g := range grants {
		role, why := roleIn(g.sub, g.dom)
		if why != "" {
			skip(g.rule, "%s", why)
			continue
		}
		var names []string
		for _, p := range expandPerm(g.perm, g.group, groups) {
			if !authz.ValidName(p) {
				skip(g.rule, "the permission name it maps to (%s) is not a valid rolegate name", Escape(p))
				names = nil
				break
			}
			names = append(names, p)
		}
		if names == nil {
			continue
		}
		roles[role] = true
		for _, p := range names {
			add(perms, role, p)
		}
		users[[2]string{g.sub, g.dom}] = true
	}
	// Direct grants: a role of the subject's name (in that domain), the
	// subject a member (in that domain's scope). A subject that is a role
	// as well (p, alice, data1, read with g, bob, alice) is a member of
	// itself too: Casbin's g(alice, alice) holds, so a user alice keeps
	// her own grants.
	for u := range users {
		role, _ := roleIn(u[0], u[1])
		members[authz.PolicyMembership{User: u[0], Role: role, Scope: u[1]}] = true
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

type parsedGrant struct {
	sub, dom string
	perm     []string
	group    int
}

// readGrant reads one p line in the given shape, or says why it cannot.
func readGrant(v []string, sh Shape) (parsedGrant, string) {
	n := len(v)
	eft := ""
	if sh.FromModel {
		if sh.Effect && n == sh.Fields+1 {
			eft, v = v[n-1], v[:n-1]
		}
		if len(v) != sh.Fields {
			return parsedGrant{}, fmt.Sprintf("%d fields: the model's p lines have %d", n, sh.Fields)
		}
	} else if n >= 3 && isEffect(v[n-1]) {
		eft, v = v[n-1], v[:n-1]
	}
	switch eft {
	case "", "allow":
	case "deny":
		return parsedGrant{}, "deny rule: under this model's effect it never allows, and rolegate has no deny"
	default:
		return parsedGrant{}, fmt.Sprintf("effect %q is neither allow nor deny", Escape(eft))
	}
	if sh.FromModel {
		g := parsedGrant{sub: v[sh.Sub], group: -1}
		if sh.Dom >= 0 {
			g.dom = v[sh.Dom]
		}
		for _, i := range sh.Perm {
			if i == sh.Group {
				g.group = len(g.perm)
			}
			g.perm = append(g.perm, v[i])
		}
		return g, ""
	}
	group := -1
	if sh.ResourceRoles {
		group = 0
	}
	switch {
	case len(v) == 2 && !sh.Domains:
		return parsedGrant{sub: v[0], perm: v[1:], group: group}, ""
	case len(v) == 3 && !sh.Domains:
		return parsedGrant{sub: v[0], perm: v[1:], group: group}, ""
	case len(v) == 4 && sh.Domains:
		return parsedGrant{sub: v[0], dom: v[1], perm: v[2:], group: group}, ""
	case len(v) == 4:
		return parsedGrant{}, "p, SUB, DOM, OBJ, ACT (a grant in a domain), but no g line of this policy carries a domain (g, USER, ROLE, DOMAIN), so nothing says who holds it in that domain; give --model if the model says otherwise"
	case sh.Domains:
		return parsedGrant{}, fmt.Sprintf("%d fields: not p, ROLE, DOMAIN, OBJ, ACT (this policy has domains)", len(v))
	default:
		return parsedGrant{}, fmt.Sprintf("%d fields: not p, ROLE, PERMISSION / p, ROLE, OBJ, ACT", len(v))
	}
}

// expandPerm lists the permission names of a grant: its parts joined
// with ":", once for the object and once for each object grouped under
// it by g2 lines.
func expandPerm(parts []string, group int, groups map[string][]string) []string {
	if group < 0 {
		return []string{strings.Join(parts, ":")}
	}
	var out []string
	for _, obj := range expand(parts[group], groups) {
		p := slices.Clone(parts)
		p[group] = obj
		out = append(out, strings.Join(p, ":"))
	}
	return out
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
