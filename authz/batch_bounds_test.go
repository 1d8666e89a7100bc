package authz

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz/internal/clock"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// A batch carries starts_at and expires_at on add_permission and
// add_membership (global and scoped), with the single adds' rules: the
// row takes exactly the bounds named (an unbounded add of a bounded row,
// one by one or many grants at once, takes them off: "changed"), the
// checks keep time with them, starts_at not before expires_at is a bad
// request, an expiry already past ErrAlreadyExpired (REST 422), a bound
// on another op a bad request; nothing of a refused batch is stored. The
// audit names the bounds as the single adds do. On both stores.
func TestBatchBounds(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		clk := clock.NewFake(boundsT0)
		az := openClocked(t, target, clk, nil)
		key := newKey()
		c := mustClient(t, az, key)
		at := func(d time.Duration) *time.Time { t := boundsT0.Add(d); return &t }
		results := func(ops ...Operation) string {
			t.Helper()
			rs, err := c.Batch(ctx, ops)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, r := range rs {
				out = append(out, r.Result)
			}
			return strings.Join(out, " ")
		}
		got := results(
			Operation{Op: "add_role", Role: "editor"},
			Operation{Op: "add_permission", Role: "editor", Permission: "edit"},
			Operation{Op: "add_permission", Role: "editor", Permission: "deploy", ExpiresAt: at(time.Hour)},
			Operation{Op: "add_membership", User: "alice", Role: "editor", ExpiresAt: at(2 * time.Hour)},
			Operation{Op: "add_membership", User: "bob", Role: "editor", Scope: "org-1", StartsAt: at(time.Hour)},
		)
		if got != "created created created created created" {
			t.Fatalf("first batch: %s", got)
		}
		type probe struct {
			user, scope, perm string
			want              bool
		}
		check := func(when string, probes ...probe) {
			t.Helper()
			for _, p := range probes {
				ok, err := c.UserHasPermissionIn(ctx, p.scope, p.user, p.perm)
				if err != nil || ok != p.want {
					t.Fatalf("%s: %s may %s in %q = %v, %v; want %v", when, p.user, p.perm, p.scope, ok, err, p.want)
				}
			}
		}
		check("at first", probe{"alice", "", "edit", true}, probe{"alice", "", "deploy", true}, probe{"bob", "org-1", "edit", false})
		clk.Advance(time.Hour)
		check("an hour on", probe{"alice", "", "edit", true}, probe{"alice", "", "deploy", false}, probe{"bob", "org-1", "edit", true})
		// The same bounds again: existed; other bounds or none: changed,
		// the grants at once too (the role is known: the many-grant path).
		got = results(
			Operation{Op: "add_membership", User: "alice", Role: "editor", ExpiresAt: at(2 * time.Hour)},
			Operation{Op: "add_membership", User: "bob", Role: "editor", Scope: "org-1"},
			Operation{Op: "add_role", Role: "editor"},
			Operation{Op: "add_permission", Role: "editor", Permission: "deploy"},
			Operation{Op: "add_permission", Role: "editor", Permission: "edit"},
			Operation{Op: "add_permission", Role: "editor", Permission: "edit", StartsAt: at(3 * time.Hour)},
		)
		if got != "existed changed existed changed existed changed" {
			t.Fatalf("second batch: %s", got)
		}
		check("after the second batch", probe{"alice", "", "deploy", true}, probe{"alice", "", "edit", false}, probe{"bob", "org-1", "deploy", true})
		clk.Advance(time.Hour)
		check("two hours on", probe{"alice", "", "deploy", false}, probe{"bob", "org-1", "deploy", true})
		recs, err := c.AuditRecords(ctx, "add_permission", 0, 10)
		if err != nil || len(recs) == 0 || recs[0].Resource != "permission:editor/edit from 2030-01-07T12:00:00Z" || recs[0].Outcome != "changed" {
			t.Fatalf("audit of a bounded add in a batch: %+v, %v", recs, err)
		}

		for _, tc := range []struct {
			op   Operation
			want error
		}{
			{Operation{Op: "add_membership", User: "carol", Role: "editor", StartsAt: at(4 * time.Hour), ExpiresAt: at(4 * time.Hour)}, errBadRequest},
			{Operation{Op: "add_permission", Role: "editor", Permission: "late", ExpiresAt: at(time.Hour)}, ErrAlreadyExpired},
			{Operation{Op: "del_membership", User: "alice", Role: "editor", ExpiresAt: at(5 * time.Hour)}, errBadRequest},
			{Operation{Op: "add_role", Role: "timed", StartsAt: at(5 * time.Hour)}, errBadRequest},
		} {
			_, err := c.Batch(ctx, []Operation{{Op: "add_membership", User: "carol", Role: "editor"}, tc.op})
			var be *BatchError
			if !errors.Is(err, tc.want) || !errors.As(err, &be) || be.Index != 1 {
				t.Fatalf("%+v: %v; want %v at operation 1", tc.op, err, tc.want)
			}
		}
		if ok, err := c.HasMembership(ctx, "carol", "editor"); ok || err != nil {
			t.Fatalf("a refused batch stored carol's membership: %v, %v", ok, err)
		}

		// Over REST: the bounds in RFC 3339, 422 for an expiry past, 400
		// for a time that is not one.
		e := newTestRouter(t, az, "")
		for _, step := range []struct {
			body   string
			status int
			want   string
		}{
			{`{"operations":[{"op":"add_membership","user":"dave","role":"editor","expires_at":"2030-01-07T18:00:00+01:00"}]}`, 201, `"result":"created"`},
			{`{"operations":[{"op":"add_membership","user":"dave","role":"editor","expires_at":"2030-01-07T10:00:00Z"}]}`, 422, "operation 0"},
			{`{"operations":[{"op":"add_membership","user":"dave","role":"editor","expires_at":"Friday"}]}`, 400, "operation 0"},
		} {
			w := performRequest(e, http.MethodPost, "/api/batch", key, strings.NewReader(step.body))
			checkEnvelope(t, w, step.status)
			if !strings.Contains(w.Body.String(), step.want) {
				t.Fatalf("POST /api/batch %s: %s; want %s", step.body, w.Body.String(), step.want)
			}
		}
		check("dave", probe{"dave", "", "deploy", true})
		clk.Advance(6 * time.Hour) // 17:00 UTC
		check("dave after his expiry", probe{"dave", "", "deploy", false})
	})
}
