package rest

import (
	"strconv"

	"github.com/rolegate/rolegate/middleware"
)

// ?total=true on a list route: X-Total-Count says how many entries match
// the request (its role, user or permission, ?scope, ?prefix, ?effective,
// the filters of GET /api/scoped_memberships), whatever ?limit and
// ?after, so that a client can say "page 2 of 7" and "1,520 members".
// GET /api/roles and GET /api/users always send it (a COUNT over the
// client's rows, see totalCount); the other lists are of one role, user,
// permission or scope, and counting the effective ones costs about what
// reading them does, so they count only when asked: the route's own
// reader runs once over the whole list before the page, writing nothing
// and holding one window at a time. The two are separate reads, so a
// write in between may make them differ by what it wrote.

// totalParam is the query parameter that asks for the count.
const totalParam = "total"

// selfCounted are the list routes that send X-Total-Count on every page
// (where_can counts its scopes).
func (rt route) selfCounted() bool {
	return rt.action == "roles" || rt.action == "users" || rt.action == "where_can"
}

// withTotals lets every other list route take ?total.
func withTotals(rts []route) []route {
	for i, rt := range rts {
		if rt.stream != nil && !rt.selfCounted() {
			rts[i].query = append(rts[i].query[:len(rt.query):len(rt.query)], totalParam)
		}
	}
	return rts
}

// countTotal sets X-Total-Count when the request asks for it.
func countTotal(rt route, call *request) error {
	if rt.selfCounted() {
		return nil
	}
	want, err := flag(call, totalParam)
	if err != nil || !want {
		return err
	}
	page := call.page
	call.page, call.counting = pageWindow{}, true
	w := &listWriter{c: call.c, count: true}
	err = rt.stream(call, w)
	call.page, call.counting = page, false
	if err != nil {
		return err
	}
	call.c.Header(middleware.HeaderTotalCount, strconv.Itoa(w.n))
	return nil
}
