package authz

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz/internal/clock"
)

// Who-can says until when each user holds the permission: a path
// (membership, inherited roles, grant) holds until the first expires_at
// along it, a user until the latest end of her paths held now, with no
// end when one of them has none; a path not held now (it starts later)
// adds nothing, and a user with no path held now is not listed. The clock
// moves and the same reads follow it. In a scope, the paths through
// memberships in it count as well as the global ones. Plain and
// encrypted, on both stores, through REST (paging and X-Total-Count
// included) and the library.
func TestWhoCanShowsUntil(t *testing.T) {
	forEachClockedStoreEncrypted(t, testWhoCanShowsUntil)
}

func testWhoCanShowsUntil(t *testing.T, az *Authz, clk *clock.Fake) {
	ctx := context.Background()
	key := newKey()
	c := mustClient(t, az, key)
	e := newTestRouter(t, az, "")
	day := func(d int) time.Time { return time.Date(2030, 1, 7+d, 18, 0, 0, 0, time.UTC) }
	later, wed, thu, fri := boundsT0.Add(time.Hour), day(2), day(3), day(4)
	for _, r := range []string{"editor", "deployer", "lead", "staff"} {
		mustDo(t)(c.AddRole(ctx, r, ""))
	}
	mustDo(t)(c.AddPermission(ctx, "editor", "edit"))
	mustDo(t)(c.AddPermission(ctx, "deployer", "edit", ExpiresAt(wed))) // a bounded grant
	mustDo(t)(c.AddInheritance(ctx, "lead", "deployer"))
	mustDo(t)(c.AddInheritance(ctx, "staff", "editor"))
	// alice: one bounded membership.
	mustDo(t)(c.AddMembership(ctx, "alice", "editor", ExpiresAt(fri)))
	// bob: a bounded path and an unbounded one, inherited (staff → editor).
	mustDo(t)(c.AddMembership(ctx, "bob", "editor", ExpiresAt(fri)))
	mustDo(t)(c.AddMembership(ctx, "bob", "staff"))
	// carol: an unbounded membership of a role whose grant is bounded.
	mustDo(t)(c.AddMembership(ctx, "carol", "deployer"))
	// dave: a membership until Friday of lead, which inherits deployer's
	// grant until Wednesday: the path ends on Wednesday.
	mustDo(t)(c.AddMembership(ctx, "dave", "lead", ExpiresAt(fri)))
	// erin: that path (until Wednesday) and editor until Thursday.
	mustDo(t)(c.AddMembership(ctx, "erin", "lead", ExpiresAt(fri)))
	mustDo(t)(c.AddMembership(ctx, "erin", "editor", ExpiresAt(thu)))
	// frank: deployer (until Wednesday) and an unbounded membership that
	// starts later: not held now, so it does not count yet.
	mustDo(t)(c.AddMembership(ctx, "frank", "deployer"))
	mustDo(t)(c.AddMembership(ctx, "frank", "staff", StartsAt(later)))
	// gina: only a membership that starts later: not listed.
	mustDo(t)(c.AddMembership(ctx, "gina", "editor", StartsAt(later)))
	// In org-1: alice also holds editor there with no end; henry holds
	// lead there until Friday (deployer's grant: Wednesday); ivan editor
	// there until Thursday.
	mustDo(t)(c.AddMembershipIn(ctx, "org-1", "alice", "editor"))
	mustDo(t)(c.AddMembershipIn(ctx, "org-1", "henry", "lead", ExpiresAt(fri)))
	mustDo(t)(c.AddMembershipIn(ctx, "org-1", "ivan", "editor", ExpiresAt(thu)))

	const (
		untilWed = `"until":"2030-01-09T18:00:00Z"`
		untilThu = `"until":"2030-01-10T18:00:00Z"`
		untilFri = `"until":"2030-01-11T18:00:00Z"`
	)
	get := func(path string) (string, string) {
		t.Helper()
		w := performRequest(e, http.MethodGet, path, key, nil)
		checkEnvelope(t, w, http.StatusOK)
		body := w.Body.String()
		i, j := strings.Index(body, `"data":`), strings.LastIndex(body, `,"timestamp"`)
		return body[i+len(`"data":`) : j], w.Header().Get("X-Total-Count")
	}
	steps := []struct {
		at          time.Time
		path, want  string
		total, libs string
	}{
		{boundsT0, "/api/which_users_can/edit?total=true",
			`[{"user":"alice",` + untilFri + `},{"user":"bob"},{"user":"carol",` + untilWed + `},{"user":"dave",` + untilWed +
				`},{"user":"erin",` + untilThu + `},{"user":"frank",` + untilWed + `}]`, "6",
			"alice@2030-01-11T18:00:00Z bob carol@2030-01-09T18:00:00Z dave@2030-01-09T18:00:00Z erin@2030-01-10T18:00:00Z frank@2030-01-09T18:00:00Z"},
		{boundsT0, "/api/which_users_can/edit?limit=2&after=bob&total=true",
			`[{"user":"carol",` + untilWed + `},{"user":"dave",` + untilWed + `}]`, "6", ""},
		// In a scope, the scoped memberships' paths count too.
		{boundsT0, "/api/which_users_can/edit?scope=org-1&total=true",
			`[{"user":"alice"},{"user":"bob"},{"user":"carol",` + untilWed + `},{"user":"dave",` + untilWed +
				`},{"user":"erin",` + untilThu + `},{"user":"frank",` + untilWed + `},{"user":"henry","scope":"org-1",` + untilWed +
				`},{"user":"ivan","scope":"org-1",` + untilThu + `}]`, "8", ""},
		{boundsT0, "/api/which_users_can/edit?scope=org-1&limit=2&after=frank&total=true",
			`[{"user":"henry","scope":"org-1",` + untilWed + `},{"user":"ivan","scope":"org-1",` + untilThu + `}]`, "8", ""},
		// From later on gina and frank's staff count: frank has no end.
		{later, "/api/which_users_can/edit",
			`[{"user":"alice",` + untilFri + `},{"user":"bob"},{"user":"carol",` + untilWed + `},{"user":"dave",` + untilWed +
				`},{"user":"erin",` + untilThu + `},{"user":"frank"},{"user":"gina"}]`, "", ""},
		// Past Wednesday's grant: carol and dave hold it no more, erin
		// until Thursday through editor.
		{wed.Add(time.Second), "/api/which_users_can/edit?total=true",
			`[{"user":"alice",` + untilFri + `},{"user":"bob"},{"user":"erin",` + untilThu + `},{"user":"frank"},{"user":"gina"}]`, "5",
			"alice@2030-01-11T18:00:00Z bob erin@2030-01-10T18:00:00Z frank gina"},
		{boundsT0, "/api/which_users_can/nothing", `[]`, "", ""},
	}
	for _, s := range steps {
		clk.Set(s.at)
		got, total := get(s.path)
		if got != s.want {
			t.Errorf("GET %s at %s:\n got %s\nwant %s", s.path, s.at, got, s.want)
		}
		if total != s.total {
			t.Errorf("GET %s at %s: X-Total-Count %q; want %q", s.path, s.at, total, s.total)
		}
		if s.libs == "" {
			continue
		}
		users, err := c.WhichUsersCanUntil(ctx, "edit")
		if err != nil {
			t.Fatal(err)
		}
		var lib []string
		for _, u := range users {
			if u.Until == nil {
				lib = append(lib, u.User)
			} else {
				lib = append(lib, u.User+"@"+u.Until.Format(time.RFC3339))
			}
		}
		if got := strings.Join(lib, " "); got != s.libs {
			t.Errorf("WhichUsersCanUntil at %s:\n got %s\nwant %s", s.at, got, s.libs)
		}
	}
}
