package rest

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// MaxPageLimit is the largest page of a list endpoint and of GET
// /api/audit.
const MaxPageLimit = 1000

// pageWindow is the optional pagination of a list endpoint:
// ?limit=N&after=<name>. The zero value means every entry.
type pageWindow struct {
	limit int    // 0: no limit
	after string // "": from the first entry
}

// parsePage reads limit (1 to MaxPageLimit) and after (a valid name,
// the last entry of the previous page). Either may be left out; a value
// given twice, empty, or out of range is a 400.
func parsePage(c *gin.Context) (pageWindow, error) {
	q := c.Request.URL.Query()
	var p pageWindow
	if v, ok, err := queryValue(q, "limit"); err != nil {
		return p, err
	} else if ok {
		n, err := parseLimit(v)
		if err != nil {
			return p, err
		}
		p.limit = n
	}
	if v, ok, err := queryValue(q, "after"); err != nil {
		return p, err
	} else if ok {
		v = middleware.NormalizeName(v)
		if !middleware.ValidName(v) {
			return p, fmt.Errorf("%w: after must be a valid name (the last entry of the previous page)", errBadRequest)
		}
		p.after = v
	}
	return p, nil
}

// checkQuery refuses a query string that does not parse: a ';'
// separator (which url.URL.Query drops silently, together with the
// parameter it is in, so "?limit=1;after=x" would list everything) or a
// bad percent escape; and a parameter the route does not read (a misspelt
// "?scpoe=org-1" or "?Scope=org-1" must not turn a scoped membership into
// a global one), naming it and the ones the route accepts.
func checkQuery(c *gin.Context, rt route) error {
	if c.Request.URL.RawQuery == "" {
		return nil
	}
	q, err := url.ParseQuery(c.Request.URL.RawQuery)
	if err != nil {
		return fmt.Errorf("%w: malformed query string (separate parameters with '&', escape reserved characters)", errBadRequest)
	}
	if len(q) == 0 {
		return nil
	}
	accepted := rt.acceptedQuery()
	var unknown []string
	for name := range q {
		if !slices.Contains(accepted, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	name := unknown[0]
	if len(name) > maxParamEcho {
		name = strings.ToValidUTF8(name[:maxParamEcho], "") + "…"
	}
	if len(accepted) == 0 {
		return fmt.Errorf("%w: unknown query parameter %s: this route takes no query parameters", errBadRequest, strconv.Quote(name))
	}
	return fmt.Errorf("%w: unknown query parameter %s: this route accepts %s", errBadRequest, strconv.Quote(name), strings.Join(accepted, ", "))
}

// maxParamEcho is the most bytes of an unknown parameter's name that the
// refusal repeats.
const maxParamEcho = 32

// acceptedQuery is every query parameter the route reads, sorted.
func (rt route) acceptedQuery() []string {
	out := slices.Clone(rt.query)
	if rt.list {
		out = append(out, "after", "limit")
	}
	if rt.reads() {
		out = append(out, atLeastParam)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// queryValue returns the single value of a query parameter.
func queryValue(q map[string][]string, name string) (string, bool, error) {
	vs, ok := q[name]
	switch {
	case !ok:
		return "", false, nil
	case len(vs) != 1:
		return "", false, fmt.Errorf("%w: %s given more than once", errBadRequest, name)
	}
	return vs[0], true, nil
}

func parseLimit(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || n > MaxPageLimit {
		return 0, fmt.Errorf("%w: limit must be a whole number from 1 to %d", errBadRequest, MaxPageLimit)
	}
	return n, nil
}
