package authz

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz/internal/feed"
	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// changesPage is the data of GET /api/changes as a reader decodes it.
type changesPage struct {
	Changes []map[string]any `json:"changes"`
	Next    string           `json:"next"`
}

// getChanges reads GET /api/changes with query q and checks its envelope.
func getChanges(t *testing.T, e http.Handler, key, q string) changesPage {
	t.Helper()
	w := performRequest(e, http.MethodGet, "/api/changes?"+q, key, nil)
	body := checkEnvelope(t, w, http.StatusOK)
	b, _ := json.Marshal(body["data"])
	var p changesPage
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// Every operation appears in the feed with the fields it has and no
// other, its actor and reason as the audit log records them, oldest
// first; a no-op write adds nothing. On both stores, names plain and
// encrypted; the feed's table never holds an encrypted name's plaintext.
func TestChangeFeedFieldsPerOp(t *testing.T) {
	forEachStoreEncrypted(t, func(t *testing.T, az *Authz, encrypted bool) {
		ctx := context.Background()
		e := newTestRouter(t, az, "")
		key := newKey()
		c := mustClient(t, az, key)
		do := func(method, path string, body ...string) {
			t.Helper()
			var rd io.Reader
			if len(body) > 0 {
				rd = strings.NewReader(body[0])
			}
			w := performRequest(e, method, path, key, rd, "X-Change-Reason", "ticket 7", "Content-Type", "application/json")
			if w.Code >= 300 {
				t.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body.String())
			}
		}
		do("POST", "/api/role/editor")
		do("POST", "/api/role/viewer")
		do("POST", "/api/role/editor") // existed: no change
		do("PUT", "/api/role/editor", `{"description":"Edits"}`)
		do("POST", "/api/permission/editor/edit")
		do("POST", "/api/membership/sara.secret/editor")
		do("POST", "/api/membership/sara.secret/viewer?scope=acme")
		do("POST", "/api/role/editor/inherits/viewer")
		until := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
		do("POST", "/api/membership/jack/viewer?expires_at="+until.Format(time.RFC3339))
		do("POST", "/api/user/sara.secret/rename/sara2")
		do("DELETE", "/api/role/editor/inherits/viewer")
		do("DELETE", "/api/membership/sara2/viewer?scope=acme")
		do("DELETE", "/api/membership/sara2/editor")
		do("DELETE", "/api/permission/editor/edit")
		do("DELETE", "/api/permission/editor/edit") // absent: no change
		if _, err := c.Batch(WithActor(ctx, "admin.ann"), []Operation{
			{Op: "add_permission", Role: "viewer", Permission: "read", ExpiresAt: &until},
			{Op: "add_role", Role: "viewer"}, // existed
			{Op: "add_membership", User: "bob", Role: "viewer", Scope: "acme"},
		}); err != nil {
			t.Fatal(err)
		}
		do("DELETE", "/api/role/editor")

		keyActor := storage.KeyActor(c.scope.NS)
		r := func(m map[string]any) map[string]any {
			if _, ok := m["actor"]; !ok {
				m["actor"] = keyActor
				m["reason"] = "ticket 7"
			}
			return m
		}
		want := []map[string]any{
			r(map[string]any{"op": "add_role", "role": "editor"}),
			r(map[string]any{"op": "add_role", "role": "viewer"}),
			r(map[string]any{"op": "set_description", "role": "editor", "description": "Edits"}),
			r(map[string]any{"op": "add_permission", "role": "editor", "permission": "edit"}),
			r(map[string]any{"op": "add_membership", "user": "sara.secret", "role": "editor"}),
			r(map[string]any{"op": "add_membership", "user": "sara.secret", "role": "viewer", "scope": "acme"}),
			r(map[string]any{"op": "add_inheritance", "role": "editor", "parent": "viewer"}),
			r(map[string]any{"op": "add_membership", "user": "jack", "role": "viewer", "expires_at": until.Format(time.RFC3339)}),
			r(map[string]any{"op": "rename_user", "user": "sara.secret", "new_user": "sara2"}),
			r(map[string]any{"op": "del_inheritance", "role": "editor", "parent": "viewer"}),
			r(map[string]any{"op": "del_membership", "user": "sara2", "role": "viewer", "scope": "acme"}),
			r(map[string]any{"op": "del_membership", "user": "sara2", "role": "editor"}),
			r(map[string]any{"op": "del_permission", "role": "editor", "permission": "edit"}),
			{"op": "add_permission", "role": "viewer", "permission": "read", "expires_at": until.Format(time.RFC3339), "actor": "user:" + c.scope.AuditUser("admin.ann")},
			{"op": "add_membership", "user": "bob", "role": "viewer", "scope": "acme", "actor": "user:" + c.scope.AuditUser("admin.ann")},
			r(map[string]any{"op": "del_role", "role": "editor"}),
		}
		p := getChanges(t, e, key, "after=r0")
		if len(p.Changes) != len(want) {
			t.Fatalf("%d changes, want %d: %v", len(p.Changes), len(want), p.Changes)
		}
		var prev int64
		batchRev := ""
		for i, got := range p.Changes {
			rev, err := feed.Parse(got["revision"].(string))
			if err != nil || rev < prev {
				t.Fatalf("change %d: revision %v after r%d", i, got["revision"], prev)
			}
			prev = rev
			if _, err := time.Parse(time.RFC3339Nano, got["at"].(string)); err != nil {
				t.Fatalf("change %d: at %v", i, got["at"])
			}
			if i == 13 {
				batchRev = got["revision"].(string)
			}
			delete(got, "revision")
			delete(got, "at")
			if !equalJSONValues(got, want[i]) {
				t.Errorf("change %d = %v, want %v", i, got, want[i])
			}
		}
		if batchRev == "" {
			t.Fatal("no batch revision")
		}
		tok, err := c.Revision(ctx)
		if err != nil || p.Next != tok {
			t.Fatalf("next = %s, want the current revision %s (%v)", p.Next, tok, err)
		}
		if encrypted {
			var n int
			if err := az.db.NewRaw("SELECT count(*) FROM rolegate_change_ops WHERE user_name LIKE '%sara%' OR new_user LIKE '%sara%' OR permission = 'edit' OR actor LIKE '%admin.ann%'").Scan(ctx, &n); err != nil || n != 0 {
				t.Fatalf("%d feed rows hold a plaintext name (%v)", n, err)
			}
		}
	})
}

