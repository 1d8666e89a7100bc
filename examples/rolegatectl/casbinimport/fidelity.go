package casbinimport

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// CasbinMaxHierarchyLevel is how many role links Casbin's default role
// manager follows from a user (NewRoleManager(10)): a role further away
// grants nothing in Casbin, while rolegate follows a chain to its end.
const CasbinMaxHierarchyLevel = 10

// reExpr finds a policy field that is an expression for a model's matcher
// (ABAC rules such as "r.sub.Age > 18", the in operator, eval), not a
// name: without the model, it would be imported as a role or object named
// after the expression.
var reExpr = regexp.MustCompile(`(^|[^\w.])[rp][0-9]*\.(sub|obj|act|dom|eft)($|[^\w.\-])|&&|\|\||[=!<>]=|\s[<>]\s|\sin\s*[(\[]|\beval\s*\(`)

// checkFaithful refuses what would import with a meaning other than
// Casbin's: expressions written for a matcher imported without the model,
// an object or action containing ":" (ambiguous once joined as
// "OBJ:ACT"), and role links that loop.
func checkFaithful(rules []Rule, sh Shape, ref *Refusal) {
	var exprLines, colonLines []int
	joined := false
	for _, r := range rules {
		if r.PType != "p" || firstInvalid(r.Values) >= 0 {
			continue
		}
		if g, why := readGrant(r.Values, sh); why == "" && len(g.perm) > 1 {
			joined = true
			if slices.ContainsFunc(g.perm, func(s string) bool { return strings.Contains(s, ":") }) {
				colonLines = append(colonLines, r.Line)
			}
		}
	}
	for _, r := range rules {
		if !sh.FromModel && slices.ContainsFunc(r.Values, reExpr.MatchString) {
			exprLines = append(exprLines, r.Line)
		}
		if joined && r.PType == "g2" && sh.ResourceRoles && slices.ContainsFunc(r.Values, func(s string) bool { return strings.Contains(s, ":") }) {
			colonLines = append(colonLines, r.Line)
		}
	}
	if len(exprLines) > 0 {
		ref.add("fields that are matcher expressions, not names (%s): a policy written for ABAC conditions, the in operator or eval needs its model; give --model, which says whether rolegate can express it", lineList(exprLines))
	}
	if len(colonLines) > 0 {
		slices.Sort(colonLines)
		ref.add("an object or action containing ':' (%s): rolegate names the permission OBJ:ACT, and \"a:b\" + \"c\" would be the same name as \"a\" + \"b:c\"", lineList(colonLines))
	}
	for _, c := range roleCycles(roleLinks(rules, sh)) {
		ref.add("%s", c)
	}
}

// link is one role link of a policy: child inherits parent (g, CHILD,
// PARENT[, DOM], CHILD a role), on a line.
type link struct {
	child, parent node
	line          int
}

// node is a name in a domain ("" without domains).
type node struct{ name, dom string }

func (n node) String() string {
	if n.dom == "" {
		return Escape(n.name)
	}
	return Escape(n.name) + " (domain " + Escape(n.dom) + ")"
}

// roleLinks lists the g lines that Convert makes inheritance.
func roleLinks(rules []Rule, sh Shape) []link {
	roleNames := map[string]bool{}
	for _, r := range rules {
		if r.PType == "g" && len(r.Values) >= 2 {
			roleNames[r.Values[1]] = true
		}
	}
	var out []link
	for _, r := range rules {
		v := r.Values
		if r.PType != "g" || len(v) < 2 || firstInvalid(v) >= 0 || !roleNames[v[0]] {
			continue
		}
		switch {
		case len(v) == 2 && !sh.Domains:
			out = append(out, link{node{v[0], ""}, node{v[1], ""}, r.Line})
		case len(v) == 3 && sh.Domains:
			out = append(out, link{node{v[0], v[2]}, node{v[1], v[2]}, r.Line})
		}
	}
	return out
}

// roleCycles describes the loops among links (at most maxCycles, each
// with its lines): legal in Casbin, where a loop adds nothing, but
// rolegate's inheritance is a hierarchy.
func roleCycles(links []link) []string {
	const maxCycles = 5
	adj := map[node][]int{}
	for i, l := range links {
		adj[l.child] = append(adj[l.child], i)
	}
	var out []string
	state := map[node]uint8{} // 0 unseen, 1 on the path, 2 done
	type frame struct {
		n    node
		next int
		via  int // the link that led here, or -1
	}
	for _, start := range links {
		if state[start.child] != 0 {
			continue
		}
		stack := []frame{{n: start.child, via: -1}}
		state[start.child] = 1
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == len(adj[top.n]) {
				state[top.n] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			li := adj[top.n][top.next]
			top.next++
			p := links[li].parent
			switch state[p] {
			case 0:
				state[p] = 1
				stack = append(stack, frame{n: p, via: li})
			case 1:
				if len(out) == maxCycles {
					continue
				}
				if p == top.n {
					out = append(out, fmt.Sprintf("a role linked to itself (line %d: %s): legal in Casbin, where it adds nothing, but rolegate's inheritance may not loop", links[li].line, p))
					continue
				}
				var lines []int
				path := []string{p.String()}
				for j := len(stack) - 1; stack[j].n != p; j-- {
					lines = append(lines, links[stack[j].via].line)
				}
				slices.Reverse(lines)
				for j := slices.IndexFunc(stack, func(f frame) bool { return f.n == p }) + 1; j < len(stack); j++ {
					path = append(path, stack[j].n.String())
				}
				lines = append(lines, links[li].line)
				path = append(path, p.String())
				out = append(out, fmt.Sprintf("a cycle of role links (%s: %s): legal in Casbin, where it adds nothing, but rolegate's inheritance may not loop", lineList(lines), strings.Join(path, " -> ")))
			}
		}
	}
	return out
}

