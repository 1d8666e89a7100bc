package authz

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// eventually polls cond until it holds or the deadline passes; the
// deadline is the assertion, the polling interval is not.
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func checkIs(t *testing.T, c *Client, user, perm string, want bool) {
	t.Helper()
	got, err := c.UserHasPermission(context.Background(), user, perm)
	if err != nil || got != want {
		t.Fatalf("UserHasPermission(%s, %s) = %v, %v; want %v", user, perm, got, err, want)
	}
}

// Every kind of change is visible to the very next check in the process.
func TestCacheStalenessInProcess(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		c.AddRole(ctx, "editor", "")
		checkIs(t, c, "sara", "edit", false)
		c.AddPermission(ctx, "editor", "edit")
		checkIs(t, c, "sara", "edit", false)
		c.AddMembership(ctx, "sara", "editor")
		checkIs(t, c, "sara", "edit", true)
		c.DelPermission(ctx, "editor", "edit")
		checkIs(t, c, "sara", "edit", false)
		c.AddPermission(ctx, "editor", "edit")
		checkIs(t, c, "sara", "edit", true)
		c.DelMembership(ctx, "sara", "editor")
		checkIs(t, c, "sara", "edit", false)
		c.AddMembership(ctx, "sara", "editor")
		checkIs(t, c, "sara", "edit", true)
		if ok, _ := c.UserHasRole(ctx, "sara", "editor"); !ok {
			t.Fatal("UserHasRole after AddMembership")
		}
		c.DelRole(ctx, "editor")
		checkIs(t, c, "sara", "edit", false)
		if ok, _ := c.UserHasRole(ctx, "sara", "editor"); ok {
			t.Fatal("UserHasRole after DelRole")
		}
		c.AddRole(ctx, "editor", "")
		checkIs(t, c, "sara", "edit", false)
	})
}

// A change made through one Open value reaches another on the same store:
// through NOTIFY on PostgreSQL (the revision check is slowed to a minute so
// only the notification can explain success), through the revision check
// on SQLite.
func TestCacheStalenessAcrossReplicas(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		// SQLite replicas only have the revision check; four a second keeps
		// them well inside the one-second bound.
		interval := 250 * time.Millisecond
		if target.Name == "postgresql" {
			interval = time.Minute
		}
		slow := func(cfg *Config) { cfg.RevisionCheckInterval = interval }
		a, b := openTarget(t, target, slow), openTarget(t, target, slow)
		ctx := context.Background()
		key := newKey()
		ca, cb := mustClient(t, a, key), mustClient(t, b, key)
		cb.AddRole(ctx, "editor", "")
		cb.AddPermission(ctx, "editor", "edit")
		time.Sleep(50 * time.Millisecond) // let a's listener subscribe
		changes := []struct {
			name  string
			write func()
			want  bool
		}{
			{"add_membership", func() { cb.AddMembership(ctx, "sara", "editor") }, true},
			{"del_permission", func() { cb.DelPermission(ctx, "editor", "edit") }, false},
			{"add_permission", func() { cb.AddPermission(ctx, "editor", "edit") }, true},
			{"del_membership", func() { cb.DelMembership(ctx, "sara", "editor") }, false},
			{"add_membership again", func() { cb.AddMembership(ctx, "sara", "editor") }, true},
			{"del_role", func() { cb.DelRole(ctx, "editor") }, false},
		}
		for _, ch := range changes {
			// Warm a's cache with the old answer first.
			ca.UserHasPermission(ctx, "sara", "edit")
			ch.write()
			start := time.Now()
			eventually(t, time.Second, "replica sees "+ch.name, func() bool {
				got, err := ca.UserHasPermission(ctx, "sara", "edit")
				return err == nil && got == ch.want
			})
			t.Logf("%s reached the other replica in %v", ch.name, time.Since(start).Round(time.Millisecond))
		}
	})
}