func equalJSONValues(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// Paging: following next with a small limit reads every change once, in
// order; a batch's changes come in one page; an empty page answers next
// = after. Another client's changes are never seen.
func TestChangeFeedPagingAndIsolation(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		e := newTestRouter(t, az, "")
		key, other := newKey(), newKey()
		c, o := mustClient(t, az, key), mustClient(t, az, other)
		if _, err := c.AddRole(ctx, "r", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := o.AddRole(ctx, "theirs", ""); err != nil {
			t.Fatal(err)
		}
		var want []string
		for i := range 20 {
			if _, err := c.AddMembership(ctx, fmt.Sprintf("u%02d", i), "r"); err != nil {
				t.Fatal(err)
			}
			if _, err := o.AddMembership(ctx, fmt.Sprintf("x%02d", i), "theirs"); err != nil {
				t.Fatal(err)
			}
			want = append(want, fmt.Sprintf("u%02d", i))
		}
		var ops []Operation
		for i := range 9 {
			ops = append(ops, Operation{Op: "add_membership", User: fmt.Sprintf("b%d", i), Role: "r"})
			want = append(want, fmt.Sprintf("b%d", i))
		}
		if _, err := c.Batch(ctx, ops); err != nil {
			t.Fatal(err)
		}
		var got, nexts []string
		after, pages := "r1", 0 // after the role
		for {
			p := getChanges(t, e, key, "limit=7&after="+after)
			if len(p.Changes) == 0 {
				if p.Next != after {
					t.Fatalf("an empty page's next = %s, want %s", p.Next, after)
				}
				break
			}
			if len(p.Changes) > 7 {
				t.Fatalf("a page of %d changes past limit=7", len(p.Changes))
			}
			pages++
			for _, ch := range p.Changes {
				got = append(got, ch["user"].(string))
			}
			after = p.Next
			nexts = append(nexts, p.Next)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("read %v, want %v", got, want)
		}
		// 20 singles and a batch of 9 in pages of 7: 7, 7, 7 (6 singles and
		// the batch's first), 7, 1; the third page ends inside the batch.
		if pages != 5 || !strings.Contains(nexts[2], ".0") || strings.Contains(nexts[4], ".") {
			t.Fatalf("%d pages, nexts %v; want 5, the third inside the batch (.0)", pages, nexts)
		}
		// The other client's feed holds its own changes only.
		all, err := o.Changes(ctx, "", MaxChangesLimit)
		if err != nil {
			t.Fatal(err)
		}
		if len(all.Changes) != 21 {
			t.Fatalf("the other client has %d changes, want 21", len(all.Changes))
		}
		for _, ch := range all.Changes {
			if ch.Role != "theirs" {
				t.Fatalf("the other client sees %+v", ch)
			}
		}
	})
}

