package rest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/limits"
	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
)

// Config is what New needs.
type Config struct {
	// Host serves the handlers: clients, request contexts, refusal audit.
	Host Host
	// AcceptKey is middleware.ClientKeyConfig.Accept: nil accepts every
	// well-formed key (the open mode), else only the admin keys.
	AcceptKey func(string) bool
	// Log receives the store failures and aborted lists.
	Log *slog.Logger
	// MaxBatchOperations bounds POST /api/batch; a body with more is
	// refused as soon as the decoder sees one more.
	MaxBatchOperations int
	// MaxStreamOperations bounds POST /api/batch/stream (at least
	// MaxBatchOperations).
	MaxStreamOperations int
	// People, when set, lets persons in: a request without a client key
	// is the host's user's, authorised by the admin plane's permissions
	// in the host's namespace (see people.go).
	People People
	// Reads, when set, bounds the store-reading requests (every route
	// that is not a write) of one client in flight: AcquireWait is called
	// with the client's fingerprint (see readWait), and a refusal (a
	// *limits.Refused) is answered 429 with Retry-After.
	Reads *limits.InFlight
	// ReadsAll, when set, bounds the store-reading requests of all
	// clients running at once, shared fairly (limits.Shared): taken after
	// Reads, with the client's fingerprint; a refusal is answered 429
	// with Retry-After.
	ReadsAll *limits.Shared
}

// readWait is how long a read of a client with Config.Reads in flight
// waits for one of them to end before it is refused: a client sending
// more at once is held to the pace of its own reads, instead of making the
// process answer thousands of refusals a second.
const readWait = 100 * time.Millisecond

// API is the REST admin API, ready to register.
type API struct {
	host      Host
	accept    func(string) bool
	log       *slog.Logger
	maxBatch  int
	maxStream int
	reads     *limits.InFlight
	readsAll  *limits.Shared
	people    People
}

