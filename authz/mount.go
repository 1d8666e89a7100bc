package authz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz/internal/rest"
	"github.com/rolegate/rolegate/console"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/samples"
	"github.com/rolegate/rolegate/storage"
)

// Mount registers rolegate's routes on r, which may be the host's
// *gin.Engine or any group (under r.Group("/auth") the routes are
// /auth/ping, /auth/api/roles, ...):
//
//   - GET /ping: health, with a short check of the store (503 when it
//     cannot be reached);
//   - the REST admin API under /api (roles, role, permission, membership,
//     has_permission, user_permissions, user_roles, role_permissions,
//     members, which_roles_can, which_users_can) and GET /api/audit, each
//     taking "Authorization: Bearer <client key>";
//   - GET /openapi.json: the OpenAPI 3 document of all of these;
//   - the login routes (/api/v1/...) when OAuth providers are configured;
//   - the sample routes (GET /api/ping, GET /api/test) when their
//     credentials are configured; otherwise one Info line says how to
//     enable them;
//   - the admin console under /console/ (see ConsoleMode);
//   - OPTIONS on each of these paths when CORS is enabled, for preflights.
//
// The host's router is left alone: Mount adds no middleware to it (no
// r.Use), and rolegate's own chain (a request span with a TracerProvider,
// request id, request log, panic recovery, CORS, a 64 KiB body limit, and
// the client-key check on the RBAC routes only) runs on rolegate's routes
// alone. The host's 404 and 405 handling stay the host's; to answer
// unknown paths under /api and /ping with rolegate's error envelope, opt
// in:
//
//	engine.NoRoute(az.NotFoundHandler())
//	engine.HandleMethodNotAllowed = true
//	engine.NoMethod(az.MethodNotAllowedHandler())
//
// Names travel in the path, and gin matches routes on the decoded path by
// default, so a name holding an encoded slash ("a%2Fb") would split into
// two segments and reach no route (404). Set
//
//	engine.UseRawPath = true
//	engine.UnescapePathValues = true
//
// so that routes match on the encoded path and names arrive decoded: such
// a name then reaches the naming rule and is refused with 400. Either way
// rolegate decodes each name as a path segment itself
// (middleware.DecodePathParams): "+" is a plus, never a space, whatever
// the escaping of the rest of the path. Gin also
// redirects a path with an extra trailing slash ("/api/role//" answers 307
// with no envelope); set engine.RedirectTrailingSlash = false for a 404
// envelope instead.
//
// Mount does not call gin.SetMode, which is global and the host's choice.
// It returns an error, and
// registers nothing, when the CORS configuration is bad; a route that
// conflicts with one the host registered already is reported as an error
// too (gin panics on it), though routes registered before the conflict
// stay.
func (az *Authz) Mount(r gin.IRouter) (err error) {
	if r == nil {
		return errors.New("authz: Mount: nil router")
	}
	if az.closed.Load() {
		return ErrClosed
	}
	cors, err := middleware.CORS(middleware.CORSConfig{Enabled: !az.cfg.DisableCORS, Origins: az.cfg.CORSOrigins})
	if err != nil {
		return fmt.Errorf("authz: Mount: %w (AUTH_ALLOW_CORS, AUTH_CORS_ORIGINS)", err)
	}
	basePath := "/"
	if b, ok := r.(interface{ BasePath() string }); ok {
		basePath = b.BasePath()
	}
	var omit []string
	if az.login == nil {
		omit = appendPaths(omit, loginPaths)
	}
	if !az.cfg.Samples.Enabled() {
		omit = appendPaths(omit, samplePaths)
	}
	if !az.metrics.serves() {
		omit = append(omit, "/metrics")
	}
	doc, err := rest.OpenAPIDocument(basePath, omit, !az.cfg.DisableCORS)
	if err != nil {
		return fmt.Errorf("authz: Mount: %w", err)
	}
	api, err := az.restAPI()
	if err != nil {
		return fmt.Errorf("authz: Mount: %w", err)
	}
	if e, ok := r.(*gin.Engine); ok {
		if err := az.refuseShadowing(e); err != nil {
			return err
		}
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("authz: Mount: %v (a route of rolegate's is already registered by the host: mount it under a group, e.g. r.Group(\"/auth\"))", p)
		}
	}()

	base := r.Group("", az.ownChain(cors)...)
	// The RBAC routes limit bodies themselves (and audit what they
	// refuse); every other route of ours gets the plain limit.
	limited := base.Group("", middleware.BodyLimit(middleware.DefaultBodyLimit))
	paths := map[string][]string{} // path -> methods, for the OPTIONS routes
	add := func(g *gin.RouterGroup, method, path string, h ...gin.HandlerFunc) {
		g.Handle(method, path, h...)
		paths[path] = append(paths[path], method)
	}
	add(limited, http.MethodGet, "/ping", az.restPing)
	add(limited, http.MethodGet, "/openapi.json", func(c *gin.Context) { c.Data(http.StatusOK, "application/json", doc) })
	if az.metrics.serves() {
		add(limited, http.MethodGet, "/metrics", az.metricsHandler())
	}
	for _, rt := range api.Routes() {
		add(base, rt.Method, rt.Path, rt.Handlers...)
	}
	if az.login != nil {
		az.login.Register(limited)
		for _, p := range loginPaths {
			paths[p.path] = append(paths[p.path], p.method)
		}
	}
	st := az.restState()
	if az.cfg.Samples.Enabled() {
		if err := samples.Register(limited, az.cfg.Samples); err != nil {
			return fmt.Errorf("authz: Mount: %w", err)
		}
		for _, p := range samplePaths {
			paths[p.path] = append(paths[p.path], p.method)
		}
	} else if st.hintOnce() {
		az.log.Info("sample routes GET " + path.Join(basePath, "api/ping") + " and GET " + path.Join(basePath, "api/test") +
			" are disabled; set AUTH_SAMPLES_USERNAME, AUTH_SAMPLES_PASSWORD and AUTH_SAMPLES_API_KEY to enable them")
	}
	if !az.cfg.DisableCORS {
		for path, methods := range paths {
			allow := strings.Join(append(slices.Sorted(slices.Values(methods)), http.MethodOptions), ", ")
			base.OPTIONS(path, func(c *gin.Context) {
				// A preflight from an allowed origin was answered by the CORS
				// middleware; this is a plain OPTIONS request.
				c.Header("Allow", allow)
				c.Status(http.StatusNoContent)
			})
		}
	}
	if az.ConsoleEnabled() {
		az.mountConsole(limited, basePath)
	}
	st.addPrefix(basePath)
	return nil
}

