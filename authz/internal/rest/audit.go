package rest

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// DefaultAuditLimit is the page size of GET /api/audit without ?limit.
const DefaultAuditLimit = 100

// auditActionPattern is what ?action= of GET /api/audit accepts: empty
// (every action), an action's name, or the action of a guard's denial
// records (AUTH_DECISION_AUDIT): "guard " and the route template.
var auditActionPattern = regexp.MustCompile(`^(?:[a-z_]{0,64}|guard /[!-~]{0,255})$`)

// auditActorPattern is what ?actor= accepts besides "user:<name>" (whose
// name follows the naming rule): a key's actor, library, anonymous.
var auditActorPattern = regexp.MustCompile(`^(?:key:[0-9a-f]{8}|library|anonymous)$`)

// auditRoute: GET /api/audit?limit=N&before=<id>&action=<action>&actor=<actor>,
// the calling client's own audit records, newest first, of one action
// and one actor when they are given. Ids are opaque (see
// audit.IDs): before is the id of the last record of the previous page. A client sees only records under its
// own fingerprint; refusals of requests without a valid key belong to no
// client and are visible to none.
func auditRoute() route {
	return route{
		method: http.MethodGet, path: "/api/audit", action: "list_audit", query: []string{"limit", "before", "action", "actor"},
		resource: func(*request) string { return "audit" },
		run: func(call *request) (int, string, any, error) {
			q := call.c.Request.URL.Query()
			limit := DefaultAuditLimit
			if v, ok, err := queryValue(q, "limit"); err != nil {
				return 0, "", nil, refuse(err)
			} else if ok {
				if limit, err = parseLimit(v); err != nil {
					return 0, "", nil, refuse(err)
				}
			}
			var before int64
			if v, ok, err := queryValue(q, "before"); err != nil {
				return 0, "", nil, refuse(err)
			} else if ok {
				before, err = strconv.ParseInt(v, 10, 64)
				if err != nil || before < 1 {
					return 0, "", nil, refuse(fmt.Errorf("%w: before must be a record's id (a whole number from 1)", errBadRequest))
				}
			}
			action, _, err := queryValue(q, "action")
			if err != nil {
				return 0, "", nil, refuse(err)
			}
			if !auditActionPattern.MatchString(action) {
				return 0, "", nil, refuse(fmt.Errorf("%w: action must be an action name such as add_role (lower-case letters and '_', at most 64) or \"guard \" and a route", errBadRequest))
			}
			actor, _, err := queryValue(q, "actor")
			if err != nil {
				return 0, "", nil, refuse(err)
			}
			if err := checkActor(actor); err != nil {
				return 0, "", nil, refuse(err)
			}
			recs, err := call.cl.AuditRecordsWhere(call.ctx, rbac.AuditQuery{Action: action, Actor: actor, Before: before, Limit: limit})
			if err != nil {
				return 0, "", nil, err
			}
			return http.StatusOK, "ok", recs, nil
		},
	}
}

// checkActor accepts "" (every actor) or an actor as records name them.
func checkActor(actor string) error {
	if actor == "" || auditActorPattern.MatchString(actor) {
		return nil
	}
	if name, ok := strings.CutPrefix(actor, "user:"); ok && rbac.CheckNames("user", name) == nil {
		return nil
	}
	return fmt.Errorf("%w: actor must be user:<name>, key:<8 hex digits>, library or anonymous", errBadRequest)
}