// Bad after, limit and wait are 400 in the error envelope; an after the
// store has not reached is 400 too; unknown parameters are refused.
func TestChangeFeedBadQuery(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, nil)
		e := newTestRouter(t, az, "")
		key := newKey()
		if _, err := mustClient(t, az, key).AddRole(context.Background(), "r", ""); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"after=7", "after=r-1", "after=r01", "after=r1.01", "after=r1.", "after=r1.x", "after=r1.2.3", "after=", "after=r99", "limit=0", "limit=1001", "limit=x",
			"wait=51s", "wait=-1s", "wait=soon", "wait=1s&wait=2s", "since=r0"} {
			w := performRequest(e, http.MethodGet, "/api/changes?"+q, key, nil)
			if w.Code != http.StatusBadRequest {
				t.Fatalf("%s: %d %s", q, w.Code, w.Body.String())
			}
			body := checkEnvelope(t, w, http.StatusBadRequest)
			if body["error"] == "" {
				t.Errorf("%s: no error detail", q)
			}
		}
		w := performRequest(e, http.MethodGet, "/api/changes", "", nil)
		checkEnvelope(t, w, http.StatusUnauthorized)
	})
}

// ?wait holds a request with nothing new until the wait passes, and
// answers as soon as a change arrives: from this process, and from
// another replica (PostgreSQL: through its announcement, well before the
// periodic re-read).
func TestChangeFeedWait(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		slow := func(c *Config) { c.RevisionCheckInterval = time.Minute }
		a, b := openTarget(t, target, slow), openTarget(t, target, slow)
		ea := newTestRouter(t, a, "")
		key := newKey()
		ctx := context.Background()
		cb := mustClient(t, b, key)
		if _, err := cb.AddRole(ctx, "r", ""); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		p := getChanges(t, ea, key, "after=r1&wait=300ms")
		if took := time.Since(start); len(p.Changes) != 0 || p.Next != "r1" || took < 300*time.Millisecond || took > 3*time.Second {
			t.Fatalf("a wait with nothing new: %d changes, next %s, after %v", len(p.Changes), p.Next, took)
		}

		for _, from := range []string{"this process", "another replica"} {
			writer := cb
			if from == "this process" {
				writer = mustClient(t, a, key)
			}
			after, err := writer.Revision(ctx)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan changesPage, 1)
			go func() {
				w := performRequest(ea, http.MethodGet, "/api/changes?wait=20s&after="+after, key, nil)
				var env struct {
					Data changesPage `json:"data"`
				}
				_ = json.Unmarshal(w.Body.Bytes(), &env)
				done <- env.Data
			}()
			time.Sleep(200 * time.Millisecond) // the request waits
			wrote := time.Now()
			if _, err := writer.AddMembership(ctx, "sara", "r"); err != nil {
				t.Fatal(err)
			}
			if _, err := writer.DelMembership(ctx, "sara", "r"); err != nil {
				t.Fatal(err)
			}
			select {
			case p := <-done:
				took := time.Since(wrote)
				if len(p.Changes) == 0 || p.Changes[0]["user"] != "sara" {
					t.Fatalf("%s: the wait answered %+v", from, p)
				}
				// SQLite has no announcements: the waiting reader reads
				// again every feed.AwaitPoll.
				bound := feed.AwaitPoll + 500*time.Millisecond
				if target.Name == "postgresql" || from == "this process" {
					bound = 500 * time.Millisecond
				}
				if took > bound {
					t.Fatalf("%s: the wait answered %v after the write, want within %v", from, took, bound)
				}
				t.Logf("%s: answered %v after the write", from, took)
			case <-time.After(10 * time.Second):
				t.Fatalf("%s: the wait did not answer after a write", from)
			}
		}
	})
}

