package authz

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// restRoute is one client-key route of the REST admin API: the library
// operation it runs and how its URL parameters are checked.
type restRoute struct {
	method, path string
	// action is the library operation, as the audit log names it.
	action string
	// params are the URL parameters, each checked with the naming rule
	// before anything else runs (also for reads: the library answers some
	// reads of impossible names with "not found", the REST API with 400).
	params []restParam
	// write: the operation audits its own outcome, refusals included, in
	// its transaction; the REST layer audits only what it refuses itself.
	write bool
	// list: the route accepts ?limit=N&after=<name>.
	list bool
	// resource names the target in the audit log, from the checked
	// arguments; never the plaintext of a name the store keeps encrypted.
	resource func(call *restCall) string
	// run performs the operation and returns the status, message and data
	// of the success envelope.
	run func(call *restCall) (int, string, any, error)
	// stream, instead of run, writes a list entry by entry (restStream).
	stream func(call *restCall, w *restListWriter) error
}

// restParam is a URL parameter and the kind of name it holds, for error
// messages ("role", "user", "permission").
type restParam struct{ name, kind string }

// restCall is one request to a restRoute, after the checks.
type restCall struct {
	c    *gin.Context
	ctx  context.Context
	cl   *Client
	args []string // the checked URL parameters, in restRoute.params order
	page restPage
}

// restRefusal marks an error the REST layer produced itself (a bad body,
// say) rather than the library, so that it is audited even on a write
// route.
type restRefusal struct{ err error }

func (r restRefusal) Error() string { return r.err.Error() }
func (r restRefusal) Unwrap() error { return r.err }

// restRefuse wraps err as the REST layer's own refusal.
func restRefuse(err error) error { return restRefusal{err: err} }

// restHandler builds the gin handler of a route. ClientKeyAuth runs before it,
// so the client key is present and valid.
func (az *Authz) restHandler(rt restRoute) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := az.requestContext(c)
		key, _ := middleware.ClientKeyFrom(c)
		cl, err := az.Client(key)
		if err != nil {
			// Unreachable behind ClientKeyAuth; refuse rather than guess.
			az.restFail(c, ctx, rt, nil, restRefuse(err))
			return
		}
		call := &restCall{c: c, ctx: ctx, cl: cl, args: make([]string, 0, len(rt.params))}
		if err := restCheckQuery(c); err != nil {
			az.restFail(c, ctx, rt, call, restRefuse(err))
			return
		}
		for _, p := range rt.params {
			v := middleware.NormalizeName(c.Param(p.name))
			if err := checkNames(p.kind, v); err != nil {
				az.restFail(c, ctx, rt, call, restRefuse(err))
				return
			}
			call.args = append(call.args, v)
		}
		if rt.list {
			if call.page, err = restParsePage(c); err != nil {
				az.restFail(c, ctx, rt, call, restRefuse(err))
				return
			}
		}
		if rt.stream != nil {
			az.restStream(c, ctx, rt, call)
			return
		}
		status, message, data, err := rt.run(call)
		if err != nil {
			az.restFail(c, ctx, rt, call, err)
			return
		}
		middleware.Respond(c, status, message, data)
	}
}

// restFail writes the error envelope for err (its status from statusOf),
// audits 4xx refusals the operation did not audit itself, and logs 5xx.
func (az *Authz) restFail(c *gin.Context, ctx context.Context, rt restRoute, call *restCall, err error) {
	status, reason := statusOf(err)
	var own restRefusal
	ownRefusal := errors.As(err, &own)
	if status < 500 && (ownRefusal || !rt.write) {
		fp := ""
		if call != nil {
			fp = call.cl.fingerprint
		}
		az.auditRefusal(ctx, fp, rt.action, restResource(rt, call), err)
	}
	detail := reason
	switch status {
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusInsufficientStorage, http.StatusUnprocessableEntity:
		// Our own texts: they name the field and the rule, never echo input.
		detail = err.Error()
	case http.StatusServiceUnavailable:
		az.log.LogAttrs(ctx, slog.LevelWarn, "rest: store unavailable",
			slog.String("action", rt.action), slog.String("request_id", middleware.RequestIDFrom(c)),
			slog.String("error", err.Error()))
	case http.StatusInternalServerError:
		az.log.LogAttrs(ctx, slog.LevelError, "rest: operation failed",
			slog.String("action", rt.action), slog.String("request_id", middleware.RequestIDFrom(c)),
			slog.String("error", err.Error()))
	}
	middleware.Fail(c, status, http.StatusText(status), detail)
}

