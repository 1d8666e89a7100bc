package authz

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestAuditDelRoleDetail: the audit record of a role's deletion says what
// went with it, counted by the deletion itself: its direct grants, its
// global and scoped memberships, its links to parents and from children;
// whether the role is deleted by the library, DELETE /api/role, or a
// batch. A deletion that found nothing has no detail. On both stores,
// names plain and encrypted.
func TestAuditDelRoleDetail(t *testing.T) {
	forEachStoreEncrypted(t, func(t *testing.T, az *Authz, _ bool) {
		e := newTestRouter(t, az, "")
		ctx := context.Background()
		key := newKey()
		cl := mustClient(t, az, key)
		setup := func(role string) {
			t.Helper()
			ops := []Operation{{Op: "add_role", Role: role}, {Op: "add_role", Role: "parent"}, {Op: "add_role", Role: "child-" + role},
				{Op: "add_inheritance", Role: role, Parent: "parent"}, {Op: "add_inheritance", Role: "child-" + role, Parent: role}}
			for i := range 3 {
				ops = append(ops, Operation{Op: "add_permission", Role: role, Permission: fmt.Sprintf("p%d", i)})
			}
			for i := range 25 {
				ops = append(ops, Operation{Op: "add_membership", Role: role, User: fmt.Sprintf("user%02d", i)})
			}
			for i := range 4 {
				ops = append(ops, Operation{Op: "add_membership", Role: role, User: fmt.Sprintf("user%02d", i), Scope: fmt.Sprintf("org-%d", i)})
			}
			if _, err := cl.Batch(ctx, ops); err != nil {
				t.Fatal(err)
			}
		}
		want := RoleRemoved{Grants: 3, Memberships: 25, ScopedMemberships: 4, Parents: 1, Children: 1}
		check := func(how, role string) {
			t.Helper()
			recs, err := cl.AuditRecordsWhere(ctx, AuditQuery{Action: "del_role", Resource: "role:" + role})
			if err != nil || len(recs) != 1 {
				t.Fatalf("%s: del_role records of %s: %+v %v", how, role, recs, err)
			}
			if recs[0].Detail == nil || *recs[0].Detail != want {
				t.Errorf("%s: detail %+v, want %+v", how, recs[0].Detail, want)
			}
		}
		setup("lib")
		mustOK(t)(cl.DelRole(ctx, "lib"))
		check("library", "lib")

		setup("rest")
		w := performRequest(e, http.MethodDelete, "/api/role/rest", key, nil)
		checkEnvelope(t, w, http.StatusOK)
		check("REST", "rest")
		recs := auditPage(t, e, key, "action=del_role&resource=role:rest")
		if len(recs) != 1 || recs[0].Detail == nil || *recs[0].Detail != want {
			t.Errorf("GET /api/audit: %+v", recs)
		}
		if !strings.Contains(w.Body.String(), `"deleted":true`) {
			t.Errorf("DELETE answered %s", w.Body)
		}
		raw := performRequest(e, http.MethodGet, "/api/audit?action=del_role&resource=role:rest", key, nil).Body.String()
		if !strings.Contains(raw, `"detail":{"grants":3,"memberships":25,"scoped_memberships":4,"parents":1,"children":1}`) {
			t.Errorf("the record's JSON: %s", raw)
		}

		setup("batch")
		if _, err := cl.Batch(ctx, []Operation{{Op: "del_role", Role: "batch"}, {Op: "del_role", Role: "never"}}); err != nil {
			t.Fatal(err)
		}
		check("batch", "batch")

		// Nothing to delete: no detail.
		mustOK(t)(cl.DelRole(ctx, "never-was"))
		recs, err := cl.AuditRecordsWhere(ctx, AuditQuery{Action: "del_role", Resource: "role:never-was"})
		if err != nil || len(recs) != 1 || recs[0].Detail != nil {
			t.Errorf("a deletion of nothing: %+v %v", recs, err)
		}
		// Every other record has none.
		for _, r := range auditPage(t, e, key, "limit=1000") {
			if r.Action != "del_role" && r.Detail != nil {
				t.Errorf("%s record with detail %+v", r.Action, r.Detail)
			}
		}
	})
}

// TestAuditFilters: GET /api/audit?resource= picks the records of a
// resource and of what lies under it (membership:alice picks
// membership:alice/editor, not membership:alicia/...); since and until
// pick a span of time; they combine with action and actor; malformed
// values are 400. On both stores.
func TestAuditFilters(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, _ := openREST(t, target, nil)
		e := newTestRouter(t, az, "")
		ctx := context.Background()
		key := newKey()
		cl := mustClient(t, az, key)
		ok := mustOK(t)
		ok(cl.AddRole(ctx, "editor", ""))
		ok(cl.AddRole(ctx, "editors", ""))
		ok(cl.AddMembership(ctx, "alice", "editor"))
		ok(cl.AddMembership(ctx, "alicia", "editor"))
		ok(cl.AddPermission(ctx, "editor", "edit"))
		mid := time.Now().UTC()
		time.Sleep(20 * time.Millisecond) // records on either side of mid
		ok(cl.AddMembership(ctx, "alice", "editors"))
		ok(cl.DelMembership(ctx, "alice", "editor"))
		actions := func(q string) string {
			var out []string
			for _, r := range auditPage(t, e, key, q) {
				out = append(out, r.Action+" "+r.Resource)
			}
			return strings.Join(out, ",")
		}
		ts := url.QueryEscape(mid.Format(time.RFC3339Nano))
		for q, want := range map[string]string{
			"resource=role:editor":                               "add_role role:editor",
			"resource=membership:alice":                          "del_membership membership:alice/editor,add_membership membership:alice/editors,add_membership membership:alice/editor",
			"resource=membership:alice&action=add_membership":    "add_membership membership:alice/editors,add_membership membership:alice/editor",
			"resource=permission:editor":                         "add_permission permission:editor/edit",
			"resource=membership:alice&since=" + ts:              "del_membership membership:alice/editor,add_membership membership:alice/editors",
			"resource=membership:alice&until=" + ts:              "add_membership membership:alice/editor",
			"since=" + ts + "&until=" + ts:                       "",
			"resource=membership:ali":                            "",
			"resource=role:editor&actor=library&action=add_role": "add_role role:editor",
		} {
			if got := actions(q); got != want {
				t.Errorf("?%s: %q, want %q", q, got, want)
			}
		}
		for _, q := range []string{"since=yesterday", "until=2026-13-01T00:00:00Z", "resource=a%00b", "resource=" + strings.Repeat("x", 601), "since=1&since=2"} {
			checkEnvelope(t, performRequest(e, http.MethodGet, "/api/audit?"+q, key, nil), http.StatusBadRequest)
		}
	})
}