// Past the retention, an after older than what is kept is 410 with a
// message that says to resync from a backup; an after at or past the
// newest revision pruned still reads.
func TestChangeFeedGonePastRetention(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, func(c *Config) {
			c.ChangesRetention = 300 * time.Millisecond
			c.changesPruneEvery = 50 * time.Millisecond
		})
		e := newTestRouter(t, az, "")
		key := newKey()
		c := mustClient(t, az, key)
		ctx := context.Background()
		if _, err := c.AddRole(ctx, "r", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddMembership(ctx, "sara", "r"); err != nil {
			t.Fatal(err)
		}
		eventually(t, 5*time.Second, "the old changes pruned", func() bool {
			_, err := c.Changes(ctx, "r1", 10) // r2 pruned too
			return errors.Is(err, ErrChangesGone)
		})
		w := performRequest(e, http.MethodGet, "/api/changes?after=r1", key, nil)
		body := checkEnvelope(t, w, http.StatusGone)
		if msg, _ := body["error"].(string); !strings.Contains(msg, "backup") || !strings.Contains(msg, "AUTH_CHANGES_RETENTION") {
			t.Fatalf("410 detail %q does not say to resync from a backup", msg)
		}
		// The newest revision pruned and later ones still read.
		p := getChanges(t, e, key, "after=r2")
		if len(p.Changes) != 0 || p.Next != "r2" {
			t.Fatalf("after the newest revision pruned: %+v", p)
		}
		if _, err := c.AddMembership(ctx, "jack", "r"); err != nil {
			t.Fatal(err)
		}
		if p := getChanges(t, e, key, "after=r2"); len(p.Changes) != 1 || p.Changes[0]["user"] != "jack" {
			t.Fatalf("a change after the prune: %+v", p)
		}
	})
}

// In open mode a waiting GET /api/changes counts as a read in flight of
// its client (one more past AUTH_MAX_READS_IN_FLIGHT is 429) while it
// holds none of the slots all clients' reads share: another client reads
// meanwhile even when there is one slot for all.
func TestChangeFeedWaitIsAReadInFlight(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, _ := openREST(t, target, func(c *Config) { c.MaxReadsInFlight, c.MaxReadsRunning = 1, 1 })
		e := newTestRouter(t, az, "")
		key := newKey()
		checkEnvelope(t, performRequest(e, http.MethodPost, "/api/role/r", key, nil), http.StatusCreated)
		done := make(chan int, 1)
		go func() {
			done <- performRequest(e, http.MethodGet, "/api/changes?after=r1&wait=2s", key, nil).Code
		}()
		fp := mustClient(t, az, key).fingerprint
		eventually(t, 2*time.Second, "the wait holds the client's read", func() bool {
			release, err := az.readGate.Acquire(fp)
			if err == nil {
				release()
			}
			return err != nil
		})
		w := performRequest(e, http.MethodGet, "/api/roles", key, nil)
		checkEnvelope(t, w, http.StatusTooManyRequests)
		checkEnvelope(t, performRequest(e, http.MethodGet, "/api/roles", newKey(), nil), http.StatusOK)
		if code := <-done; code != http.StatusOK {
			t.Fatalf("the wait answered %d", code)
		}
		checkEnvelope(t, performRequest(e, http.MethodGet, "/api/roles", key, nil), http.StatusOK)
	})
}