// Killing the listener's connection from the server flushes the cache;
// the listener comes back and notifications work again.
func TestListenerReconnects(t *testing.T) {
	target := storagetest.PostgreSQL(t)
	slow := func(cfg *Config) { cfg.RevisionCheckInterval = time.Minute }
	// Replica a gets an application name of its own, so the test kills its
	// listener and nobody else's.
	appName := "rolegate_test_" + strings.ReplaceAll(newKey()[:8], "-", "")
	named := target
	named.Config.PostgreSQLURL += "&application_name=" + appName
	a, b := openTarget(t, named, slow), openTarget(t, target, slow)
	ctx := context.Background()
	key := newKey()
	ca, cb := mustClient(t, a, key), mustClient(t, b, key)
	cb.AddRole(ctx, "editor", "")
	cb.AddPermission(ctx, "editor", "edit")
	cb.AddMembership(ctx, "sara", "editor")
	eventually(t, time.Second, "a sees the grant", func() bool {
		ok, _ := ca.UserHasPermission(ctx, "sara", "edit")
		return ok
	})
	// b's changes may still be arriving, and dropping what a just cached.
	eventually(t, 5*time.Second, "a's cache holds sara once b's changes arrived", func() bool {
		ok, _ := ca.UserHasPermission(ctx, "sara", "edit")
		return ok && ca.cache.Len() > 0
	})
	// The listener connects in the background; killListener waits for it.
	killListener(t, b.db, appName)
	eventually(t, 10*time.Second, "cache flushed after the listener was killed", func() bool {
		return ca.cache.Len() == 0
	})
	ca.UserHasPermission(ctx, "sara", "edit") // warm again
	eventually(t, 5*time.Second, "listener back and propagating", func() bool {
		cb.DelMembership(ctx, "sara", "editor")
		ok, err := ca.UserHasPermission(ctx, "sara", "edit")
		if err == nil && !ok {
			return true
		}
		cb.AddMembership(ctx, "sara", "editor")
		ca.UserHasPermission(ctx, "sara", "edit")
		return false
	})
}