// deepChains warns when a user reaches a grant only through more than
// CasbinMaxHierarchyLevel links: Casbin's default role manager denies
// it, rolegate (which follows every link) allows it. It names the users
// (at most maxNamed) and one permission each.
func deepChains(rules []Rule, sh Shape) []string {
	const maxNamed = 20
	adj := map[node][]node{}
	perms := map[node][]string{}
	roleNames := map[string]bool{}
	var users []node
	seenUser := map[node]bool{}
	addUser := func(n node) {
		if !seenUser[n] {
			seenUser[n] = true
			users = append(users, n)
		}
	}
	for _, r := range rules {
		if r.PType == "g" && len(r.Values) >= 2 {
			roleNames[r.Values[1]] = true
		}
	}
	for _, r := range rules {
		v := r.Values
		if firstInvalid(v) >= 0 {
			continue
		}
		switch {
		case r.PType == "g" && len(v) == 2 && !sh.Domains:
			adj[node{v[0], ""}] = append(adj[node{v[0], ""}], node{v[1], ""})
			if !roleNames[v[0]] {
				addUser(node{v[0], ""})
			}
		case r.PType == "g" && len(v) == 3 && sh.Domains:
			adj[node{v[0], v[2]}] = append(adj[node{v[0], v[2]}], node{v[1], v[2]})
			if !roleNames[v[0]] {
				addUser(node{v[0], v[2]})
			}
		case r.PType == "p":
			if g, why := readGrant(v, sh); why == "" {
				n := node{g.sub, g.dom}
				perms[n] = append(perms[n], strings.Join(g.perm, ":"))
				addUser(n)
			}
		}
	}
	// The longest chain from each name (the links are acyclic: Check
	// refused loops); when none is longer than Casbin follows, no user
	// can tell the difference.
	height := map[node]int{}
	deepest := 0
	for _, u := range users {
		if h := chainHeight(u, adj, height); h > deepest {
			deepest = h
		}
	}
	if deepest <= CasbinMaxHierarchyLevel {
		return nil
	}
	var named []string
	count := 0
	for _, u := range users {
		if height[u] <= CasbinMaxHierarchyLevel {
			continue
		}
		// Breadth first: the shortest distance to each role, as Casbin
		// walks it.
		dist := map[node]int{u: 0}
		queue := []node{u}
		for i := 0; i < len(queue); i++ {
			for _, p := range adj[queue[i]] {
				if _, ok := dist[p]; !ok {
					dist[p] = dist[queue[i]] + 1
					queue = append(queue, p)
				}
			}
		}
		near := map[string]bool{}
		for _, n := range queue {
			if dist[n] <= CasbinMaxHierarchyLevel {
				for _, p := range perms[n] {
					near[p] = true
				}
			}
		}
		gained := ""
		for _, n := range queue {
			if dist[n] > CasbinMaxHierarchyLevel {
				for _, p := range perms[n] {
					if !near[p] {
						gained = fmt.Sprintf("%s (%s, %d links away)", u, Escape(p), dist[n])
						break
					}
				}
			}
			if gained != "" {
				break
			}
		}
		if gained == "" {
			continue
		}
		count++
		if len(named) < maxNamed {
			named = append(named, gained)
		}
	}
	if count == 0 {
		return nil
	}
	more := ""
	if count > len(named) {
		more = fmt.Sprintf(" and %d more", count-len(named))
	}
	return []string{fmt.Sprintf("role chains longer than Casbin's default of %d links: %d user(s) gain access that Casbin would deny (Casbin stops at %d links, rolegate follows the whole chain): %s%s",
		CasbinMaxHierarchyLevel, count, CasbinMaxHierarchyLevel, strings.Join(named, "; "), more)}
}

// chainHeight is the number of links of the longest chain from n,
// memoised in height, without recursion.
func chainHeight(n node, adj map[node][]node, height map[node]int) int {
	if h, ok := height[n]; ok {
		return h
	}
	type frame struct {
		n    node
		next int
	}
	const visiting = -1
	stack := []frame{{n: n}}
	height[n] = visiting
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next < len(adj[top.n]) {
			p := adj[top.n][top.next]
			top.next++
			if _, ok := height[p]; !ok {
				height[p] = visiting
				stack = append(stack, frame{n: p})
			}
			continue
		}
		h := 0
		for _, p := range adj[top.n] {
			if hp := height[p]; hp >= 0 && hp+1 > h {
				h = hp + 1
			}
		}
		height[top.n] = h
		stack = stack[:len(stack)-1]
	}
	return height[n]
}

// lineList is "line 3" or "lines 3, 4, 9", at most ten of them.
func lineList(lines []int) string {
	const max = 10
	if len(lines) == 1 {
		return "line " + strconv.Itoa(lines[0])
	}
	var b strings.Builder
	b.WriteString("lines ")
	for i, l := range lines {
		if i == max {
			fmt.Fprintf(&b, " and %d more", len(lines)-max)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(l))
	}
	return b.String()
}