// New returns the REST admin API of cfg.
func New(cfg Config) (*API, error) {
	if cfg.Host == nil || cfg.MaxBatchOperations < 1 {
		return nil, errors.New("rest: a Host and MaxBatchOperations are required")
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &API{host: cfg.Host, accept: cfg.AcceptKey, log: log, maxBatch: cfg.MaxBatchOperations, maxStream: max(cfg.MaxStreamOperations, cfg.MaxBatchOperations), reads: cfg.Reads, readsAll: cfg.ReadsAll, people: cfg.People}, nil
}

// Route is one route of the API with its whole chain: path-parameter
// decoding, the client-key check, the body limit and the handler.
type Route struct {
	Method, Path string
	Handlers     []gin.HandlerFunc
}

// Routes are every route of the API, GET /api/whoami and POST /api/batch
// last, for the
// caller to register under its own middleware (request id, log, recovery,
// CORS).
func (a *API) Routes() []Route {
	var out []Route
	for _, rt := range routes() {
		out = append(out, Route{Method: rt.method, Path: rt.path, Handlers: []gin.HandlerFunc{
			middleware.DecodePathParams(), a.authenticate(rt), a.bodyLimit(rt), a.handler(rt),
		}})
	}
	out = append(out, Route{Method: whoamiRoute.method, Path: whoamiRoute.path, Handlers: a.whoamiHandlers()})
	out = append(out, Route{Method: batchRoute.method, Path: batchRoute.path, Handlers: a.batchHandlers()})
	return append(out, Route{Method: batchStreamRoute.method, Path: batchStreamRoute.path, Handlers: a.batchStreamHandlers()})
}

// Param is a URL parameter of a route and the kind of name it holds.
type Param struct{ Name, Kind string }

// RouteInfo describes a client-key route: its method, path and URL
// parameters, and the query parameters it accepts.
type RouteInfo struct {
	Method, Path string
	Params       []Param
	Query        []string
}

// Table lists the client-key routes in the order of DESIGN.md's table,
// GET /api/audit last (POST /api/batch, which takes a body and no
// parameters, apart).
func Table() []RouteInfo {
	var out []RouteInfo
	for _, rt := range routes() {
		info := RouteInfo{Method: rt.method, Path: rt.path, Query: rt.acceptedQuery()}
		for _, p := range rt.params {
			info.Params = append(info.Params, Param{Name: p.name, Kind: p.kind})
		}
		out = append(out, info)
	}
	return out
}

// routes are the client-key routes, in the order of DESIGN.md's table.
func routes() []route {
	var out []route
	out = append(out, roleRoutes()...)
	out = append(out, getRoleRoute(), putRoleRoute())
	out = append(out, grantRoutes()...)
	out = append(out, queryRoutes()...)
	out = append(out, inheritRoutes()...)
	out = append(out, inheritedByRoute())
	out = append(out, scopedMembershipsRoute())
	out = append(out, revisionRoute())
	out = append(out, renameRoute())
	out = append(out, usersRoute())
	out = append(out, whereCanRoute(), checkRoute())
	out = append(out, changesRoute())
	return withTotals(append(out, auditRoute()))
}

// route is one client-key route of the REST admin API: the library
// operation it runs and how its URL parameters are checked.
type route struct {
	method, path string
	// action is the library operation, as the audit log names it.
	action string
	// params are the URL parameters, each checked with the naming rule
	// before anything else runs (also for reads: the library answers some
	// reads of impossible names with "not found", the REST API with 400).
	params []param
	// query names the query parameters the route reads besides ?limit and
	// ?after of a list; any other is refused with 400.
	query []string
	// write: the operation audits its own outcome, refusals included, in
	// its transaction; the REST layer audits only what it refuses itself.
	write bool
	// list: the route accepts ?limit=N&after=<name>.
	list bool
	// read marks a POST that only reads (POST /api/check): like a GET it
	// takes ?at_least and answers no revision.
	read bool
	// maxBody bounds the request body; 0 is middleware.DefaultBodyLimit.
	maxBody int64
	// gated: in open mode the body is read through Host.CheckGate, at
	// the least pace (POST /api/check).
	gated bool
	// resource names the target in the audit log, from the checked
	// arguments; never the plaintext of a name the store keeps encrypted.
	resource func(call *request) string
	// run performs the operation and returns the status, message and data
	// of the success envelope.
	run func(call *request) (int, string, any, error)
	// stream, instead of run, writes a list entry by entry (API.stream).
	stream func(call *request, w *listWriter) error
}

// param is a URL parameter and the kind of name it holds, for error
// messages ("role", "user", "permission").
type param struct{ name, kind string }

// request is one request to a route, after the checks.
type request struct {
	c    *gin.Context
	ctx  context.Context
	cl   Caller
	args []string // the checked URL parameters, in route.params order
	argv [2]string
	page pageWindow
	// counting: the list is read whole for ?total (see countTotal).
	counting bool
	// revision is the token of the revision a write made (see wrote), for
	// the Rolegate-Revision header of its answer.
	revision string
	// slot is a store-reading request's slot among all clients' reads
	// (nil: none).
	slot *readSlot
	// gate bounds the body's bytes in open mode (routes with gated set);
	// nil otherwise.
	gate CheckGate
}

// refusal marks an error the REST layer produced itself (a bad body,
// say) rather than the library, so that it is audited even on a write
// route.
type refusal struct{ err error }

func (r refusal) Error() string { return r.err.Error() }
func (r refusal) Unwrap() error { return r.err }

// refuse wraps err as the REST layer's own refusal.
func refuse(err error) error { return refusal{err: err} }

// handler builds the gin handler of a route. ClientKeyAuth runs before it,
// so the client key is present and valid.
func (a *API) handler(rt route) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := a.host.RequestContext(c)
		cl, user, err := a.caller(c)
		if err != nil {
			// Unreachable behind authenticate; refuse rather than guess.
			a.fail(c, ctx, rt, nil, refuse(err))
			return
		}
		call := &request{c: c, ctx: ctx, cl: cl}
		call.args = call.argv[:0]
		fine := false
		if user != "" {
			if fine, err = allowPerson(ctx, cl, rt, user); err != nil {
				a.fail(c, ctx, rt, call, err)
				return
			}
		}
		if a.reads != nil && !rt.write {
			release, err := a.reads.AcquireWait(ctx, cl.Fingerprint(), readWait)
			if err != nil {
				a.fail(c, ctx, rt, call, err)
				return
			}
			defer release()
			if call.slot, err = takeReadSlot(ctx, a.readsAll, cl.Fingerprint()); err != nil {
				a.fail(c, ctx, rt, call, err)
				return
			}
			defer call.slot.pause()
		}
		if rt.gated {
			if call.gate = a.host.CheckGate(); call.gate != nil {
				defer call.gate.Release()
			}
		}
		if err := checkQuery(c, rt); err != nil {
			a.fail(c, ctx, rt, call, refuse(err))
			return
		}
		if _, err := ChangeReason(c); err != nil {
			a.fail(c, ctx, rt, call, refuse(err))
			return
		}
		for _, p := range rt.params {
			v := middleware.NormalizeName(c.Param(p.name))
			if err := rbac.CheckNames(p.kind, v); err != nil {
				a.fail(c, ctx, rt, call, refuse(err))
				return
			}
			call.args = append(call.args, v)
		}
		if fine {
			if err := delegated(call, user); err != nil {
				a.fail(c, ctx, rt, call, err)
				return
			}
		}
		if rt.list {
			if call.page, err = parsePage(c); err != nil {
				a.fail(c, ctx, rt, call, refuse(err))
				return
			}
		}
		if rt.reads() {
			if err := atLeast(c, ctx, cl); err != nil {
				a.fail(c, ctx, rt, call, refuse(err))
				return
			}
		}
		if rt.stream != nil {
			a.streamList(c, ctx, rt, call)
			return
		}
		status, message, data, err := rt.run(call)
		if err != nil {
			a.fail(c, ctx, rt, call, err)
			return
		}
		if call.revision != "" {
			c.Header(RevisionHeader, call.revision) // before the body
		}
		if r, ok := data.(result); ok && status == http.StatusOK && message == resultMessage {
			resultEnvelopes[btoi(r.Result)].Respond(c) // the checks' answer, without reflection
			return
		}
		middleware.Respond(c, status, message, data)
	}
}