// refuseShadowing stops a Mount on the host's engine that would register a
// route the host already has (its own GET /api/ping, say, with the sample
// credentials set), before anything is registered, naming the route.
func (az *Authz) refuseShadowing(e *gin.Engine) error {
	planned := []restMethodPath{{http.MethodGet, "/ping"}, {http.MethodGet, "/openapi.json"}}
	if az.metrics.serves() {
		planned = append(planned, restMethodPath{http.MethodGet, "/metrics"})
	}
	for _, rt := range rest.Table() {
		planned = append(planned, restMethodPath{rt.Method, rt.Path})
	}
	if az.login != nil {
		planned = append(planned, loginPaths...)
	}
	if az.cfg.Samples.Enabled() {
		planned = append(planned, samplePaths...)
	}
	if az.ConsoleEnabled() {
		planned = append(planned, consolePaths...)
	}
	param := regexp.MustCompile(`[:*][A-Za-z_]+`)
	have := map[string]bool{}
	for _, r := range e.Routes() {
		have[r.Method+" "+param.ReplaceAllString(r.Path, ":")] = true
	}
	for _, p := range planned {
		gp := param.ReplaceAllString(strings.NewReplacer("{", ":", "}", "").Replace(p.path), ":")
		if have[p.method+" "+gp] {
			return fmt.Errorf("authz: Mount: the host already has %s %s, which rolegate would shadow; mount rolegate under a group (r.Group(\"/auth\")) or unset what enables the route", p.method, p.path)
		}
	}
	return nil
}

