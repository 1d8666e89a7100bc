package authz

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// revisionOf reads the client's store revision.
func revisionOf(t testing.TB, az *Authz, c *Client) int64 {
	t.Helper()
	revs, err := storage.Revisions(context.Background(), az.db, []string{c.scope.NS})
	if err != nil {
		t.Fatal(err)
	}
	return revs[c.scope.NS]
}

// auditCount counts the client's audit records.
func auditCount(t testing.TB, az *Authz, c *Client) int {
	t.Helper()
	recs, err := storage.ListAudit(context.Background(), az.db, c.fingerprint, "", 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return len(recs)
}

// TestBatchOneTransaction: a batch applies every operation, bumps the
// revision once, writes one audit record per change and one for the
// operations that changed nothing, and the next
// check sees it.
func TestBatchOneTransaction(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		if _, err := c.AddRole(ctx, "old", ""); err != nil {
			t.Fatal(err)
		}
		// A cached answer that the batch must invalidate.
		assertBool(t, "before", mustCheck(t, c, "alice", "edit"), nil, false)
		rev, audits := revisionOf(t, az, c), auditCount(t, az, c)
		ops := []Operation{
			{Op: "add_role", Role: "editor", Description: "Edits"},
			{Op: "add_role", Role: "editor"},
			{Op: "add_permission", Role: "editor", Permission: "edit"},
			{Op: "add_membership", User: "alice", Role: "editor"},
			{Op: "set_description", Role: "old", Description: "Old role"},
			{Op: "del_permission", Role: "editor", Permission: "nothing"},
			{Op: "del_role", Role: "old"},
		}
		res, err := c.Batch(ctx, ops)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"created", "existed", "created", "created", "changed", "absent", "deleted"}
		for i, r := range res {
			if r.Op != ops[i].Op || r.Result != want[i] {
				t.Errorf("result %d = %+v, want %s %s", i, r, ops[i].Op, want[i])
			}
		}
		if got := revisionOf(t, az, c); got != rev+1 {
			t.Errorf("revision %d -> %d, want one bump", rev, got)
		}
		// One record per change, one for the two that changed nothing.
		if got := auditCount(t, az, c) - audits; got != len(ops)-1 {
			t.Errorf("%d audit records, want %d", got, len(ops)-1)
		}
		assertBool(t, "after", mustCheck(t, c, "alice", "edit"), nil, true)
		roles, err := c.Roles(ctx)
		if err != nil || len(roles) != 1 || roles[0] != (Role{Role: "editor", Description: "Edits"}) {
			t.Errorf("roles = %v, %v", roles, err)
		}
	})
}

func mustCheck(t testing.TB, c *Client, user, perm string) bool {
	t.Helper()
	ok, err := c.UserHasPermission(context.Background(), user, perm)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// TestBatchFailureStoresNothing: when one operation fails, none is stored,
// the revision stays, and the error names the operation.
func TestBatchFailureStoresNothing(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		rev := revisionOf(t, az, c)
		_, err := c.Batch(ctx, []Operation{
			{Op: "add_role", Role: "a"},
			{Op: "add_permission", Role: "a", Permission: "p"},
			{Op: "add_permission", Role: "missing", Permission: "p"},
		})
		var be *BatchError
		if !errors.As(err, &be) || be.Index != 2 || !errors.Is(err, ErrRoleNotFound) {
			t.Fatalf("err = %v, want operation 2 role not found", err)
		}
		roles, err := c.Roles(ctx)
		if err != nil || len(roles) != 0 {
			t.Errorf("roles after a failed batch = %v, %v", roles, err)
		}
		if got := revisionOf(t, az, c); got != rev {
			t.Errorf("revision moved %d -> %d", rev, got)
		}
		if _, err := c.Batch(ctx, make([]Operation, MaxBatchOperations+1)); !errors.Is(err, errBadRequest) {
			t.Errorf("a batch over the limit: err = %v", err)
		}
		for _, bad := range []Operation{
			{Op: "frobnicate", Role: "a"},
			{Op: "add_role", Role: " a"},
			{Op: "add_role", Role: "a", Permission: "p"},
			{Op: "add_permission", Role: "a"},
		} {
			if _, err := c.Batch(ctx, []Operation{bad}); !errors.As(err, &be) || be.Index != 0 {
				t.Errorf("%+v: err = %v, want a refusal of operation 0", bad, err)
			}
		}
	})
}

