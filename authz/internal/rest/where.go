package rest

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
)

// Where a user may act, and checks in batches: GET /api/where_can and
// POST /api/check, both answered from the decision cache as
// has_permission is.

// whereWindow is how many scopes are written between flushes.
const whereWindow = 256

// whereCanRoute: GET /api/where_can/{user}/{name}, data {"global": bool,
// "scopes": [...]}: whether the user holds the permission through a global
// membership, and the scopes (sorted) where a scoped one grants it. The
// scopes are paged by ?limit and ?after like every list, and
// X-Total-Count is how many there are in all.
func whereCanRoute() route {
	return route{
		method: http.MethodGet, path: "/api/where_can/:user/:name", action: "where_can",
		params: []param{{"user", "user"}, {"name", "permission"}}, list: true,
		resource: func(call *request) string {
			return "user:" + call.cl.AuditUser(call.args[0]) + "/" + call.cl.AuditPermission(call.args[1])
		},
		stream: func(call *request, w *listWriter) error {
			global, scopes, err := call.cl.WhereCanScopes(call.ctx, call.args[0], call.args[1])
			if err != nil {
				return err
			}
			call.c.Header(middleware.HeaderTotalCount, strconv.Itoa(len(scopes)))
			w.open, w.close = `{"global":false,"scopes":[`, "]}"
			if global {
				w.open = `{"global":true,"scopes":[`
			}
			// scopes is the cache's own sorted list: read in place, never
			// copied or changed.
			if after := call.page.after; after != "" {
				i, found := slices.BinarySearch(scopes, after)
				if found {
					i++
				}
				scopes = scopes[i:]
			}
			if limit := call.page.limit; limit > 0 && len(scopes) > limit {
				scopes = scopes[:limit]
			}
			for len(scopes) > 0 {
				n := min(len(scopes), whereWindow)
				if err := eachName(w, func(s string) string { return s })(scopes[:n]); err != nil {
					return err
				}
				scopes = scopes[n:]
			}
			return nil
		},
	}
}

// MaxChecks is the most checks POST /api/check answers in one request.
const MaxChecks = 1000

// MaxCheckBodyBytes bounds the body of POST /api/check: MaxChecks checks
// of the longest names, escaped, fit.
const MaxCheckBodyBytes = 4 << 20

// checkResults is the data of POST /api/check.
type checkResults struct {
	Results []bool `json:"results"`
}

// checkRoute: POST /api/check, body {"checks": [{"user", "permission",
// "scope"}...]} (scope optional, at most MaxChecks), data {"results":
// [bool...]} in the order of the checks. It only reads: it takes
// ?at_least and counts as one read in flight in open mode. A name that
// breaks the naming rule, or one check too many, is a 400 naming the
// check by index (0-based).
func checkRoute() route {
	return route{
		method: http.MethodPost, path: "/api/check", action: "check", read: true, maxBody: MaxCheckBodyBytes, gated: true,
		resource: func(*request) string { return "check" },
		run: func(call *request) (int, string, any, error) {
			// The body is read without the slot of all clients' reads: a
			// body sent slowly holds only its own client's.
			call.slot.pause()
			checks, err := readChecks(call.c, call.gate)
			if err == nil {
				err = call.slot.resume()
			}
			if err != nil {
				return 0, "", nil, err
			}
			results, err := call.cl.CheckMany(call.ctx, checks)
			if err != nil {
				return 0, "", nil, err
			}
			return http.StatusOK, fmt.Sprintf("%d checks", len(results)), checkResults{Results: results}, nil
		},
	}
}

// malformedChecks is the refusal of a body that is not a list of checks.
func malformedChecks() error {
	return refuse(fmt.Errorf(`%w: body must be a JSON object with a "checks" list of {"user", "permission", "scope"} (scope optional)`, errBadRequest))
}

// readChecks reads the body (up to MaxCheckBodyBytes; in open mode
// through gate, at the least pace, as a batch body) and its checks (see
// scanChecks), with the names checked.
func readChecks(c *gin.Context, gate CheckGate) ([]rbac.Check, error) {
	if c.Request.Body == nil {
		return nil, malformedChecks()
	}
	var b []byte
	var err error
	if gate != nil {
		b, err = readGated(c, gate)
	} else {
		b, err = io.ReadAll(c.Request.Body)
	}
	if err != nil {
		switch {
		case middleware.IsBodyTooLarge(err):
			return nil, refuse(fmt.Errorf("%w: over %d bytes", errBodyTooLarge, MaxCheckBodyBytes))
		case errors.Is(err, errBodyTooSlow):
			return nil, refuse(err)
		case errors.Is(err, rbac.ErrRateLimited):
			return nil, err // a 429 of the open mode's bounds
		}
		return nil, refuse(fmt.Errorf("%w: body could not be read", errBadRequest))
	}
	return parseChecks(b)
}

// parseChecks is the checks of a body read whole.
func parseChecks(b []byte) ([]rbac.Check, error) {
	raw, err := scanChecks(b, MaxChecks)
	if err != nil {
		if errors.Is(err, errCheckSyntax) || errors.Is(err, errCheckKeys) {
			return nil, malformedChecks()
		}
		return nil, refuse(fmt.Errorf("%w: %w", errBadRequest, err))
	}
	return asChecks(raw)
}

// checkNamesOf normalises a check's names (NFC, as the path's names are)
// and applies the naming rule, naming the check by index.
func checkNamesOf(i int, in rawCheck) (rbac.Check, error) {
	ck := rbac.Check{User: middleware.NormalizeName(in.user), Permission: middleware.NormalizeName(in.permission)}
	switch {
	case !middleware.ValidName(ck.User):
		return rbac.Check{}, badCheckName(i, "user", ck.User)
	case !middleware.ValidName(ck.Permission):
		return rbac.Check{}, badCheckName(i, "permission", ck.Permission)
	case in.scope == nil:
		return ck, nil
	}
	if ck.Scope = middleware.NormalizeName(*in.scope); !middleware.ValidName(ck.Scope) {
		return rbac.Check{}, badCheckName(i, "scope", ck.Scope)
	}
	return ck, nil
}

// badCheckName is the refusal of check i's name of kind.
func badCheckName(i int, kind, name string) error {
	return refuse(fmt.Errorf("check %d: %w", i, rbac.CheckNames(kind, name)))
}
