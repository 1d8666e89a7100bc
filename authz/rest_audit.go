package authz

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"

	"github.com/rolegate/rolegate/storage"
)

// DefaultAuditLimit is the page size of GET /api/audit without ?limit.
const DefaultAuditLimit = 100

// auditActionPattern is what ?action= of GET /api/audit accepts: empty
// (every action), an action's name, or the action of a guard's denial
// records (AUTH_DECISION_AUDIT): "guard " and the route template.
var auditActionPattern = regexp.MustCompile(`^(?:[a-z_]{0,64}|guard /[!-~]{0,255})$`)

// restAuditRoute: GET /api/audit?limit=N&before=<id>&action=<action>, the
// calling client's own audit records, newest first, of one action when
// action is given. A client sees only records under its
// own fingerprint; refusals of requests without a valid key belong to no
// client and are visible to none.
func restAuditRoute() restRoute {
	return restRoute{
		method: http.MethodGet, path: "/api/audit", action: "list_audit",
		resource: func(*restCall) string { return "audit" },
		run: func(call *restCall) (int, string, any, error) {
			q := call.c.Request.URL.Query()
			limit := DefaultAuditLimit
			if v, ok, err := restQueryValue(q, "limit"); err != nil {
				return 0, "", nil, restRefuse(err)
			} else if ok {
				if limit, err = restParseLimit(v); err != nil {
					return 0, "", nil, restRefuse(err)
				}
			}
			var before int64
			if v, ok, err := restQueryValue(q, "before"); err != nil {
				return 0, "", nil, restRefuse(err)
			} else if ok {
				before, err = strconv.ParseInt(v, 10, 64)
				if err != nil || before < 1 {
					return 0, "", nil, restRefuse(fmt.Errorf("%w: before must be a record id (a whole number from 1)", errBadRequest))
				}
			}
			action, _, err := restQueryValue(q, "action")
			if err != nil {
				return 0, "", nil, restRefuse(err)
			}
			if !auditActionPattern.MatchString(action) {
				return 0, "", nil, restRefuse(fmt.Errorf("%w: action must be an action name such as add_role (lower-case letters and '_', at most 64) or \"guard \" and a route", errBadRequest))
			}
			recs, err := storage.ListAudit(call.ctx, call.cl.az.db, call.cl.fingerprint, action, before, limit)
			if err != nil {
				return 0, "", nil, err
			}
			return http.StatusOK, "ok", recs, nil
		},
	}
}