// TestRESTBatch: POST /api/batch answers per-operation results, 201 when
// it created something and 200 when it did not, as every POST; a failure
// is the status of its cause with the operation's index (counting from
// 0); a bad body 400.
func TestRESTBatch(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, _ := openREST(t, target, nil)
		e := newTestRouter(t, az, "")
		key := newKey()
		w := performRequest(e, "POST", "/api/batch", key, strings.NewReader(
			`{"operations":[{"op":"add_role","role":"r"},{"op":"add_permission","role":"r","permission":"p"},{"op":"add_membership","user":"u","role":"r"}]}`))
		body := checkEnvelope(t, w, http.StatusCreated)
		results := body["data"].(map[string]any)["results"].([]any)
		if len(results) != 3 || results[2].(map[string]any)["result"] != "created" {
			t.Errorf("results = %v", results)
		}
		// Nothing created: 200, whether everything existed or the batch
		// only changed or deleted.
		for _, ops := range []string{
			`{"op":"add_role","role":"r"},{"op":"add_membership","user":"u","role":"r"}`,
			`{"op":"set_description","role":"r","description":"d"},{"op":"del_permission","role":"r","permission":"gone"}`,
			``,
		} {
			w = performRequest(e, "POST", "/api/batch", key, strings.NewReader(`{"operations":[`+ops+`]}`))
			checkEnvelope(t, w, http.StatusOK)
		}
		// One created among existing ones: 201.
		w = performRequest(e, "POST", "/api/batch", key, strings.NewReader(
			`{"operations":[{"op":"add_role","role":"r"},{"op":"add_inheritance","role":"r","parent":"q"}]}`))
		checkEnvelope(t, w, http.StatusNotFound) // q does not exist
		w = performRequest(e, "POST", "/api/batch", key, strings.NewReader(
			`{"operations":[{"op":"add_role","role":"r"},{"op":"add_membership","user":"v","role":"r"}]}`))
		checkEnvelope(t, w, http.StatusCreated)
		w = performRequest(e, "GET", "/api/has_permission/u/p", key, nil)
		if d := checkEnvelope(t, w, 200)["data"].(map[string]any); d["result"] != true {
			t.Errorf("has_permission after batch = %v", d)
		}
		w = performRequest(e, "POST", "/api/batch", key, strings.NewReader(
			`{"operations":[{"op":"add_role","role":"s"},{"op":"add_permission","role":"nope","permission":"p"}]}`))
		body = checkEnvelope(t, w, 404)
		if msg := body["error"].(string); !strings.Contains(msg, "operation 1 (add_permission)") {
			t.Errorf("error = %q", msg)
		}
		w = performRequest(e, "GET", "/api/roles", key, nil)
		if d := checkEnvelope(t, w, 200)["data"].([]any); len(d) != 1 {
			t.Errorf("roles after failed batch = %v", d)
		}
		for _, bad := range []string{``, `[]`, `{"operations":[{"op":"add_role"}]}`, `{"operations":[],"x":1}`, `{"operations":[{"op":"add_role","role":"a","colour":"red"}]}`} {
			w = performRequest(e, "POST", "/api/batch", key, strings.NewReader(bad))
			checkEnvelope(t, w, 400)
		}
		big := `{"operations":[` + strings.Repeat(`{"op":"add_role","role":"aaaaaaaaaa"},`, MaxBatchBodyBytes/36) + `{"op":"add_role","role":"b"}]}`
		w = performRequest(e, "POST", "/api/batch", key, strings.NewReader(big))
		checkEnvelope(t, w, 413)
		w = performRequest(e, "POST", "/api/batch", "", strings.NewReader(`{"operations":[]}`))
		checkEnvelope(t, w, 401)
	})
}

