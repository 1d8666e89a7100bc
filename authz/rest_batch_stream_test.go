package authz

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// streamBody is n operations as newline-delimited JSON: roles r0.., a
// grant and a scoped membership each (three operations a role).
func streamBody(roles int) string {
	var b strings.Builder
	for i := 0; i < roles; i++ {
		fmt.Fprintf(&b, "{\"op\":\"add_role\",\"role\":\"r%d\"}\n{\"op\":\"add_permission\",\"role\":\"r%d\",\"permission\":\"p%d\"}\n\n{\"op\":\"add_membership\",\"user\":\"u%d\",\"role\":\"r%d\",\"scope\":\"s%d\"}\n", i, i, i%50, i, i, i%7)
	}
	return b.String()
}

// TestRESTBatchStream: POST /api/batch/stream takes newline-delimited
// operations past what one chunk holds, runs them in one transaction (201
// with the count of each result, then 200 when nothing is new), audits
// each change and the unchanged once, and when one operation fails (here
// the last) stores nothing and names it by its index in the whole stream.
// A line that is not an operation is refused naming the line.
func TestRESTBatchStream(t *testing.T) {
	forEachRESTStore(t, func(t *testing.T, target storagetest.Target, az *Authz, _ *logBuffer) {
		e := newTestRouter(t, az, "")
		key := newKey()
		const roles = 2500 // 7,500 operations: two chunks
		w := performRequest(e, "POST", "/api/batch/stream", key, strings.NewReader(streamBody(roles)))
		data, _ := checkEnvelope(t, w, 201)["data"].(map[string]any)
		res, _ := data["results"].(map[string]any)
		if fmt.Sprint(data["operations"]) != fmt.Sprint(3*roles) || fmt.Sprint(res["created"]) != fmt.Sprint(3*roles) || w.Header().Get("Rolegate-Revision") == "" {
			t.Fatalf("data %v, headers %v", data, w.Header())
		}
		cl, _ := az.Client(key)
		other := newKey()
		otherCl, _ := az.Client(other)
		ctx := context.Background()
		if ok, err := cl.UserHasPermission(ctx, "u2499", "p49"); err != nil || ok {
			t.Errorf("u2499 p49 globally: %v %v", ok, err)
		}
		if ok, err := cl.UserHasPermissionIn(ctx, "s0", "u2499", "p49"); err != nil || !ok {
			t.Errorf("u2499 p49 in s0: %v %v", ok, err)
		}
		w = performRequest(e, "POST", "/api/batch/stream", key, strings.NewReader(streamBody(roles)))
		data, _ = checkEnvelope(t, w, 200)["data"].(map[string]any)
		if res, _ := data["results"].(map[string]any); fmt.Sprint(res["existed"]) != fmt.Sprint(3*roles) {
			t.Errorf("again: %v", data)
		}
		audit, err := cl.AuditRecords(ctx, "", 0, 10)
		if err != nil || len(audit) == 0 || audit[0].Outcome != fmt.Sprintf("unchanged: %d operations", 3*roles) {
			t.Errorf("audit %+v %v", audit, err)
		}

		// All or nothing: the last operation grants to a role that does not
		// exist.
		body := streamBody(roles) + `{"op":"add_permission","role":"nobody","permission":"p"}` + "\n"
		w = performRequest(e, "POST", "/api/batch/stream", other, strings.NewReader(body))
		msg, _ := checkEnvelope(t, w, 404)["error"].(string)
		if !strings.Contains(msg, fmt.Sprintf("operation %d (add_permission)", 3*roles)) {
			t.Errorf("error %q", msg)
		}
		if rs, err := otherCl.Roles(ctx); err != nil || len(rs) != 0 {
			t.Errorf("a failed stream stored %d roles (%v)", len(rs), err)
		}
		for _, c := range []struct{ body, want string }{
			{"{\"op\":\"add_role\",\"role\":\"a\"}\nnot json\n", "line 2 is not one JSON object"},
			{"{\"op\":\"add_role\",\"role\":\"a\"}\n[1]\n", "line 2 is not one JSON object"},
			{"{\"op\":\"add_role\",\"role\":\"a\",\"colour\":\"red\"}\n", "operation 0"},
			{"{\"op\":\"add_role\",\"role\":\"a/b\"}\n", "operation 0 (add_role)"},
			{"{\"op\":\"add_role\",\"role\":\"" + strings.Repeat("x", 70<<10) + "\"}\n", "line 1 is over 65536 bytes"},
		} {
			w := performRequest(e, "POST", "/api/batch/stream", other, strings.NewReader(c.body))
			msg, _ := checkEnvelope(t, w, 400)["error"].(string)
			if !strings.Contains(msg, c.want) {
				t.Errorf("%.60q: %q, want %q", c.body, msg, c.want)
			}
		}
		if rs, _ := otherCl.Roles(ctx); len(rs) != 0 {
			t.Errorf("refused streams stored %v", rs)
		}
	})
}

// TestRESTBatchStreamOpenModeQuota: in open mode a stream is held to the
// client's row quota, counted exactly in its transaction, and its body to
// the bytes all clients' batch bodies may hold: past either, nothing is
// stored.
func TestRESTBatchStreamOpenModeQuota(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, _ := openREST(t, target, func(c *Config) { c.MaxRowsPerClient = 1000 })
		e := newTestRouter(t, az, "")
		key := newKey()
		w := performRequest(e, "POST", "/api/batch/stream", key, strings.NewReader(streamBody(400)))
		msg, _ := checkEnvelope(t, w, 507)["error"].(string)
		if !strings.Contains(msg, "1000") {
			t.Errorf("error %q", msg)
		}
		cl, _ := az.Client(key)
		if rs, err := cl.Roles(context.Background()); err != nil || len(rs) != 0 {
			t.Errorf("stored %d roles past the quota (%v)", len(rs), err)
		}
		w = performRequest(e, "POST", "/api/batch/stream", key, strings.NewReader(streamBody(300)))
		checkEnvelope(t, w, 201)

		// The body's bytes are taken through the open mode's gate as they
		// come: past what all clients' batch bodies may hold (32 MiB), 429,
		// and nothing of it stored or kept.
		line := `{"op":"add_role","role":"` + strings.Repeat("x", 100) + `"}` + "\n"
		big := strings.Repeat(line, (maxBatchBodyBytesHeld+1<<20)/len(line))
		other := newKey()
		w = performRequest(e, "POST", "/api/batch/stream", other, strings.NewReader(big))
		checkEnvelope(t, w, 429)
		ocl, _ := az.Client(other)
		if rs, err := ocl.Roles(context.Background()); err != nil || len(rs) != 0 {
			t.Errorf("stored %d roles past the body bound (%v)", len(rs), err)
		}
	})
}
