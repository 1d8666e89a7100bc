package authz

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage"
)

// A role's deletion names in the change feed each membership it removed,
// global and scoped, once, as del_membership entries of its own revision
// just before its del_role, with the deletion's actor, reason and time:
// through the Go API, REST, a batch (between the batch's other entries),
// a streamed batch and a policy. On both stores, names plain and
// encrypted; the feed's table holds no plaintext of an encrypted name.
func TestChangeFeedNamesMembersOfDeletedRole(t *testing.T) {
	forEachStoreEncrypted(t, func(t *testing.T, az *Authz, encrypted bool) {
		ctx := context.Background()
		e := newTestRouter(t, az, "")
		key := newKey()
		c := mustClient(t, az, key)
		// members gives role its members, and another role one that stays.
		members := func(role string) []string {
			t.Helper()
			ops := []Operation{{Op: "add_role", Role: role}, {Op: "add_role", Role: "other"},
				{Op: "add_permission", Role: role, Permission: "edit"},
				{Op: "add_membership", User: "keeps.secret", Role: "other"}}
			want := []string{}
			for _, m := range []struct{ user, scope string }{
				{"ann.secret", ""}, {"bob.secret", ""}, {"ann.secret", "acme"}, {"cid.secret", "beta"}, {"cid.secret", "acme"},
			} {
				ops = append(ops, Operation{Op: "add_membership", User: m.user, Role: role, Scope: m.scope})
				want = append(want, m.user+"@"+m.scope)
			}
			if _, err := c.Batch(ctx, ops); err != nil {
				t.Fatal(err)
			}
			slices.Sort(want)
			return want
		}
		// check reads the feed after token: before, then the deletion's
		// members (want), its del_role of role, then after.
		check := func(token, role string, want []string, actor, reason string, before, after []string) {
			t.Helper()
			p, err := c.Changes(ctx, token, MaxChangesLimit)
			if err != nil {
				t.Fatal(err)
			}
			ops := func(chs []Change) []string {
				var out []string
				for _, ch := range chs {
					out = append(out, ch.Op+" "+ch.Role)
				}
				return out
			}
			n := len(before) + len(want) + 1 + len(after)
			if len(p.Changes) != n {
				t.Fatalf("%d changes, want %d: %v", len(p.Changes), n, ops(p.Changes))
			}
			if got := ops(p.Changes[:len(before)]); !slices.Equal(got, before) {
				t.Fatalf("before the deletion: %v, want %v", got, before)
			}
			if got := ops(p.Changes[n-len(after):]); !slices.Equal(got, after) {
				t.Fatalf("after the deletion: %v, want %v", got, after)
			}
			del := p.Changes[len(before)+len(want)]
			if del.Op != "del_role" || del.Role != role || del.Actor != actor || del.Reason != reason {
				t.Fatalf("the deletion's entry: %+v", del)
			}
			var got []string
			for _, ch := range p.Changes[len(before) : len(before)+len(want)] {
				if ch.Op != "del_membership" || ch.Role != role || ch.Revision != del.Revision || ch.Actor != actor ||
					ch.Reason != reason || !ch.At.Equal(del.At) || ch.Permission != "" || ch.StartsAt != nil || ch.ExpiresAt != nil {
					t.Fatalf("a removed membership's entry: %+v, the deletion's %+v", ch, del)
				}
				got = append(got, ch.User+"@"+ch.Scope)
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("the removed memberships named: %v, want %v", got, want)
			}
		}
		token := func() string {
			t.Helper()
			tok, err := c.Revision(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return tok
		}

		// The Go API.
		want := members("editor")
		tok := token()
		if deleted, err := c.DelRole(WithActor(ctx, "admin.ann"), "editor"); err != nil || !deleted {
			t.Fatalf("DelRole = %v, %v", deleted, err)
		}
		check(tok, "editor", want, "user:"+c.scope.AuditUser("admin.ann"), "", nil, nil)

		// REST.
		want = members("editor")
		tok = token()
		w := performRequest(e, http.MethodDelete, "/api/role/editor", key, nil, "X-Change-Reason", "ticket 38")
		checkEnvelope(t, w, http.StatusOK)
		keyActor := storage.KeyActor(c.scope.NS)
		check(tok, "editor", want, keyActor, "ticket 38", nil, nil)
		// Absent now: nothing more in the feed.
		checkEnvelope(t, performRequest(e, http.MethodDelete, "/api/role/editor", key, nil), http.StatusOK)
		if p, err := c.Changes(ctx, w.Header().Get("Rolegate-Revision"), MaxChangesLimit); err != nil || len(p.Changes) != 0 {
			t.Fatalf("deleting an absent role: %d changes (%v)", len(p.Changes), err)
		}

		// A batch: the members between the batch's earlier and later
		// entries; a role deleted with no members names none.
		want = members("editor")
		tok = token()
		if _, err := c.Batch(ctx, []Operation{
			{Op: "add_role", Role: "empty"},
			{Op: "del_membership", User: "keeps.secret", Role: "other"},
			{Op: "del_role", Role: "empty"},
			{Op: "del_role", Role: "editor"},
			{Op: "add_role", Role: "later"},
		}); err != nil {
			t.Fatal(err)
		}
		check(tok, "editor", want, "library", "", []string{"add_role empty", "del_membership other", "del_role empty"}, []string{"add_role later"})

		// A streamed batch.
		want = members("editor")
		tok = token()
		body := `{"op":"add_role","role":"streamed"}` + "\n" + `{"op":"del_role","role":"editor"}` + "\n" + `{"op":"del_role","role":"streamed"}` + "\n"
		checkEnvelope(t, performRequest(e, http.MethodPost, "/api/batch/stream", key, strings.NewReader(body)), http.StatusCreated)
		check(tok, "editor", want, keyActor, "", []string{"add_role streamed"}, []string{"del_role streamed"})

		// A policy that no longer has the role.
		want = members("editor")
		pol, err := c.ExportPolicy(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pol.Memberships, pol.ManageMemberships = nil, false // memberships left alone, but the role's go with it
		pol.Roles = slices.DeleteFunc(pol.Roles, func(r PolicyRole) bool { return r.Name == "editor" })
		tok = token()
		if _, err := c.ApplyPolicy(ctx, pol); err != nil {
			t.Fatal(err)
		}
		check(tok, "editor", want, "library", "", nil, nil)

		if encrypted {
			var n int
			if err := az.db.NewRaw("SELECT count(*) FROM rolegate_change_ops WHERE user_name LIKE '%secret%'").Scan(ctx, &n); err != nil || n != 0 {
				t.Fatalf("%d feed rows hold a plaintext name (%v)", n, err)
			}
		}
		var stray int
		if err := az.db.NewRaw("SELECT count(*) FROM rolegate_change_ops WHERE revision < 0").Scan(ctx, &stray); err != nil || stray != 0 {
			t.Fatalf("%d entries left under a placeholder (%v)", stray, err)
		}
	})
}

// Paging through a deletion of 2,500 members with limit=1000 (GET
// /api/changes, following next) reads each removed membership once, then
// the del_role: pages end inside the deletion's revision and lose or
// repeat nothing.
func TestChangeFeedPagesThroughLargeRoleDeletion(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		e := newTestRouter(t, az, "")
		key := newKey()
		c := mustClient(t, az, key)
		const n = 2500
		ops := []Operation{{Op: "add_role", Role: "crowd"}, {Op: "add_role", Role: "before"}}
		for i := range n {
			scope := ""
			if i%5 == 0 {
				scope = fmt.Sprintf("s%d", i%3)
			}
			ops = append(ops, Operation{Op: "add_membership", User: fmt.Sprintf("u%04d", i), Role: "crowd", Scope: scope})
		}
		if _, err := c.Batch(ctx, ops); err != nil {
			t.Fatal(err)
		}
		tok, err := c.Revision(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.DelRole(ctx, "before"); err != nil { // one change before, so pages do not start at the deletion
			t.Fatal(err)
		}
		if _, err := c.DelRole(ctx, "crowd"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddRole(ctx, "after", ""); err != nil {
			t.Fatal(err)
		}
		var got []map[string]any
		next, pages := tok, 0
		for {
			p := getChanges(t, e, key, "limit=1000&after="+next)
			if len(p.Changes) == 0 {
				break
			}
			if len(p.Changes) > 1000 {
				t.Fatalf("a page of %d", len(p.Changes))
			}
			pages++
			got = append(got, p.Changes...)
			next = p.Next
		}
		if len(got) != n+3 || pages != 3 {
			t.Fatalf("%d changes in %d pages, want %d in 3", len(got), pages, n+3)
		}
		if got[0]["op"] != "del_role" || got[0]["role"] != "before" || got[n+1]["op"] != "del_role" || got[n+1]["role"] != "crowd" || got[n+2]["op"] != "add_role" {
			t.Fatalf("first %v, last two %v %v", got[0], got[n+1], got[n+2])
		}
		seen := map[string]bool{}
		for _, ch := range got[1 : n+1] {
			if ch["op"] != "del_membership" || ch["role"] != "crowd" || ch["revision"] != got[n+1]["revision"] {
				t.Fatalf("a removed membership's entry: %v", ch)
			}
			seen[fmt.Sprint(ch["user"])] = true
		}
		if len(seen) != n {
			t.Fatalf("%d distinct members named, want %d", len(seen), n)
		}
	})
}