// TestBatchGrantsInBulk: grants to roles seen in the batch go in bulk and
// report exactly as one by one would: a grant given twice is created once,
// one that existed is "existed", with and without encryption.
func TestBatchGrantsInBulk(t *testing.T) {
	forEachStoreEncrypted(t, func(t *testing.T, az *Authz, encrypted bool) {
		{
			ctx := context.Background()
			c := mustClient(t, az, newKey())
			if _, err := c.Batch(ctx, []Operation{{Op: "add_role", Role: "old"}, {Op: "add_permission", Role: "old", Permission: "p1"}}); err != nil {
				t.Fatal(err)
			}
			ops := []Operation{
				{Op: "add_permission", Role: "old", Permission: "p0"}, // role checked here
				{Op: "add_permission", Role: "old", Permission: "p1"}, // existed
				{Op: "add_role", Role: "new"},
				{Op: "add_permission", Role: "new", Permission: "x"},
				{Op: "add_permission", Role: "new", Permission: "x"}, // twice
				{Op: "add_permission", Role: "old", Permission: "p2"},
				{Op: "del_role", Role: "new"},
				{Op: "add_permission", Role: "new", Permission: "y"}, // role gone
			}
			_, err := c.Batch(ctx, ops)
			var be *BatchError
			if !errors.As(err, &be) || be.Index != 7 || !errors.Is(err, ErrRoleNotFound) {
				t.Fatalf("encrypted=%v: err = %v, want operation 7 role not found", encrypted, err)
			}
			res, err := c.Batch(ctx, ops[:7])
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"created", "existed", "created", "created", "existed", "created", "deleted"}
			for i, r := range res {
				if r.Result != want[i] {
					t.Errorf("encrypted=%v: op %d (%+v) = %s, want %s", encrypted, i, ops[i], r.Result, want[i])
				}
			}
			perms, err := c.GetPermissions(ctx, "old")
			assertList(t, "old", perms, err, "p0", "p1", "p2")
		}
	})
}

// TestBatchRevokesInBulk: revokes in a batch go many per statement and
// report exactly as one by one would, in order with the grants around
// them: a revoke given twice deletes once, one from a role that does not
// exist is absent (not an error), and a grant, revoke, grant of one name
// ends granted; with and without encryption.
func TestBatchRevokesInBulk(t *testing.T) {
	forEachStoreEncrypted(t, func(t *testing.T, az *Authz, encrypted bool) {
		{
			ctx := context.Background()
			c := mustClient(t, az, newKey())
			if _, err := c.Batch(ctx, []Operation{{Op: "add_role", Role: "r"}, {Op: "add_role", Role: "s"},
				{Op: "add_permission", Role: "r", Permission: "p1"}, {Op: "add_permission", Role: "r", Permission: "p2"},
				{Op: "add_permission", Role: "s", Permission: "p3"}, {Op: "add_membership", User: "u", Role: "r"}}); err != nil {
				t.Fatal(err)
			}
			if ok, err := c.UserHasPermission(ctx, "u", "p2"); err != nil || !ok { // cached before the revokes
				t.Fatalf("u has p2 = %v, %v", ok, err)
			}
			ops := []Operation{
				{Op: "del_permission", Role: "r", Permission: "p1"},
				{Op: "del_permission", Role: "r", Permission: "p1"},     // twice
				{Op: "del_permission", Role: "ghost", Permission: "p1"}, // no such role
				{Op: "add_permission", Role: "r", Permission: "p1"},     // role checked here
				{Op: "del_permission", Role: "r", Permission: "p1"},
				{Op: "add_permission", Role: "r", Permission: "p1"}, // in bulk: r is known
				{Op: "del_permission", Role: "r", Permission: "p2"},
				{Op: "del_permission", Role: "s", Permission: "p3"},
			}
			res, err := c.Batch(ctx, ops)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"deleted", "absent", "absent", "created", "deleted", "created", "deleted", "deleted"}
			for i, r := range res {
				if r.Result != want[i] {
					t.Errorf("encrypted=%v: op %d (%+v) = %s, want %s", encrypted, i, ops[i], r.Result, want[i])
				}
			}
			perms, err := c.GetPermissions(ctx, "r")
			assertList(t, "r", perms, err, "p1")
			perms, err = c.GetPermissions(ctx, "s")
			assertList(t, "s", perms, err)
			for perm, want := range map[string]bool{"p1": true, "p2": false} {
				if ok, err := c.UserHasPermission(ctx, "u", perm); err != nil || ok != want {
					t.Errorf("encrypted=%v: after the batch, u has %s = %v, %v; want %v", encrypted, perm, ok, err, want)
				}
			}
		}
	})
}
