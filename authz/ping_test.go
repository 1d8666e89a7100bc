package authz

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// pingBody is GET /ping's data, checked to be the envelope around exactly
// the documented fields.
func pingBody(t *testing.T, az *Authz, e http.Handler) map[string]any {
	t.Helper()
	w := performRequest(e, "GET", "/ping", "", nil)
	body := checkEnvelope(t, w, 200)
	data, ok := body["data"].(map[string]any)
	if !ok {
		t.Fatalf("data = %v", body["data"])
	}
	want := []string{"revision_lag", "status", "store"}
	if az.db.Dialect().Name().String() == "pg" {
		want = []string{"listener", "revision_lag", "status", "store"}
	}
	if got := slices.Sorted(func(yield func(string) bool) {
		for k := range data {
			if !yield(k) {
				return
			}
		}
	}); !slices.Equal(got, want) {
		t.Fatalf("data fields %v, want %v", got, want)
	}
	return data
}

// TestPingData: /ping says the store answered, the listener is live (on
// PostgreSQL, where Open returns once it is), and no replica is behind;
// nothing of the store's address or location.
func TestPingData(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, _ := openREST(t, target, nil)
		e := newTestRouter(t, az, "")
		w := performRequest(e, "GET", "/ping", "", nil)
		data := pingBody(t, az, e)
		if data["status"] != "ok" || data["store"] != true || data["revision_lag"] != json.Number("0") {
			t.Errorf("data %v", data)
		}
		if target.Name == "postgresql" && data["listener"] != true {
			t.Errorf("listener %v right after Open", data["listener"])
		}
		var secrets []string
		if u, err := url.Parse(target.Config.PostgreSQLURL); err == nil && u.Host != "" {
			secrets = append(secrets, u.Host, u.Hostname(), u.User.Username(), strings.TrimPrefix(u.Path, "/"))
		}
		if target.Config.SQLitePath != "" {
			secrets = append(secrets, target.Config.SQLitePath, "sqlite")
		}
		for _, s := range secrets {
			if s != "" && strings.Contains(w.Body.String(), s) {
				t.Errorf("/ping tells %q: %s", s, w.Body.String())
			}
		}
	})
}

// TestPingProbeReused: within Config.pingCache, /ping answers from its last
// probe without going to the store (here: a store closed since still reads
// as reachable), so /ping cannot be used to load the database.
func TestPingProbeReused(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), func(c *Config) { c.pingCache = time.Minute })
	e := newTestRouter(t, az, "")
	pingBody(t, az, e)
	az.db.Close()
	if data := pingBody(t, az, e); data["store"] != true {
		t.Errorf("data %v", data)
	}
	// Past the reuse window the closed store shows.
	az.ping.mu.Lock()
	az.ping.at = time.Now().Add(-2 * time.Minute)
	az.ping.mu.Unlock()
	checkEnvelope(t, performRequest(e, "GET", "/ping", "", nil), 503)
}

// TestPingRevisionLag: a replica whose cache has not seen another
// replica's writes says how many revisions it is behind; its own writes do
// not count; once its revision check runs it is back to 0.
func TestPingRevisionLag(t *testing.T) {
	target := storagetest.SQLite(t) // no listener: only the periodic check catches up
	quiet := func(c *Config) { c.RevisionCheckInterval = time.Hour; c.pingCache = -1 }
	a := openTarget(t, target, quiet)
	b, _ := openREST(t, target, quiet)
	e := newTestRouter(t, b, "")
	ctx := context.Background()
	key := newKey()
	ca, cb := mustClient(t, a, key), mustClient(t, b, key)
	for _, err := range []error{
		second(cb.AddRole(ctx, "editor", "")), second(cb.AddPermission(ctx, "editor", "edit")),
		second(cb.AddMembership(ctx, "sara", "editor")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	ok, err := cb.UserHasPermission(ctx, "sara", "edit") // b's cache now holds something
	assertBool(t, "check on b", ok, err, true)
	if lag := pingBody(t, b, e)["revision_lag"]; lag != json.Number("0") {
		t.Fatalf("lag %v after b's own writes", lag)
	}
	if _, err := ca.AddRole(ctx, "viewer", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := ca.AddRole(ctx, "auditor", ""); err != nil {
		t.Fatal(err)
	}
	if lag := pingBody(t, b, e)["revision_lag"]; lag != json.Number("2") {
		t.Errorf("lag %v after two writes on a, want 2", lag)
	}
	if _, err := cb.AddRole(ctx, "owner", ""); err != nil { // ours: above the gap, not counted
		t.Fatal(err)
	}
	if lag := pingBody(t, b, e)["revision_lag"]; lag != json.Number("2") {
		t.Errorf("lag %v after b's own write above the gap, want 2", lag)
	}
	b.feed.Check(ctx, nil)
	if lag := pingBody(t, b, e)["revision_lag"]; lag != json.Number("0") {
		t.Errorf("lag %v after the revision check, want 0", lag)
	}
}

func second[T any](_ T, err error) error { return err }

// TestPingListener: on PostgreSQL, /ping says when the change listener's
// connection is lost (still 200: the periodic check keeps the cache
// right), and when it is back.
func TestPingListener(t *testing.T) {
	target := storagetest.PostgreSQL(t)
	appName := "rolegate_ping_" + strings.ReplaceAll(newKey()[:8], "-", "")
	named := target
	named.Config.PostgreSQLURL += "&application_name=" + appName
	az, _ := openREST(t, named, func(c *Config) { c.pingCache = -1 })
	e := newTestRouter(t, az, "")
	if l := pingBody(t, az, e)["listener"]; l != true {
		t.Fatalf("listener %v after Open", l)
	}
	killListener(t, az.db, appName)
	// The listener is down for its reconnection backoff (100 ms): watched
	// through the flag /ping reads, which is cheaper to poll than /ping.
	sawDown := false
	eventually(t, 10*time.Second, "the listener lost, then back", func() bool {
		live := az.feed.Live()
		sawDown = sawDown || !live
		return sawDown && live
	})
	if l := pingBody(t, az, e)["listener"]; l != true {
		t.Errorf("listener %v once back", l)
	}
	// What /ping says while it is down, without racing the reconnection.
	az.feed.Unsubscribed(errors.New("connection reset"), time.Minute)
	if l := pingBody(t, az, e)["listener"]; l != false {
		t.Errorf("listener %v while down", l)
	}
}