// ownChain is the middleware of every route Mount registers, outermost
// first: the request span (with a TracerProvider), the request id (which
// the log, the recovery and the audit records carry), the request log (which sees the final status, 500 after a
// recovered panic included), panic recovery, and CORS.
func (az *Authz) ownChain(cors gin.HandlerFunc) []gin.HandlerFunc {
	chain := []gin.HandlerFunc{middleware.RequestID(), middleware.Logger(az.log), middleware.RecoveryWithLogger(az.log), cors}
	if t := az.traceRequests(); t != nil {
		chain = append([]gin.HandlerFunc{t}, chain...) // outermost: the span sees the final status
	}
	if az.metrics != nil {
		// Outermost, so that it sees the final status of every request.
		chain = append([]gin.HandlerFunc{az.metrics.countRequests}, chain...)
	}
	return chain
}

type restMethodPath struct{ method, path string }

func appendPaths(out []string, mps []restMethodPath) []string {
	for _, p := range mps {
		out = append(out, p.path)
	}
	return out
}

// loginPaths and samplePaths are the routes loginx.Service.Register and
// samples.Register add; Mount lists them for the OPTIONS routes, and the
// OpenAPI test catches a route added there but not here.
var (
	loginPaths = []restMethodPath{
		{http.MethodPost, "/api/v1/login"}, {http.MethodPost, "/api/v1/token/refresh"},
		{http.MethodPost, "/api/v1/logout"}, {http.MethodGet, "/api/v1/me"},
	}
	samplePaths = []restMethodPath{{http.MethodGet, "/api/ping"}, {http.MethodGet, "/api/test"}}
)

// NotFoundHandler answers unknown paths under rolegate's mount points (/api,
// /ping and /openapi.json, below the prefix Mount was given) with 404 and
// the error envelope, and leaves every other path to the host: it writes
// nothing there, so the next handler of the chain runs, or, when there is
// none, gin's default 404. Opt in with engine.NoRoute(az.NotFoundHandler())
// or, keeping your own handler for your paths,
// engine.NoRoute(az.NotFoundHandler(), yours). Before Mount is called it
// covers the paths of a mount at the root.
func (az *Authz) NotFoundHandler() gin.HandlerFunc {
	return az.underMount(middleware.NotFound())
}

// MethodNotAllowedHandler is NotFoundHandler for 405: set it with
// engine.NoMethod and turn on engine.HandleMethodNotAllowed (gin leaves it
// off by default, and then answers a wrong method with 404).
func (az *Authz) MethodNotAllowedHandler() gin.HandlerFunc {
	return az.underMount(middleware.MethodNotAllowed())
}

func (az *Authz) underMount(inside gin.HandlerFunc) gin.HandlerFunc {
	st := az.restState()
	return func(c *gin.Context) {
		if st.owns(c.Request.URL.Path) {
			inside(c)
		}
	}
}

// restMountState is what Mount remembers about one Authz: where its routes
// are, for the opt-in 404 and 405 handlers, and whether the samples hint
// was logged.
type restMountState struct {
	mu       sync.Mutex
	prefixes []string // base paths Mount was called with, without a trailing "/"
	hinted   bool
}

func (az *Authz) restState() *restMountState { return &az.mount }

func (st *restMountState) hintOnce() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	first := !st.hinted
	st.hinted = true
	return first
}

func (st *restMountState) addPrefix(basePath string) {
	p := strings.TrimRight(basePath, "/")
	st.mu.Lock()
	defer st.mu.Unlock()
	if !slices.Contains(st.prefixes, p) {
		st.prefixes = append(st.prefixes, p)
	}
}

// owns reports whether path lies under one of rolegate's mount points.
func (st *restMountState) owns(path string) bool {
	st.mu.Lock()
	prefixes := st.prefixes
	st.mu.Unlock()
	if len(prefixes) == 0 {
		prefixes = []string{""}
	}
	for _, p := range prefixes {
		for _, own := range [...]string{"/api", "/ping", "/openapi.json"} {
			if underPath(path, p+own) {
				return true
			}
		}
	}
	return false
}

