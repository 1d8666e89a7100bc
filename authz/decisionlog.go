package authz

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/observe"
	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage"
)

// Decisions you can see: every guard built by the Require... constructors
// reports its decisions to a guardObserver,
// which counts them per route (rolegate_guard_decisions_total), writes the
// sampled decision log (AUTH_DECISION_LOG, AUTH_DECISION_LOG_SAMPLE) and
// records denials in the audit log (AUTH_DECISION_AUDIT=denied, within
// the refusal budget). With all of these off, guards get no observer and
// run exactly as before.

// The settings compiled, their sampling and their rate bounds are in
// authz/internal/observe; this file is the glue to the guards, the
// client's names and the audit log.

// Values of DecisionLog and DecisionAudit.
const (
	decisionOff    = observe.DecisionOff
	decisionDenied = observe.DecisionDenied
	decisionAll    = observe.DecisionAll
)

// decisionLog is the compiled DecisionLog, DecisionLogSample,
// DecisionLogPerSecond and DecisionAudit.
type decisionLog = observe.DecisionLog

func newDecisionLog(cfg Config) decisionLog {
	return observe.NewDecisionLog(cfg.DecisionLog, cfg.DecisionLogSample, cfg.DecisionLogPerSecond, cfg.DecisionAudit)
}

// observabilityProblems are the bad settings of the decision log.
func (c Config) observabilityProblems() []error {
	return observe.DecisionLogProblems(c.DecisionLog, c.DecisionLogSample, c.DecisionAudit)
}

// guardObserver watches one guard. client is the guard's checker when it
// is one of ours (nil for a host's own Checker: no granting path, no
// audit record then).
type guardObserver struct {
	az     *Authz
	client *Client
	// last is the route this guard saw last with its counters: a guard
	// usually serves one route, so the counters are found with one string
	// comparison, not a lookup by label.
	last atomic.Pointer[observe.RouteDecisions]
}

// guardObserver returns the observer for a guard checking with checker,
// or nil when neither metrics nor the decision log nor its audit is on.
func (az *Authz) guardObserver(checker middleware.Checker) middleware.GuardObserver {
	if az.metrics == nil && !az.decisions.On() {
		return nil
	}
	o := &guardObserver{az: az}
	o.client, _ = checker.(*Client)
	return o
}

// GuardDecided counts the decision and, when chosen, logs and audits it.
// An allowed request with the decision log off or at "denied" costs one
// comparison and one atomic add.
func (o *guardObserver) GuardDecided(c *gin.Context, d middleware.GuardDecision) {
	if m := o.az.metrics; m != nil {
		route := c.FullPath()
		rd := o.last.Load()
		if rd == nil || rd.Route != route {
			rd = m.routeCounters(route)
			o.last.Store(rd)
		}
		rd.By[d.Outcome].Inc()
		if d.By == middleware.DecidedByPredicate {
			rd.ByPredicate[d.Outcome].Inc()
		}
	}
	dl := o.az.decisions
	if d.Outcome == middleware.GuardAllowed && !dl.LogAllowed || !dl.On() {
		return
	}
	if dl.AuditDenied && d.Outcome == middleware.GuardDenied && o.client != nil {
		o.audit(c, d)
	}
	if dl.Chosen(d.Outcome) {
		ok, n, warn := dl.Take(d.Outcome)
		if !ok {
			o.az.metrics.decisionLogSkipped()
			if warn {
				o.az.log.Warn("decision log: records dropped, over AUTH_DECISION_LOG_PER_SECOND",
					"outcome", d.Outcome.String(), "dropped", n, "per_second", int(dl.Limit[d.Outcome].Limit()))
			}
			return
		}
		o.log(c, d, n)
	}
}