// fail writes the error envelope for err (its status from StatusOf),
// audits 4xx refusals the operation did not audit itself, and logs 5xx.
func (a *API) fail(c *gin.Context, ctx context.Context, rt route, call *request, err error) {
	status, reason := StatusOf(err)
	var own refusal
	ownRefusal := errors.As(err, &own)
	if status < 500 && (ownRefusal || !rt.write) && (call == nil || !call.cl.HoldsNothing(ctx)) {
		fp := ""
		if call != nil {
			fp = call.cl.Fingerprint()
		}
		a.host.AuditRefusal(ctx, fp, rt.action, resourceOf(rt, call), err)
	}
	detail := reason
	switch status {
	case http.StatusBadRequest, http.StatusForbidden, http.StatusGone, http.StatusRequestEntityTooLarge, http.StatusInsufficientStorage, http.StatusUnprocessableEntity:
		// Our own texts: they name the field and the rule, never echo input.
		detail = err.Error()
	case http.StatusTooManyRequests:
		detail = err.Error() // names the setting
		setRetryAfter(c, err)
	case http.StatusServiceUnavailable:
		a.log.LogAttrs(ctx, slog.LevelWarn, "rest: store unavailable",
			slog.String("action", rt.action), slog.String("request_id", middleware.RequestIDFrom(c)),
			slog.String("error", err.Error()))
	case http.StatusInternalServerError:
		a.log.LogAttrs(ctx, slog.LevelError, "rest: operation failed",
			slog.String("action", rt.action), slog.String("request_id", middleware.RequestIDFrom(c)),
			slog.String("error", err.Error()))
	}
	middleware.Fail(c, status, http.StatusText(status), detail)
}

