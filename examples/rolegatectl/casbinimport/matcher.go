package casbinimport

import (
	"fmt"
	"regexp"
	"strings"
)

// conjuncts splits a matcher into the terms of its conjunction, looking
// through parentheses that only group: "g(r.sub, p.sub) && (r.obj ==
// p.obj && (r.act == p.act))" gives three terms. A parenthesis that does
// more ("(a && b) || c") leaves its term whole. It runs in time linear in
// the matcher: each parenthesis and string literal is matched once, and
// each character is read at one level of nesting only. A matcher that
// Casbin could not compile (a parenthesis or a quote left open) is
// answered with what is wrong with it instead.
func conjuncts(expr string) (terms []string, bad string) {
	// jump[i], for an opening parenthesis or quote at i, is the index of
	// its closing one.
	jump := make(map[int]int)
	var open []int
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; c {
		case '"', '\'', '`':
			j := strings.IndexByte(expr[i+1:], c)
			if j < 0 {
				return nil, fmt.Sprintf("an unterminated string literal in the matcher (from character %d): Casbin cannot compile it", i+1)
			}
			jump[i] = i + 1 + j
			i += 1 + j
		case '(':
			open = append(open, i)
		case ')':
			if len(open) == 0 {
				return nil, fmt.Sprintf("an unbalanced parenthesis in the matcher (a ')' at character %d closes nothing): Casbin cannot compile it", i+1)
			}
			jump[open[len(open)-1]] = i
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		return nil, fmt.Sprintf("an unbalanced parenthesis in the matcher (the '(' at character %d is never closed): Casbin cannot compile it", open[len(open)-1]+1)
	}
	var split func(lo, hi int)
	piece := func(lo, hi int) {
		for lo < hi && isSpace(expr[lo]) {
			lo++
		}
		for hi > lo && isSpace(expr[hi-1]) {
			hi--
		}
		if lo < hi && expr[lo] == '(' && jump[lo] == hi-1 {
			split(lo+1, hi-1) // a group and nothing else
			return
		}
		terms = append(terms, expr[lo:hi])
	}
	split = func(lo, hi int) {
		start := lo
		for i := lo; i < hi; {
			switch c := expr[i]; {
			case c == '(' || c == '"' || c == '\'' || c == '`':
				i = jump[i] + 1
			case c == '&' && i+1 < hi && expr[i+1] == '&':
				piece(start, i)
				i += 2
				start = i
			default:
				i++
			}
		}
		piece(start, hi)
	}
	split(0, len(expr))
	return terms, ""
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

var (
	reAttr     = regexp.MustCompile(`\b[rp][0-9]*\.\w+\.\w`)
	reIn       = regexp.MustCompile(`\sin\s*[(\[]|\sin\s+[rp][0-9]*\.`)
	reCompare  = regexp.MustCompile(`!=|<=|>=|[^=!<>]<[^=]|[^=!<>-]>[^=]`)
	reLiteral  = regexp.MustCompile(`"|'|` + "`" + `|(^|[^\w.])[0-9]`)
	reCall     = regexp.MustCompile(`\b([A-Za-z_]\w*)\s*\(`)
	reRoleType = regexp.MustCompile(`^g[0-9]*$`)
)

// termFeature names what a matcher term rolegate cannot read uses, most
// telling first.
func termFeature(term string) string {
	switch {
	case strings.Contains(term, "eval("):
		return "eval() of conditions held in the policy (ABAC rules): rolegate decides by role and exact name only"
	case reAttr.MatchString(term):
		return "ABAC conditions on attributes (such as r.sub.Age): rolegate decides by role and exact name only"
	case reIn.MatchString(term):
		return "the in operator (r.X in (...)): rolegate compares one name with one name"
	case strings.Contains(term, "||"):
		return "alternatives (||) in the matcher: rolegate allows when one grant matches every field"
	case strings.Contains(strings.ReplaceAll(term, "!=", ""), "!"):
		return "negation (!) in the matcher: rolegate has no deny"
	case reCompare.MatchString(" " + term + " "):
		return "comparisons other than == (!=, <, >) in the matcher: rolegate compares names for equality"
	case reLiteral.MatchString(term):
		return "literal values in the matcher: rolegate compares request fields with policy fields only"
	}
	if c := reCall.FindStringSubmatch(term); c != nil && reRoleType.MatchString(c[1]) {
		return fmt.Sprintf("a role link %s rolegate does not read: it reads g(r.sub, p.sub[, r.dom]) and g2(r.obj, p.obj)", Escape(clip(term)))
	} else if c != nil {
		return fmt.Sprintf("the function %s() in the matcher: rolegate knows g(), g2() and == only", Escape(clip(c[1])))
	}
	return fmt.Sprintf("the matcher term %s: rolegate reads g(r.sub, p.sub), g2(r.obj, p.obj) and r.X == p.X joined by && only", Escape(clip(term)))
}

// clip shortens s for a message.
func clip(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "") + "…"
}