// log writes one decision record; dropped is how many records of its
// outcome the rate bound dropped since the last one. The granting path is looked up only
// here, for an allowed decision that is logged.
func (o *guardObserver) log(c *gin.Context, d middleware.GuardDecision, dropped int64) {
	ctx := c.Request.Context()
	attrs := make([]slog.Attr, 0, 12)
	attrs = append(attrs, slog.String("outcome", d.Outcome.String()), slog.String("route", c.FullPath()))
	if d.By != middleware.DecidedByNone {
		attrs = append(attrs, slog.String("decided_by", d.By.String()))
	}
	if d.User != "" {
		if u, ok := o.name(d.User); ok {
			attrs = append(attrs, slog.String("user", u))
		}
	}
	kind, names := o.required(d)
	attrs = append(attrs, slog.String(kind, names))
	if d.All {
		attrs = append(attrs, slog.String("requirement", "all"))
	}
	if d.Scope != "" {
		if s, ok := o.name(d.Scope); ok {
			attrs = append(attrs, slog.String("scope", s))
		}
	}
	if d.Outcome == middleware.GuardAllowed && d.By == middleware.DecidedByPermission && !d.Role && o.client != nil {
		attrs = append(attrs, o.paths(ctx, d)...)
	}
	if id := middleware.RequestIDFrom(c); id != "" {
		attrs = append(attrs, slog.String("request_id", id))
	}
	if id := middleware.ClientRequestID(c); id != "" {
		attrs = append(attrs, slog.String("client_request_id", id))
	}
	if dropped > 0 {
		attrs = append(attrs, slog.Int64("dropped_before", dropped))
	}
	o.az.log.LogAttrs(ctx, slog.LevelInfo, "guard decision", attrs...)
}

// name is a user or scope name as the log may show it: its audit form
// (never the plaintext of an encrypted name; the user column's, since a
// stored form is bound to its column); not at all when encryption is on
// and the checker is not ours. A user or scope can come from the request
// (a header resolver, a scope from the path or query), so a string that
// could never be a name is not copied into the log or the audit record:
// only its length is. perm is the same for a permission name.
func (o *guardObserver) name(n string) (string, bool) {
	if !middleware.ValidName(n) {
		return "(not a valid name: " + strconv.Itoa(len(n)) + " bytes)", true
	}
	if o.client != nil {
		return o.client.scope.AuditUser(n), true
	}
	return n, o.az.keys == nil
}

func (o *guardObserver) perm(n string) (string, bool) {
	if !middleware.ValidName(n) {
		return "(not a valid name: " + strconv.Itoa(len(n)) + " bytes)", true
	}
	if o.client != nil {
		return o.client.scope.AuditPermission(n), true
	}
	return n, o.az.keys == nil
}

// required names what the guard requires: "role" and the role, or
// "permissions" and the permissions (comma-separated, audit forms).
func (o *guardObserver) required(d middleware.GuardDecision) (kind, names string) {
	if d.Role {
		return "role", d.Names[0]
	}
	out := make([]string, 0, len(d.Names))
	for _, n := range d.Names {
		if s, ok := o.perm(n); ok {
			out = append(out, s)
		}
	}
	return "permissions", strings.Join(out, ",")
}

// paths are the granting paths of an allowed decision (explain): the
// first permission with a path for "any of", each for "all of".
func (o *guardObserver) paths(ctx context.Context, d middleware.GuardDecision) []slog.Attr {
	var out []slog.Attr
	for _, p := range d.Names {
		g, err := o.client.explain(ctx, d.Scope, d.User, p)
		if err != nil {
			return append(out, slog.String("path_error", refusalReason(err)))
		}
		if g == nil {
			continue
		}
		perm, _ := o.perm(p)
		via := g.Membership
		if g.Scope != "" {
			s, _ := o.name(g.Scope)
			via += "@" + s
		}
		out = append(out, slog.Group("granted", slog.String("permission", perm),
			slog.String("membership", via), slog.String("chain", strings.Join(g.Chain, ">")),
			slog.String("granted_by", g.GrantedBy)))
		if !d.All {
			break
		}
	}
	return out
}

// audit records a guard's 403 in the audit log of the guard's client,
// within the refusal budget of that client: a stranger sending refused
// requests cannot write more than AUTH_AUDIT_REFUSALS_PER_SECOND records.
func (o *guardObserver) audit(c *gin.Context, d middleware.GuardDecision) {
	kind, names := o.required(d)
	u, _ := o.name(d.User)
	resource := "user:" + u + " " + kind + ":" + names
	if d.Scope != "" {
		s, _ := o.name(d.Scope)
		resource += "@" + s
	}
	// The actor is the refused user (stored form, as in the resource).
	actor := storage.ActorAnonymous
	if middleware.ValidName(d.User) {
		actor = storage.ActorUserPrefix + u
	}
	o.az.auditRefusedBy(o.az.requestContext(c), o.client.fingerprint, actor, "guard "+c.FullPath(), resource, "insufficient permissions")
}