// underPath matches whole segments: "/api" covers "/api" and "/api/x", not
// "/apix".
func underPath(path, prefix string) bool {
	return strings.HasPrefix(path, prefix) && (len(path) == len(prefix) || path[len(prefix)] == '/')
}

// Limits of the REST API, defined with it in authz/internal/rest.
const (
	// MaxPageLimit is the largest page of a list endpoint and of GET
	// /api/audit.
	MaxPageLimit = rest.MaxPageLimit
	// DefaultAuditLimit is the page size of GET /api/audit without ?limit.
	DefaultAuditLimit = rest.DefaultAuditLimit
	// MaxBatchBodyBytes bounds the body of POST /api/batch: a batch of
	// MaxBatchOperations fits, while one request still cannot hold more
	// than this much memory.
	MaxBatchBodyBytes = rest.MaxBatchBodyBytes
	// MaxChecks is the most checks POST /api/check answers in one request,
	// and MaxCheckBodyBytes bounds its body.
	MaxChecks         = rest.MaxChecks
	MaxCheckBodyBytes = rest.MaxCheckBodyBytes
)

// refusalReason is the short reason the audit log, a span and the decision
// log record of a refusal (rest.StatusOf's).
func refusalReason(err error) string { return rest.Reason(err) }

// restAPI is the REST admin API served by az.
func (az *Authz) restAPI() (*rest.API, error) {
	return rest.New(rest.Config{
		Host: restHost{az}, AcceptKey: az.admins.accept(), Log: az.log, MaxBatchOperations: MaxBatchOperations, MaxStreamOperations: MaxStreamOperations,
		Reads: az.readGate, ReadsAll: az.readsAll, People: az.restPeople(),
	})
}

// restHost is what the REST layer asks of Authz.
type restHost struct{ az *Authz }

var _ rest.Host = restHost{}

func (h restHost) Caller(key string) (rest.Caller, error) {
	// ClientKeyAuth parsed it (lower-case, a UUID v4); without it there
	// is no key, and no client.
	if key == "" {
		return nil, ErrInvalidClientKey
	}
	return restCaller{h.az.client(key)}, nil
}

func (h restHost) RequestContext(c *gin.Context) context.Context { return h.az.requestContext(c) }

func (h restHost) AdmitBatch(cl rest.Caller) (rest.BatchGate, error) {
	return h.az.admitBatch(cl.(restCaller).Client)
}

func (h restHost) CheckGate() rest.CheckGate {
	if h.az.checkBytes == nil {
		return nil
	}
	return &checkGate{bytes: h.az.checkBytes}
}

func (h restHost) AuditRefusal(ctx context.Context, fingerprint, action, resource string, err error) {
	h.az.auditRefusal(ctx, fingerprint, action, resource, err)
}

// restCaller is the Client of a REST request: the library API itself,
// with the audit names and the batch decoding the REST layer needs.
type restCaller struct{ *Client }

var _ rest.Caller = restCaller{}

func (c restCaller) Fingerprint() string                   { return c.fingerprint }
func (c restCaller) HoldsNothing(ctx context.Context) bool { return c.holdsNothing(ctx) }
func (c restCaller) KeyActor() string                      { return storage.KeyActor(c.scope.NS) }
func (c restCaller) HostNamespace() bool {
	return c.az.host != nil && c.az.host.scope.NS == c.scope.NS
}
func (c restCaller) ScopesOf(ctx context.Context, user string, limit int) ([]string, error) {
	return readValue(ctx, c.Client, func(ctx context.Context, db bun.IDB) ([]string, error) {
		return storage.ScopesOfUser(ctx, db, c.scope, user, limit)
	})
}
func (c restCaller) AuditUser(user string) string            { return c.scope.AuditUser(user) }
func (c restCaller) AuditPermission(name string) string      { return c.scope.AuditPermission(name) }
func (c restCaller) GrantResource(role, name string) string  { return c.grantResource(role, name) }
func (c restCaller) MemberResource(user, role string) string { return c.memberResource(user, role) }
func (c restCaller) InheritResource(role, parent string) string {
	return inheritResource(role, parent)
}
func (c restCaller) RenameResource(user, newName string) string {
	return c.renameResource(user, newName)
}
func (c restCaller) CheckDescription(d string) error { return checkDescription(d) }
func (c restCaller) WhereCanScopes(ctx context.Context, user, permission string) (bool, []string, error) {
	return c.whereCan(ctx, user, permission)
}