// With the store unreachable, guards answer 503 and never 200 for a user
// whose permission was revoked; once it is back, checks work again without
// a restart.
func TestStoreDownFailsClosed(t *testing.T) {
	target := storagetest.PostgreSQL(t)
	u, _ := url.Parse(target.Config.PostgreSQLURL)
	proxy := newTCPProxy(t, u.Host)
	viaProxy := target
	pu := *u
	pu.Host = proxy.addr
	viaProxy.Config.PostgreSQLURL = pu.String()

	key := "6f1c2e9a-3b4d-4c5e-9f60-718293a4b5c6"
	user := "sara"
	a := openTarget(t, viaProxy, func(cfg *Config) {
		cfg.ClientKey = key
		cfg.RevisionCheckInterval = 100 * time.Millisecond
		cfg.Resolver = func(*gin.Context) (string, error) { return user, nil }
	})
	b := openTarget(t, target, nil)
	ctx := context.Background()
	cb := mustClient(t, b, key)
	cb.AddRole(ctx, "editor", "")
	cb.AddPermission(ctx, "editor", "edit")
	cb.AddMembership(ctx, "sara", "editor")

	r := gin.New()
	r.GET("/edit", a.RequirePermission("edit"), func(c *gin.Context) { c.Status(http.StatusOK) })
	status := func() int {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/edit", nil))
		return w.Code
	}
	eventually(t, 2*time.Second, "guard allows sara", func() bool { return status() == http.StatusOK })

	proxy.stop()
	cb.DelMembership(ctx, "sara", "editor") // revoked while a cannot hear
	deadline := time.Now().Add(2 * time.Second)
	saw503 := false
	for time.Now().Before(deadline) {
		switch s := status(); s {
		case http.StatusOK:
			// Allowed only until a notices the outage (one revision
			// check), never after: the revoke happened during it.
			if saw503 {
				t.Fatal("guard allowed a revoked user during the outage")
			}
		case http.StatusServiceUnavailable:
			saw503 = true
		case http.StatusForbidden:
			// Right answer from the store itself (a connection opened just
			// as the proxy stopped); never wrong.
		default:
			t.Fatalf("guard answered %d during the outage", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !saw503 {
		t.Fatal("guard never answered 503 with the store unreachable")
	}
	if _, err := mustClient(t, a, key).UserHasPermission(ctx, user, "edit"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("library check during outage: %v, want ErrUnavailable", err)
	}

	proxy.start()
	eventually(t, 5*time.Second, "guard answers 403 for the revoked user once the store is back", func() bool {
		return status() == http.StatusForbidden
	})
	user = "jack"
	cb.AddMembership(ctx, "jack", "editor")
	eventually(t, 2*time.Second, "guard allows a newly granted user", func() bool { return status() == http.StatusOK })
}

func TestGuards(t *testing.T) {
	target := storagetest.SQLite(t)
	key := newKey()
	az := openTarget(t, target, func(cfg *Config) {
		cfg.ClientKey = key
		cfg.Resolver = func(c *gin.Context) (string, error) {
			if u := c.GetHeader("X-User"); u != "" {
				return u, nil
			}
			return "", errors.New("no user")
		}
	})
	ctx := context.Background()
	c := mustHost(t, az)
	c.AddRole(ctx, "editor", "")
	c.AddPermission(ctx, "editor", "edit")
	c.AddPermission(ctx, "editor", "read")
	c.AddMembership(ctx, "sara", "editor")
	c.AddRole(ctx, "reader", "")
	c.AddPermission(ctx, "reader", "read")
	c.AddMembership(ctx, "jack", "reader")

	r := gin.New()
	var seen string
	h := func(c *gin.Context) {
		u, _ := middleware.UserFrom(c)
		seen = u
		c.Status(http.StatusOK)
	}
	r.GET("/perm", az.RequirePermission("edit"), h)
	r.GET("/any", az.RequireAnyPermission([]string{"edit", "read"}), h)
	r.GET("/all", az.RequireAllPermissions([]string{"edit", "read"}), h)
	r.GET("/role", az.RequireRole("reader"), h)
	if p := recoverPanic(func() { az.RequirePermission("bad/name") }); !strings.Contains(p, "invalid name") {
		t.Errorf("a guard on an invalid name panicked with %q at registration, want an invalid name", p)
	}

	for _, tc := range []struct {
		path, user string
		want       int
	}{
		{"/perm", "", 401}, {"/perm", "jack", 403}, {"/perm", "sara", 200},
		{"/any", "jack", 200}, {"/any", "nobody", 403},
		{"/all", "jack", 403}, {"/all", "sara", 200},
		{"/role", "jack", 200}, {"/role", "sara", 403},
	} {
		t.Run(strings.TrimPrefix(tc.path, "/")+"/"+tc.user, func(t *testing.T) {
			seen = ""
			req := httptest.NewRequest(http.MethodGet, tc.path, nil)
			if tc.user != "" {
				req.Header.Set("X-User", tc.user)
			}
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			if w.Code != tc.want {
				t.Fatalf("status %d, want %d: %s", w.Code, tc.want, w.Body)
			}
			if tc.want == 200 && seen != tc.user {
				t.Fatalf("handler saw user %q", seen)
			}
			if tc.want != 200 && !strings.Contains(w.Body.String(), `"success":false`) {
				t.Fatalf("refusal without the error envelope: %s", w.Body)
			}
			if tc.want == 401 && w.Header().Get("WWW-Authenticate") == "" {
				t.Fatal("401 without WWW-Authenticate")
			}
		})
	}
}

// TestGuardWithoutClientKeyStopsAtRegistration: without a host client key
// a guard cannot work; registering one panics with ErrNoClientKey's text
// (before: it logged and answered 500 for ever), and HostClient returns
// it instead of a nil handle.
func TestGuardWithoutClientKeyStopsAtRegistration(t *testing.T) {
	az := openTarget(t, storagetest.SQLite(t), nil)
	if c, err := az.HostClient(); c != nil || !errors.Is(err, ErrNoClientKey) {
		t.Fatalf("HostClient = %v, %v; want ErrNoClientKey", c, err)
	}
	for name, build := range map[string]func(){
		"RequirePermission":     func() { az.RequirePermission("edit") },
		"RequireAnyPermission":  func() { az.RequireAnyPermission([]string{"edit"}) },
		"RequireAllPermissions": func() { az.RequireAllPermissions([]string{"edit"}) },
		"RequireRole":           func() { az.RequireRole("editor") },
	} {
		if p := recoverPanic(build); !strings.Contains(p, "AUTH_CLIENT_KEY") {
			t.Errorf("%s without a key panicked with %q, want the AUTH_CLIENT_KEY hint", name, p)
		}
	}
}

// recoverPanic runs f and returns what it panicked with, as text ("" when
// it did not panic).
func recoverPanic(f func()) (p string) {
	defer func() {
		if r := recover(); r != nil {
			p = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// Concurrent checks and writes: run with -race. Every answer must be one
// that was true at some point (the grant toggles), and the final answer
// must match the final state.
func TestConcurrentChecksAndWrites(t *testing.T) {
	forEachStore(t, func(t *testing.T, az *Authz) {
		ctx := context.Background()
		c := mustClient(t, az, newKey())
		c.AddRole(ctx, "r", "")
		c.AddPermission(ctx, "r", "p")
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for i := range 4 {
			repeatUntil(stop, &wg, func() bool {
				if _, err := c.UserHasPermission(ctx, fmt.Sprintf("u%d", i%2), "p"); err != nil {
					t.Error(err)
					return false
				}
				return true
			})
		}
		for i := range 30 {
			if i%2 == 0 {
				c.AddMembership(ctx, "u0", "r")
			} else {
				c.DelMembership(ctx, "u0", "r")
			}
			if i%5 == 0 {
				c.DelPermission(ctx, "r", "p")
				c.AddPermission(ctx, "r", "p")
			}
		}
		close(stop)
		wg.Wait()
		// 30 toggles end with the membership removed.
		checkIs(t, c, "u0", "p", false)
		c.AddMembership(ctx, "u0", "r")
		checkIs(t, c, "u0", "p", true)
	})
}

func TestCacheIsBounded(t *testing.T) {
	az := openTarget(t, storagetest.SQLite(t), func(cfg *Config) { cfg.CacheMaxUsers = 100 })
	c := mustClient(t, az, newKey())
	ctx := context.Background()
	c.AddRole(ctx, "r", "")
	c.AddPermission(ctx, "r", "p")
	c.AddMembership(ctx, "keep", "r")
	for i := range 2000 {
		c.UserHasPermission(ctx, fmt.Sprintf("random-%d", i), "p")
		c.UserHasPermission(ctx, "keep", "p") // recently used
	}
	if n := c.cache.Len(); n > 100+64 {
		t.Fatalf("cache holds %d users with a bound of 100", n)
	}
	if c.cache.InternUser("keep") == nil {
		t.Fatal("the most recently used user was evicted")
	}
	// Invalid names never enter the cache.
	before := c.cache.Len()
	for i := range 100 {
		c.UserHasPermission(ctx, fmt.Sprintf("bad/%d", i), "p")
	}
	if c.cache.Len() > before {
		t.Fatal("invalid user names were cached")
	}
}

// A listener connection that goes silent without closing (half-open) is
// found by the listener's own ping, and the cache is flushed; the revision
// check is slowed to a minute so that only the ping can explain it.
func TestListenerHalfOpenIsDetected(t *testing.T) {
	target := storagetest.PostgreSQL(t)
	u, _ := url.Parse(target.Config.PostgreSQLURL)
	proxy := newTCPProxy(t, u.Host)
	via := target
	pu := *u
	pu.Host = proxy.addr
	via.Config.PostgreSQLURL = pu.String()
	cfg := configFor(via)
	cfg.RevisionCheckInterval = time.Minute
	cfg.listenerQuiet = 300 * time.Millisecond
	ctx := context.Background()
	az, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proxy.frozen.Store(false); az.Close() })
	c := mustClient(t, az, newKey())
	c.AddRole(ctx, "r", "")
	c.AddPermission(ctx, "r", "p")
	c.AddMembership(ctx, "sara", "r")
	checkIs(t, c, "sara", "p", true)
	if c.cache.Len() == 0 {
		t.Fatal("nothing cached")
	}
	proxy.frozen.Store(true)
	// The ping's own timeouts are short here, but a revision re-read that
	// was in flight when the line went silent waits out its 5 s first.
	eventually(t, 15*time.Second, "cache flushed after the listener went silent", func() bool {
		return c.cache.Len() == 0
	})
}
