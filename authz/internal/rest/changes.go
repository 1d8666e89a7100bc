package rest

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// The public change feed: GET /api/changes?after=REV&limit=N&wait=D, the
// client's changes after a revision, oldest first, with the token to pass
// as after next. With ?wait the request is held until a change arrives or
// the wait (at most MaxChangesWait) passes; it counts as a read in flight
// of its client meanwhile (AUTH_MAX_READS_IN_FLIGHT in open mode), but
// gives back its share of the store-reading slots of all clients while it
// waits. An after older than what is kept is 410.

// DefaultChangesLimit and MaxChangesWait: the page size without ?limit,
// and the longest ?wait.
const (
	DefaultChangesLimit = 100
	MaxChangesWait      = 50 * time.Second
)

// changesData is the data of GET /api/changes.
type changesData = rbac.Changes

func changesRoute() route {
	return route{
		method: http.MethodGet, path: "/api/changes", action: "list_changes", query: []string{"after", "limit", "wait"},
		resource: func(*request) string { return "changes" },
		run: func(call *request) (int, string, any, error) {
			q := call.c.Request.URL.Query()
			after, ok, err := queryValue(q, "after")
			if err != nil {
				return 0, "", nil, refuse(err)
			}
			if ok && after == "" {
				return 0, "", nil, refuse(fmt.Errorf("%w: after must be a revision token such as r42 (absent: from the start)", errBadRequest))
			}
			limit := DefaultChangesLimit
			if v, ok, err := queryValue(q, "limit"); err != nil {
				return 0, "", nil, refuse(err)
			} else if ok {
				if limit, err = parseLimit(v); err != nil {
					return 0, "", nil, refuse(err)
				}
			}
			var wait time.Duration
			if v, ok, err := queryValue(q, "wait"); err != nil {
				return 0, "", nil, refuse(err)
			} else if ok {
				if wait, err = parseWait(v); err != nil {
					return 0, "", nil, refuse(err)
				}
			}
			page, err := call.cl.WaitChanges(call.ctx, after, limit, 0)
			if err == nil && wait > 0 && len(page.Changes) == 0 {
				// Nothing yet: wait without holding a slot other clients'
				// reads need (the wait reads the client's revision row
				// once a second, and the feed when it moved).
				call.slot.pause()
				page, err = call.cl.WaitChanges(call.ctx, page.Next, limit, wait)
			}
			if err != nil {
				return 0, "", nil, gone(err)
			}
			return http.StatusOK, "ok", page, nil
		},
	}
}

// parseWait reads ?wait: a Go duration from 0 to MaxChangesWait.
func parseWait(v string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil || d < 0 || d > MaxChangesWait {
		return 0, fmt.Errorf("%w: wait must be a duration from 0s to %s, such as 30s", errBadRequest, MaxChangesWait)
	}
	return d, nil
}