// Writes is the client's Writes, as the REST layer's interface names it
// (the embedded Client's returns the concrete type).
func (c restCaller) Writes() rest.Writer { return c.Client.Writes() }

// RunBatch decodes each operation as Operation (no field it does not
// know) and runs them with Client.Writes().Batch.
func (c restCaller) RunBatch(ctx context.Context, raw []json.RawMessage) ([]rest.BatchResult, string, error) {
	ops := make([]Operation, len(raw))
	for i, r := range raw {
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ops[i]); err != nil {
			return nil, "", fmt.Errorf("%w: operation %d", rest.ErrMalformedOperation, i)
		}
	}
	results, w, err := c.Client.Writes().Batch(ctx, ops)
	if err != nil {
		var be *BatchError
		if errors.As(err, &be) {
			return nil, "", &rest.OperationError{Detail: be.Error(), Err: err}
		}
		return nil, "", err
	}
	out := make([]rest.BatchResult, len(results))
	for i, r := range results {
		out[i] = rest.BatchResult{Op: r.Op, Result: r.Result}
	}
	return out, w.Revision, nil
}

// RunBatchStream decodes each operation as RunBatch does, and runs them
// with Client.batchStream.
func (c restCaller) RunBatchStream(ctx context.Context, s rest.OperationStream) (map[string]int, string, error) {
	ops := func(yield func(Operation) error) error {
		i := 0
		return s.Each(func(raw json.RawMessage) error {
			var op Operation
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&op); err != nil {
				return fmt.Errorf("%w: operation %d", rest.ErrMalformedOperation, i)
			}
			i++
			return yield(normalizeOperation(op))
		})
	}
	counts, done, err := c.Client.batchStream(ctx, ops)
	w, err := c.Client.token(ctx, done, err)
	if err != nil {
		var be *BatchError
		if errors.As(err, &be) {
			return nil, "", &rest.OperationError{Detail: be.Error(), Err: err}
		}
		return nil, "", err
	}
	return counts, w.Revision, nil
}

// ConsoleMode says whether Mount serves the admin console under
// <mount>/console/. The zero value, ConsoleAuto, serves it when admin keys
// (ClientKey or ClientKeys) are configured: in open mode any UUID v4 is a
// namespace, and a console open to anybody is better asked for.
type ConsoleMode int

const (
	// ConsoleAuto serves the console when admin keys are configured.
	ConsoleAuto ConsoleMode = iota
	// ConsoleOn serves the console (AUTH_ENABLE_CONSOLE=true).
	ConsoleOn
	// ConsoleOff never serves it (AUTH_ENABLE_CONSOLE=false).
	ConsoleOff
)

// ConsoleEnabled reports whether Mount serves the admin console.
func (az *Authz) ConsoleEnabled() bool {
	switch az.cfg.Console {
	case ConsoleOn:
		return true
	case ConsoleOff:
		return false
	}
	return !az.open()
}

// consolePaths are the routes of the console, for refuseShadowing.
var consolePaths = []restMethodPath{
	{http.MethodGet, "/console"}, {http.MethodGet, "/console/*filepath"},
}

// mountConsole registers the console under g: <base>/console redirects to
// <base>/console/, which serves the page; the rest are its assets.
func (az *Authz) mountConsole(g gin.IRouter, basePath string) {
	prefix := path.Join(basePath, "console")
	files := http.StripPrefix(prefix, console.Handler())
	serve := gin.WrapH(files)
	g.GET("/console", func(c *gin.Context) { c.Redirect(http.StatusMovedPermanently, prefix+"/") })
	g.GET("/console/*filepath", serve)
	g.HEAD("/console/*filepath", serve)
	az.log.Info("admin console enabled", "path", prefix+"/")
}