// A key rotation re-encrypts the change feed's names and actors with the
// rest of the store: after it, the new key alone reads the feed as
// before, and no entry is left under the old key. On both stores.
func TestChangeFeedAfterKeyRotation(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		old := openTarget(t, target, encrypted(testPassphrase))
		c := mustClient(t, old, key)
		if _, err := c.AddRole(ctx, "editor", "Edits"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddPermission(ctx, "editor", "edit"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddMembership(WithActor(ctx, "admin.ann"), "sara", "editor"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.RenameUser(ctx, "sara", "sara2", false); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddMembershipIn(ctx, "acme", "tom", "editor"); err != nil {
			t.Fatal(err)
		}
		// The deletion names sara2 and tom@acme, copied from the
		// memberships as stored: re-encrypted with the rest.
		if _, err := c.DelRole(WithActor(ctx, "admin.ann"), "editor"); err != nil {
			t.Fatal(err)
		}
		before, err := c.Changes(ctx, "", 100)
		if err != nil {
			t.Fatal(err)
		}
		old.Close()

		rotated := openTarget(t, target, rotateTo)
		waitRotated(t, rotated)
		rotated.Close()
		fresh := openTarget(t, target, encrypted(rotatedPass))
		cf := mustClient(t, fresh, key)
		after, err := cf.Changes(ctx, "", 100)
		if err != nil {
			t.Fatalf("the feed under the new key alone: %v", err)
		}
		if len(after.Changes) != len(before.Changes) || len(after.Changes) != 8 || after.Changes[5].User != "sara2" && after.Changes[6].User != "sara2" {
			t.Fatalf("%d changes after the rotation, %d before, want 8 (sara2 named by the deletion): %+v", len(after.Changes), len(before.Changes), after.Changes)
		}
		for i := range before.Changes {
			b, a := before.Changes[i], after.Changes[i]
			if b.Actor != "library" {
				// The actor names a person as the audit log does: its
				// stored form, which the rotation re-encrypted.
				if a.Actor == b.Actor || a.Actor != "user:"+cf.scope.AuditUser("admin.ann") {
					t.Fatalf("change %d's actor %q after the rotation (%q before)", i, a.Actor, b.Actor)
				}
				a.Actor, b.Actor = "", ""
			}
			if !equalJSONValues(a, b) {
				t.Fatalf("change %d: %+v after the rotation, %+v before", i, a, b)
			}
		}
	})
}

// Turning encryption on converts the change feed's names with the rest of
// the store: the feed reads as before, and its table holds no plaintext
// name any more. On both stores.
func TestChangeFeedAfterEncryptionTurnedOn(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		ctx := context.Background()
		key := newKey()
		plain := openTarget(t, target, nil)
		c := mustClient(t, plain, key)
		if _, err := c.AddRole(ctx, "editor", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddPermission(ctx, "editor", "edit.secret"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.AddMembership(WithActor(ctx, "ann.secret"), "sara.secret", "editor"); err != nil {
			t.Fatal(err)
		}
		before, err := c.Changes(ctx, "", 100)
		if err != nil {
			t.Fatal(err)
		}
		plain.Close()
		enc := openTarget(t, target, encrypted(testPassphrase))
		after, err := mustClient(t, enc, key).Changes(ctx, "", 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(after.Changes) != 3 || after.Changes[1].Permission != "edit.secret" || after.Changes[2].User != "sara.secret" {
			t.Fatalf("after the conversion: %+v", after.Changes)
		}
		if before.Changes[2].Actor != "user:ann.secret" || after.Changes[2].Actor == before.Changes[2].Actor {
			t.Fatalf("the actor %q (before: %q): not converted", after.Changes[2].Actor, before.Changes[2].Actor)
		}
		var n int
		if err := enc.db.NewRaw("SELECT count(*) FROM rolegate_change_ops WHERE user_name LIKE '%secret%' OR permission LIKE '%secret%' OR actor LIKE '%secret%'").Scan(ctx, &n); err != nil || n != 0 {
			t.Fatalf("%d feed rows hold a plaintext name (%v)", n, err)
		}
	})
}

// A streamed batch (POST /api/batch/stream), recorded chunk by chunk
// before its revision is made, is in the feed whole, in order, under the
// revision its answer names; a stream that fails leaves nothing in the
// feed.
func TestChangeFeedStreamedBatch(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, target storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		const roles = 2000 // 6,000 operations: two chunks
		w := performRequest(e, "POST", "/api/batch/stream", key, strings.NewReader(streamBody(roles)))
		checkEnvelope(t, w, http.StatusCreated)
		rev := w.Header().Get("Rolegate-Revision")
		bad := streamBody(10) + `{"op":"add_permission","role":"nobody","permission":"p"}` + "\n"
		checkEnvelope(t, performRequest(e, "POST", "/api/batch/stream", key, strings.NewReader(bad)), http.StatusNotFound)
		var all []Change
		next := "r0"
		for {
			p, err := mustClient(t, az, key).Changes(context.Background(), next, MaxChangesLimit)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Changes) > MaxChangesLimit {
				t.Fatalf("a page of %d changes", len(p.Changes))
			}
			next = p.Next
			if len(p.Changes) == 0 {
				break
			}
			all = append(all, p.Changes...)
		}
		if len(all) != 3*roles || next != rev {
			t.Fatalf("%d changes, next %s; want %d, %s", len(all), next, 3*roles, rev)
		}
		for i, ch := range all {
			want := fmt.Sprintf("r%d", i/3)
			if ch.Revision != rev || ch.Role != want || ch.Op != []string{"add_role", "add_permission", "add_membership"}[i%3] {
				t.Fatalf("change %d: %+v, want %s of %s at %s", i, ch, []string{"add_role", "add_permission", "add_membership"}[i%3], want, rev)
			}
		}
		var stray int
		if err := az.db.NewRaw("SELECT count(*) FROM rolegate_change_ops WHERE revision < 0").Scan(context.Background(), &stray); err != nil || stray != 0 {
			t.Fatalf("%d entries left under a placeholder (%v)", stray, err)
		}
	})
}
