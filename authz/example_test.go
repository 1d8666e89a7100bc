package authz_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
	_ "github.com/rolegate/rolegate/authz/sqlite" // the SQLite default, as a host links it
	"github.com/rolegate/rolegate/middleware"
)

// hostKey is the host app's client key in these examples (AUTH_CLIENT_KEY).
const hostKey = "6f1c2e9a-3b4d-4c5e-9f60-718293a4b5c6"

// openExample opens rolegate on a fresh SQLite file, as a host would with
// its own settings; the returned func closes it and removes the file.
func openExample(mod func(*authz.Config)) (*authz.Authz, func()) {
	dir, err := os.MkdirTemp("", "rolegate-example")
	if err != nil {
		panic(err)
	}
	cfg := authz.Config{
		SQLitePath: filepath.Join(dir, "auth.sqlite3"),
		ClientKey:  hostKey,
		Resolver:   middleware.HeaderResolver("X-User"),
		Logger:     quiet,
	}
	if mod != nil {
		mod(&cfg)
	}
	az, err := authz.Open(context.Background(), cfg)
	if err != nil {
		panic(err)
	}
	return az, func() { az.Close(); os.RemoveAll(dir) }
}

// get sends GET path as user through h and prints the status.
func get(h http.Handler, path, user string) {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if user != "" {
		req.Header.Set("X-User", user)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	var env middleware.ErrorBody
	if json.Unmarshal(w.Body.Bytes(), &env) == nil && env.Error != "" {
		fmt.Println(user, w.Code, env.Error) // rolegate's envelope; its timestamp varies
		return
	}
	fmt.Println(user, w.Code, w.Body.String())
}

// quiet drops the examples' logs (the startup line, request lines).
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// seed makes sara an editor (read, edit) and jack a reader (read).
func seed(c *authz.Client) {
	ctx := context.Background()
	c.AddRole(ctx, "editor", "")
	c.AddPermission(ctx, "editor", "read")
	c.AddPermission(ctx, "editor", "edit")
	c.AddRole(ctx, "reader", "")
	c.AddPermission(ctx, "reader", "read")
	c.AddMembership(ctx, "sara", "editor")
	c.AddMembership(ctx, "jack", "reader")
}

func ExampleOpen() {
	// The zero Config means the defaults; here only the SQLite file and the
	// host's client key are set.
	az, done := openExample(nil)
	defer done()
	host, err := az.HostClient()
	if err != nil {
		panic(err) // authz.ErrNoClientKey without AUTH_CLIENT_KEY
	}
	created, err := host.AddRole(context.Background(), "editor", "Can edit notes")
	fmt.Println(created, err)
	// Output: true <nil>
}

func ExampleAuthz_Mount_group() {
	az, done := openExample(nil)
	defer done()
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	if err := az.Mount(r.Group("/auth")); err != nil {
		panic(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/auth/api/role/editor", nil)
	req.Header.Set("Authorization", "Bearer "+hostKey)
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	fmt.Println(w.Code)
	// Output: 201
}

func ExampleAuthz_RequirePermission() {
	az, done := openExample(nil)
	defer done()
	seed(mustHost(az))
	r := gin.New()
	r.GET("/notes", az.RequirePermission("edit"), func(c *gin.Context) { c.String(200, "ok") })
	get(r, "/notes", "sara")
	get(r, "/notes", "jack")
	// Output:
	// sara 200 ok
	// jack 403 insufficient permissions
}

func ExampleAuthz_RequireAnyPermission() {
	az, done := openExample(nil)
	defer done()
	seed(mustHost(az))
	r := gin.New()
	r.GET("/notes", az.RequireAnyPermission([]string{"edit", "read"}), func(c *gin.Context) { c.String(200, "ok") })
	get(r, "/notes", "jack")
	// Output: jack 200 ok
}

func ExampleAuthz_RequireAllPermissions() {
	az, done := openExample(nil)
	defer done()
	seed(mustHost(az))
	r := gin.New()
	r.GET("/notes", az.RequireAllPermissions([]string{"edit", "read"}), func(c *gin.Context) { c.String(200, "ok") })
	get(r, "/notes", "sara")
	// Output: sara 200 ok
}

func ExampleAuthz_RequireRole() {
	az, done := openExample(nil)
	defer done()
	seed(mustHost(az))
	r := gin.New()
	r.GET("/review", az.RequireRole("editor"), func(c *gin.Context) {
		user, _ := middleware.UserFrom(c)
		c.String(200, "hello "+user)
	})
	get(r, "/review", "sara")
	// Output: sara 200 hello sara
}

// The host's API answers errors as {"errors": {...}}: the refusal hook
// writes guards' refusals the same way, with rolegate's status.
func ExampleOnRefusal() {
	az, done := openExample(func(cfg *authz.Config) {
		cfg.OnRefusal = func(c *gin.Context, r authz.Refusal) {
			c.JSON(r.Status, gin.H{"errors": gin.H{"auth": r.Reason}})
		}
	})
	defer done()
	seed(mustHost(az))
	r := gin.New()
	r.GET("/notes", az.RequirePermission("edit"), func(c *gin.Context) { c.String(200, "ok") })
	get(r, "/notes", "jack")
	get(r, "/notes", "")
	// Output:
	// jack 403 {"errors":{"auth":"insufficient permissions"}}
	//  401 {"errors":{"auth":"authentication required"}}
}

// The library API of one client key.
func ExampleClient() {
	az, done := openExample(nil)
	defer done()
	ctx := context.Background()
	c, err := az.Client("0b7e3f0a-5c1d-4e2f-8a3b-9c4d5e6f7a8b")
	if err != nil {
		panic(err)
	}
	c.AddRole(ctx, "editor", "Can edit notes")
	c.AddPermission(ctx, "editor", "edit")
	c.AddMembership(ctx, "sara", "editor")
	ok, _ := c.UserHasPermission(ctx, "sara", "edit")
	users, _ := c.WhichUsersCan(ctx, "edit")
	_, err = c.AddMembership(ctx, "jack", "nosuch")
	fmt.Println(ok, users, err != nil)
	// Output: true [sara] true
}

// A write whose effect another replica must see first: its revision
// token comes back as a value, and a read given it catches up before it
// answers (here the same process; on another replica, the same calls).
func ExampleClient_Writes() {
	az, done := openExample(nil)
	defer done()
	ctx := context.Background()
	c := mustHost(az)
	c.AddRole(ctx, "editor", "")
	c.AddPermission(ctx, "editor", "edit")
	w, err := c.Writes().AddMembership(ctx, "sara", "editor")
	if err != nil {
		panic(err)
	}
	again, _ := c.Writes().AddMembership(ctx, "sara", "editor")
	ok, err := c.UserHasPermissionAt(ctx, w.Revision, "sara", "edit")
	fmt.Println(w.Changed, w.Revision, again.Changed, again.Revision, ok, err)
	// Output: true r3 false r3 true <nil>
}

func mustHost(az *authz.Authz) *authz.Client {
	c, err := az.HostClient()
	if err != nil {
		panic(err)
	}
	return c
}