// resourceOf names the target of a refused request in the audit log: the
// route's own resource when every parameter passed the naming rule,
// otherwise the route pattern, so that no rejected (possibly hostile or
// huge) input reaches the log.
func resourceOf(rt route, call *request) string {
	if call != nil && rt.resource != nil && len(call.args) == len(rt.params) {
		return rt.resource(call)
	}
	return "route:" + rt.path
}

// clientKeyAuth is middleware.ClientKeyAuth for one route, auditing its
// 401s under the route's action. On a closed admin plane it accepts the
// admin keys only. The refused request has no key we accept, so its record
// carries no client fingerprint: a stranger's key names no namespace, and
// its refusals share the budget of every keyless one.
func (a *API) clientKeyAuth(rt route) gin.HandlerFunc {
	return middleware.ClientKeyAuth(middleware.ClientKeyConfig{
		Accept: a.accept,
		OnRefused: func(c *gin.Context, reason string) {
			ctx := a.host.RequestContext(c)
			a.host.AuditRefusal(ctx, "", rt.action, "route:"+rt.path, fmt.Errorf("%w: %s", rbac.ErrInvalidClientKey, reason))
		},
	})
}

// bodyLimit is middleware.BodyLimit that audits the requests it refuses up
// front (a declared length over the limit). Bodies that turn out too large
// while being read are refused, and audited, by the handler.
func (a *API) bodyLimit(rt route) gin.HandlerFunc {
	limit := middleware.DefaultBodyLimit
	if rt.maxBody > 0 {
		limit = rt.maxBody
	}
	inner := middleware.BodyLimit(limit)
	return func(c *gin.Context) {
		if c.Request.ContentLength <= limit {
			inner(c)
			return
		}
		inner(c)
		ctx := a.host.RequestContext(c)
		fp := ""
		if cl, _, err := a.caller(c); err == nil {
			if cl.HoldsNothing(ctx) {
				return
			}
			fp = cl.Fingerprint()
		}
		a.host.AuditRefusal(ctx, fp, rt.action, "route:"+rt.path, errBodyTooLarge)
	}
}

// Entries of the list responses.
type (
	nameEntry struct {
		Name string `json:"name"`
	}
	userEntry struct {
		User string `json:"user"`
	}
	roleEntry struct {
		Role string `json:"role"`
	}
)

// result is the data of GET permission, membership and has_permission.
type result struct {
	Result bool `json:"result"`
}

// resultMessage is the message of a result.
const resultMessage = "ok"

// resultEnvelopes are the success envelopes of a result, false and true,
// built once.
var resultEnvelopes = [2]middleware.FixedEnvelope{
	middleware.MustFixedEnvelope(http.StatusOK, resultMessage, result{Result: false}),
	middleware.MustFixedEnvelope(http.StatusOK, resultMessage, result{Result: true}),
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// deleted is the data of every DELETE.
type deleted struct {
	Deleted bool `json:"deleted"`
}

// created answers a POST: 201 when it created something, 200 when it
// already existed.
func created(ok bool, what string) (int, string) {
	if ok {
		return http.StatusCreated, what + " created"
	}
	return http.StatusOK, what + " already existed"
}

// deletedAnswer answers a DELETE; deleting what is absent is not an error.
func deletedAnswer(ok bool, what string) (int, string, any, error) {
	if ok {
		return http.StatusOK, what + " deleted", deleted{Deleted: true}, nil
	}
	return http.StatusOK, what + " not found; nothing deleted", deleted{Deleted: false}, nil
}

func asName(s string) nameEntry { return nameEntry{Name: s} }
func asUser(s string) userEntry { return userEntry{User: s} }
func asRole(s string) roleEntry { return roleEntry{Role: s} }