// restResource names the target of a refused request in the audit log: the
// route's own resource when every parameter passed the naming rule,
// otherwise the route pattern, so that no rejected (possibly hostile or
// huge) input reaches the log.
func restResource(rt restRoute, call *restCall) string {
	if call != nil && rt.resource != nil && len(call.args) == len(rt.params) {
		return rt.resource(call)
	}
	return "route:" + rt.path
}

// restClientKeyAuth is middleware.ClientKeyAuth for one route, auditing its
// 401s under the route's action. On a closed admin plane it accepts the
// admin keys only. The refused request has no key we accept, so its record
// carries no client fingerprint: a stranger's key names no namespace, and
// its refusals share the budget of every keyless one.
func (az *Authz) restClientKeyAuth(rt restRoute) gin.HandlerFunc {
	return middleware.ClientKeyAuth(middleware.ClientKeyConfig{
		Accept: az.admins.accept(),
		OnRefused: func(c *gin.Context, reason string) {
			ctx := az.requestContext(c)
			az.auditRefusal(ctx, "", rt.action, "route:"+rt.path, fmt.Errorf("%w: %s", ErrInvalidClientKey, reason))
		},
	})
}

// restBodyLimit is middleware.BodyLimit that audits the requests it refuses up
// front (a declared length over the limit). Bodies that turn out too large
// while being read are refused, and audited, by the handler.
func (az *Authz) restBodyLimit(rt restRoute) gin.HandlerFunc {
	limit := middleware.DefaultBodyLimit
	inner := middleware.BodyLimit(limit)
	return func(c *gin.Context) {
		if c.Request.ContentLength <= limit {
			inner(c)
			return
		}
		inner(c)
		ctx := az.requestContext(c)
		fp := ""
		if key, ok := middleware.ClientKeyFrom(c); ok {
			if cl, err := az.Client(key); err == nil {
				fp = cl.fingerprint
			}
		}
		az.auditRefusal(ctx, fp, rt.action, "route:"+rt.path, errBodyTooLarge)
	}
}

// Entries of the list responses.
type (
	restNameEntry struct {
		Name string `json:"name"`
	}
	restUserEntry struct {
		User string `json:"user"`
	}
	restRoleEntry struct {
		Role string `json:"role"`
	}
)

// restResult is the data of GET permission, membership and has_permission.
type restResult struct {
	Result bool `json:"result"`
}

// restDeleted is the data of every DELETE.
type restDeleted struct {
	Deleted bool `json:"deleted"`
}

// restCreated answers a POST: 201 when it created something, 200 when it
// already existed.
func restCreated(ok bool, what string) (int, string) {
	if ok {
		return http.StatusCreated, what + " created"
	}
	return http.StatusOK, what + " already existed"
}

// restDeletedAnswer answers a DELETE; deleting what is absent is not an error.
func restDeletedAnswer(ok bool, what string) (int, string, any, error) {
	if ok {
		return http.StatusOK, what + " deleted", restDeleted{Deleted: true}, nil
	}
	return http.StatusOK, what + " not found; nothing deleted", restDeleted{Deleted: false}, nil
}

func restAsName(s string) restNameEntry { return restNameEntry{Name: s} }
func restAsUser(s string) restUserEntry { return restUserEntry{User: s} }
func restAsRole(s string) restRoleEntry { return restRoleEntry{Role: s} }
