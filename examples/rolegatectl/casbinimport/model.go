package casbinimport

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// Model is a Casbin model file (.conf) read into its sections: for each
// section, its keys (r, p, p2, g, g2, e, m, ...) and their values.
type Model struct {
	Sections map[string]map[string]string
}

// ReadModel reads a Casbin model: "[section]" headers, "key = value"
// lines, a trailing backslash continuing a line, and lines starting with
// # or ; as comments.
func ReadModel(r io.Reader) (*Model, error) {
	m := &Model{Sections: map[string]map[string]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	section := ""
	// A continued line is gathered in one builder (linear in its length;
	// joining each piece to all before it was quadratic).
	var pending strings.Builder
	continued := false
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if strings.HasSuffix(line, `\`) {
			if continued {
				pending.WriteByte(' ')
			}
			pending.WriteString(strings.TrimSpace(strings.TrimSuffix(line, `\`)))
			continued = true
			continue
		}
		if continued {
			pending.WriteByte(' ')
			pending.WriteString(line)
			line = strings.TrimSpace(pending.String())
			pending.Reset()
			continued = false
		}
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case line[0] == '[' && line[len(line)-1] == ']':
			section = strings.TrimSpace(line[1 : len(line)-1])
			if m.Sections[section] == nil {
				m.Sections[section] = map[string]string{}
			}
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || section == "" {
				return nil, fmt.Errorf("line %d: not a [section] or key = value: %s", n, Escape(clip(line)))
			}
			m.Sections[section][strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than %d bytes", n+1, maxLineBytes)
		}
		return nil, err
	}
	if continued {
		return nil, fmt.Errorf("the last line ends with a backslash")
	}
	for _, s := range []string{"request_definition", "policy_definition", "policy_effect", "matchers"} {
		if len(m.Sections[s]) == 0 {
			return nil, fmt.Errorf("no [%s] section: not a Casbin model", s)
		}
	}
	return m, nil
}

// Refusal lists what a model or policy uses that rolegate cannot express.
// An import that meets one writes nothing.
type Refusal struct{ Reasons []string }

func (r *Refusal) Error() string {
	return "rolegate cannot express this Casbin model or policy (nothing was imported): " + strings.Join(r.Reasons, "; ")
}

func (r *Refusal) add(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	if !slices.Contains(r.Reasons, s) {
		r.Reasons = append(r.Reasons, s)
	}
}

func (r *Refusal) err() error {
	if len(r.Reasons) == 0 {
		return nil
	}
	return r
}

// Reasons rolegate gives for what it cannot express.
const (
	reasonDeny            = "deny effects (rolegate only grants, so nothing can take away what a role grants)"
	reasonPriority        = "priority effects (priority(p.eft): the first matching rule by its order decides; rolegate has no rule order)"
	reasonSubjectPriority = "subject priority effects (subjectPriority(p.eft): a rule of the subject itself overrides its roles' rules; rolegate's grants only add)"
	reasonPattern         = "pattern matchers (keyMatch, regexMatch, globMatch, ipMatch): rolegate compares names exactly"
	reasonTime            = "time-windowed role links (g = _, _, (_, _)): Casbin's link times (local time, _ for an open end) are not mapped onto rolegate's from and until"
	reasonSeveral         = "several policy, request or matcher types (p2, r2, m2): rolegate has one kind of grant"
	reasonWildcard        = "a literal * as a name: in Casbin it is a pattern only with a matching function; rolegate would store a user, role or scope named *"
	reasonRoleTypes       = "role definitions other than g (users in roles) and g2 (objects in groups, g2(r.obj, p.obj))"
)

var (
	reGCall = regexp.MustCompile(`^(g[0-9]*)\(\s*r\.(\w+)\s*,\s*p\.(\w+)\s*(?:,\s*([rp])\.(\w+)\s*)?\)$`)
	reEq    = regexp.MustCompile(`^([rp])\.(\w+)\s*==\s*([rp])\.(\w+)$`)
	reFunc  = regexp.MustCompile(`\b(keyMatch[0-9]*|keyGet[0-9]*|regexMatch|globMatch|ipMatch|timeMatch)\s*\(`)
	reTime  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)
)

// fields splits a definition such as "sub, obj, act" into its names.
func fields(def string) []string {
	var out []string
	for _, f := range strings.Split(def, ",") {
		out = append(out, strings.TrimSpace(f))
	}
	return out
}

// Shape is the form of a policy that rolegate expresses: where the
// subject, the domain and the parts of the permission name sit on a p
// line, and what g and g2 lines mean.
type Shape struct {
	// FromModel: positions come from a model. Without one, each p line is
	// read by its number of fields (see the package comment).
	FromModel bool
	Fields    int   // values on a p line (the effect field excluded); model only
	Sub       int   // position of the subject on a p line; model only
	Dom       int   // position of the domain on a p line, or -1; model only
	Perm      []int // positions joined with ":" into the permission name; model only
	Group     int   // position of the object g2 groups, or -1; model only
	Effect    bool  // p lines may end with an effect field (allow, deny)
	// Domains: g lines are g, USER, ROLE, DOMAIN, and grants are per domain.
	Domains bool
	// ResourceRoles: g2, OBJECT, GROUP lines put objects in groups.
	ResourceRoles bool
}

// Name says which of rolegate's shapes this is.
func (s Shape) Name() string {
	var parts []string
	if s.Domains {
		parts = append(parts, "RBAC with domains")
	} else {
		parts = append(parts, "RBAC")
	}
	if s.ResourceRoles {
		parts = append(parts, "resource roles")
	}
	if !s.FromModel {
		parts = append(parts, "read from the policy's shape")
	}
	return strings.Join(parts, ", ")
}

// Shape finds which RBAC form rolegate expresses the model is, or
// refuses it with everything it uses that rolegate cannot express.
func (m *Model) Shape() (Shape, error) {
	// ref collects what rolegate cannot express; form collects the
	// mismatches those cause further down (fields left uncompared), which
	// are reported only when there is nothing more basic to say.
	ref, form := &Refusal{}, &Refusal{}
	sh := Shape{FromModel: true, Dom: -1, Sub: -1, Group: -1}
	var groupField string
	for _, s := range []string{"request_definition", "policy_definition", "matchers"} {
		if len(m.Sections[s]) > 1 {
			ref.add(reasonSeveral)
		}
	}
	req := fields(m.Sections["request_definition"]["r"])
	pol := fields(m.Sections["policy_definition"]["p"])
	if m.Sections["request_definition"]["r"] == "" || m.Sections["policy_definition"]["p"] == "" {
		ref.add(reasonSeveral)
	}
	if i := slices.Index(pol, "eft"); i >= 0 {
		if i != len(pol)-1 {
			ref.add("an effect field (eft) that is not last on p lines")
		}
		pol = pol[:i]
		sh.Effect = true
	}
	switch e := strings.Join(strings.Fields(m.Sections["policy_effect"]["e"]), ""); {
	case e == "some(where(p.eft==allow))":
	case strings.Contains(e, "subjectPriority("):
		ref.add(reasonSubjectPriority)
	case strings.Contains(e, "priority("):
		ref.add(reasonPriority)
	case strings.Contains(e, "deny"):
		ref.add(reasonDeny)
	default:
		ref.add("the effect %s (rolegate allows when some grant matches)", Escape(m.Sections["policy_effect"]["e"]))
	}
	roleDefs := m.Sections["role_definition"]
	gArity := 0
	for k, v := range roleDefs {
		if strings.Contains(v, "(") {
			ref.add(reasonTime)
			continue
		}
		switch n := len(fields(v)); {
		case k == "g" && (n == 2 || n == 3):
			gArity = n
		case k == "g2" && n == 2:
		default:
			ref.add(reasonRoleTypes)
		}
	}
	expr := strings.TrimSpace(m.Sections["matchers"]["m"])
	if reFunc.MatchString(expr) {
		ref.add(reasonPattern)
	}
	terms, bad := conjuncts(expr)
	if bad != "" {
		// A matcher Casbin itself cannot compile: nothing more to read.
		ref.add("%s", bad)
		return Shape{}, ref
	}
	// Only a conjunction of g(...), g2(...) and r.X == p.Y terms.
	usedP := map[string]string{} // p field -> its role (sub, dom, perm)
	usedR := map[string]bool{}
	var gDom string // the domain argument of g: "r.X" or "p.X"
	var domEq [2]string
	var eqs [][2]string // r field, p field
	sawG := false
	for _, term := range terms {
		if g := reGCall.FindStringSubmatch(term); g != nil {
			switch {
			case g[1] == "g" && !sawG && (len(req) == 0 || g[2] != req[0] || len(pol) == 0 || g[3] != pol[0]):
				sawG = true
				ref.add("roles over a field other than the subject (g(r.%s, p.%s), where the subject is the first request and policy field): rolegate's roles hold users", Escape(g[2]), Escape(g[3]))
			case g[1] == "g" && !sawG:
				sawG = true
				usedR[g[2]], usedP[g[3]] = true, "sub"
				sh.Sub = slices.Index(pol, g[3])
				if g[4] != "" {
					gDom = g[4] + "." + g[5]
				}
			case g[1] == "g2" && g[4] == "" && !sh.ResourceRoles:
				sh.ResourceRoles = true
				groupField = g[3]
				eqs = append(eqs, [2]string{g[2], g[3]})
			default:
				ref.add(reasonRoleTypes)
			}
			continue
		}
		if e := reEq.FindStringSubmatch(term); e != nil && e[1] != e[3] {
			r, p := e[2], e[4]
			if e[1] == "p" {
				r, p = e[4], e[2]
			}
			eqs = append(eqs, [2]string{r, p})
			continue
		}
		if !reFunc.MatchString(term) {
			ref.add("%s", termFeature(term))
		}
	}
	if !sawG {
		form.add("a matcher without g(r.sub, p.sub): users are not related to roles, so this is not RBAC as rolegate has it")
	}
	if gArity == 3 && gDom == "" || gArity == 2 && gDom != "" || gArity == 0 && sawG {
		form.add("a g definition that does not match its use in the matcher")
	}
	if gDom != "" {
		sh.Domains = true
		for _, e := range eqs {
			if "r."+e[0] == gDom || "p."+e[1] == gDom {
				domEq = e
			}
		}
		if domEq[0] == "" {
			form.add("a domain in g that no r.DOM == p.DOM term ties to the grant: roles would hold across domains")
		} else {
			sh.Dom = slices.Index(pol, domEq[1])
			usedR[domEq[0]], usedP[domEq[1]] = true, "dom"
		}
	}
	for _, e := range eqs {
		if e == domEq {
			continue
		}
		if usedR[e[0]] || usedP[e[1]] != "" {
			form.add("a request or policy field compared twice in the matcher")
			continue
		}
		usedR[e[0]], usedP[e[1]] = true, "perm"
		sh.Perm = append(sh.Perm, slices.Index(pol, e[1]))
	}
	for _, f := range req {
		if !usedR[f] {
			form.add("the request field %s, which the matcher does not compare to a policy field", Escape(f))
		}
	}
	for _, f := range pol {
		if usedP[f] == "" {
			form.add("the policy field %s, which the matcher does not compare to a request field", Escape(f))
		}
	}
	if slices.Contains(sh.Perm, -1) || sh.Sub < 0 || (sh.Domains && sh.Dom < 0) {
		form.add("a matcher naming fields its definitions do not have")
	}
	if len(sh.Perm) == 0 || len(sh.Perm) > 2 {
		form.add("%d compared object fields: rolegate names a permission by one or two (OBJ, or OBJ and ACT)", len(sh.Perm))
	}
	slices.Sort(sh.Perm)
	if sh.ResourceRoles {
		sh.Group = slices.Index(pol, groupField)
	}
	sh.Fields = len(pol)
	if err := ref.err(); err != nil {
		return Shape{}, err
	}
	if err := form.err(); err != nil {
		return Shape{}, err
	}
	return sh, nil
}
