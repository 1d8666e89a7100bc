package authz

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// MaxPageLimit is the largest page of a list endpoint and of GET
// /api/audit.
const MaxPageLimit = 1000

// restPage is the optional pagination of a list endpoint:
// ?limit=N&after=<name>. The zero value means every entry.
type restPage struct {
	limit int    // 0: no limit
	after string // "": from the first entry
}

// restParsePage reads limit (1 to MaxPageLimit) and after (a valid name,
// the last entry of the previous page). Either may be left out; a value
// given twice, empty, or out of range is a 400.
func restParsePage(c *gin.Context) (restPage, error) {
	q := c.Request.URL.Query()
	var p restPage
	if v, ok, err := restQueryValue(q, "limit"); err != nil {
		return p, err
	} else if ok {
		n, err := restParseLimit(v)
		if err != nil {
			return p, err
		}
		p.limit = n
	}
	if v, ok, err := restQueryValue(q, "after"); err != nil {
		return p, err
	} else if ok {
		v = middleware.NormalizeName(v)
		if !ValidName(v) {
			return p, fmt.Errorf("%w: after must be a valid name (the last entry of the previous page)", errBadRequest)
		}
		p.after = v
	}
	return p, nil
}

// restCheckQuery refuses a query string that does not parse: a ';'
// separator (which url.URL.Query drops silently, together with the
// parameter it is in, so "?limit=1;after=x" would list everything) or a
// bad percent escape. Parameters a route does not use are ignored, as
// before; malformed ones are never guessed at.
func restCheckQuery(c *gin.Context) error {
	if _, err := url.ParseQuery(c.Request.URL.RawQuery); err != nil {
		return fmt.Errorf("%w: malformed query string (separate parameters with '&', escape reserved characters)", errBadRequest)
	}
	return nil
}

// restQueryValue returns the single value of a query parameter.
func restQueryValue(q map[string][]string, name string) (string, bool, error) {
	vs, ok := q[name]
	switch {
	case !ok:
		return "", false, nil
	case len(vs) != 1:
		return "", false, fmt.Errorf("%w: %s given more than once", errBadRequest, name)
	}
	return vs[0], true, nil
}

func restParseLimit(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || n > MaxPageLimit {
		return 0, fmt.Errorf("%w: limit must be a whole number from 1 to %d", errBadRequest, MaxPageLimit)
	}
	return n, nil
}
