package authz

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/prommetrics"
	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/samples"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// withEverything turns on every optional route: login, samples, CORS.
func withEverything(c *Config) {
	c.OAuthProviders = []loginx.ProviderConfig{{Name: "test", Issuer: "http://127.0.0.1:1", ClientIDs: []string{"app"}}}
	c.Login = loginx.Start
	c.JWTSecretKey = "0123456789abcdef0123456789abcdef-mount"
	c.Samples = samples.Config{Username: "demo", Password: "secret", APIKey: "sample-key"}
	c.DisableCORS = false
	c.CORSOrigins = []string{"*"}
	c.EnableMetrics = true
	c.Observer = prommetrics.New(nil)
}

// TestRESTHostUntouched: Mount adds nothing to the host's own routes, its
// middleware or its 404 and 405 handling.
func TestRESTHostUntouched(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), nil)
	e := gin.New()
	e.GET("/hello", func(c *gin.Context) { c.String(200, "hi") })
	if err := az.Mount(e); err != nil {
		t.Fatal(err)
	}
	e.GET("/later", func(c *gin.Context) { c.String(200, "later") })

	for _, path := range []string{"/hello", "/later"} {
		w := performRequest(e, "GET", path, "", nil, "Origin", "https://elsewhere.example")
		if w.Code != 200 || w.Header().Get("X-Request-ID") != "" || w.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("host route %s got rolegate's middleware: %d %v", path, w.Code, w.Header())
		}
	}
	// Without the opt-in handlers, unknown paths get gin's plain 404 and
	// a wrong method gin's 404 as well (HandleMethodNotAllowed is off).
	for _, path := range []string{"/nope", "/api/nope"} {
		w := performRequest(e, "GET", path, "", nil)
		if w.Code != 404 || w.Body.String() != "404 page not found" {
			t.Errorf("GET %s = %d %q, want gin's default 404", path, w.Code, w.Body.String())
		}
	}
	// The RBAC routes demand the key; a host route under /api would not.
	checkEnvelope(t, performRequest(e, "GET", "/api/roles", "", nil), 401)
}

// TestRESTOptInHandlers: NotFoundHandler and MethodNotAllowedHandler answer
// with the envelope under rolegate's mount points only, at the root and
// under a prefix.
func TestRESTOptInHandlers(t *testing.T) {
	for _, prefix := range []string{"", "/auth"} {
		t.Run("prefix "+prefix, func(t *testing.T) {
			az, _ := openREST(t, storagetest.SQLite(t), nil)
			e := newTestRouter(t, az, prefix)
			e.GET("/hello", func(c *gin.Context) { c.String(200, "hi") })
			for _, path := range []string{"/api", "/api/nope", "/api/role", "/api/role/a/b/c", "/ping/x", "/openapi.json/x"} {
				checkEnvelope(t, performRequest(e, "GET", prefix+path, newKey(), nil), http.StatusNotFound)
			}
			for _, path := range []string{"/nope", "/apix", "/pingx", prefix + "/hello/x"} {
				if prefix != "" && path == "/nope" {
					path = "/api/roles" // outside the prefix: the host's
				}
				w := performRequest(e, "GET", path, "", nil)
				if w.Code != 404 || w.Body.String() != "404 page not found" {
					t.Errorf("GET %s = %d %q, want gin's default 404", path, w.Code, w.Body.String())
				}
			}
			w := performRequest(e, "PUT", prefix+"/api/roles", newKey(), nil)
			checkEnvelope(t, w, http.StatusMethodNotAllowed)
			if allow := w.Header().Get("Allow"); !strings.Contains(allow, "GET") {
				t.Errorf("Allow = %q", allow)
			}
			w = performRequest(e, "POST", "/hello", "", nil)
			if w.Code != 405 || w.Body.String() != "405 method not allowed" {
				t.Errorf("POST /hello = %d %q, want gin's default 405", w.Code, w.Body.String())
			}
		})
	}
}

// TestRESTOpenAPICoversRoutes: every route a Mount registers is in the
// /openapi.json it serves, and everything in it is registered: fully
// configured, bare (no login, no samples: their routes are not listed),
// and with CORS off (no OPTIONS operations).
func TestRESTOpenAPICoversRoutes(t *testing.T) {
	for name, tc := range map[string]struct {
		mod func(*Config)
		min int
	}{
		"everything": {withEverything, 30},
		"bare":       {nil, 20},
		"no cors":    {func(c *Config) { c.DisableCORS = true }, 10},
	} {
		t.Run(name, func(t *testing.T) { testOpenAPICoversRoutes(t, tc.mod, tc.min) })
	}
}

func testOpenAPICoversRoutes(t *testing.T, mod func(*Config), min int) {
	az, _ := openREST(t, storagetest.SQLite(t), mod)
	e := newTestRouter(t, az, "")
	param := regexp.MustCompile(`:([A-Za-z_]+)`)
	mounted := map[string]bool{}
	for _, r := range e.Routes() {
		mounted[r.Method+" "+param.ReplaceAllString(r.Path, "{$1}")] = true
	}
	var doc struct {
		OpenAPI string                               `json:"openapi"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
	}
	w := performRequest(e, "GET", "/openapi.json", "", nil)
	if w.Code != 200 {
		t.Fatalf("GET /openapi.json = %d", w.Code)
	}
	if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.0") {
		t.Errorf("openapi = %q", doc.OpenAPI)
	}
	documented := map[string]bool{}
	ids := map[string]bool{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			documented[strings.ToUpper(method)+" "+path] = true
			id, _ := op["operationId"].(string)
			if id == "" || ids[id] {
				t.Errorf("%s %s: operationId %q missing or repeated", method, path, id)
			}
			ids[id] = true
			if _, ok := op["responses"]; !ok {
				t.Errorf("%s %s has no responses", method, path)
			}
		}
	}
	for r := range mounted {
		if !documented[r] {
			t.Errorf("mounted but not in openapi.json: %s", r)
		}
	}
	for r := range documented {
		if !mounted[r] {
			t.Errorf("in openapi.json but not mounted: %s", r)
		}
	}
	if len(mounted) < min {
		t.Errorf("only %d routes mounted", len(mounted))
	}
}

func TestRESTOpenAPIUnderPrefix(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), nil)
	e := newTestRouter(t, az, "/auth")
	w := performRequest(e, "GET", "/auth/openapi.json", "", nil)
	var doc struct {
		Servers []struct{ URL string } `json:"servers"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil || len(doc.Servers) != 1 || doc.Servers[0].URL != "/auth" {
		t.Errorf("servers = %+v (%v)", doc.Servers, err)
	}
}

// TestRESTLoginAndSamplesWithoutClientKey: the login and sample routes are
// mounted when configured and do not take a client key.
func TestRESTLoginAndSamplesWithoutClientKey(t *testing.T) {
	az, logs := openREST(t, storagetest.SQLite(t), withEverything)
	e := newTestRouter(t, az, "")
	w := performRequest(e, "POST", "/api/v1/login", "", strings.NewReader(`{`), "Content-Type", "application/json")
	if w.Code != 400 || !strings.Contains(w.Body.String(), `"status":"error"`) {
		t.Errorf("POST /api/v1/login = %d %s, want loginx's 400", w.Code, w.Body.String())
	}
	req := newRequest("GET", "/api/ping", "", nil)
	req.SetBasicAuth("demo", "secret")
	if w := serve(e, req); w.Code != 200 || w.Header().Get("X-Request-ID") == "" {
		t.Errorf("GET /api/ping = %d %s, want 200 through rolegate's chain", w.Code, w.Body.String())
	}
	w = performRequest(e, "GET", "/api/test", "", nil)
	if w.Code != 401 || !strings.HasPrefix(w.Header().Get("WWW-Authenticate"), "Basic") {
		t.Errorf("GET /api/test without credentials = %d, WWW-Authenticate %q", w.Code, w.Header().Get("WWW-Authenticate"))
	}
	if strings.Contains(logs.String(), "are disabled") {
		t.Errorf("samples hint logged although the samples are enabled")
	}
}

func TestRESTSamplesHintOnce(t *testing.T) {
	az, logs := openREST(t, storagetest.SQLite(t), nil)
	newTestRouter(t, az, "/auth")
	newTestRouter(t, az, "/other")
	// The hint names the routes where this Mount would have put them.
	hint := "level=INFO msg=\"sample routes GET /auth/api/ping and GET /auth/api/test are disabled"
	if n := strings.Count(logs.String(), hint); n != 1 {
		t.Errorf("samples hint naming the mount path logged %d times at Info, want once:\n%s", n, logs.String())
	}
	e := newTestRouter(t, az, "/third")
	if w := performRequest(e, "GET", "/third/api/ping", "", nil); w.Code != 404 {
		t.Errorf("disabled sample route answered %d", w.Code)
	}
}

// TestRESTCORS: preflights are answered on rolegate's routes, a foreign
// origin is refused with the envelope when origins are listed.
func TestRESTCORS(t *testing.T) {
	t.Run("any origin", func(t *testing.T) {
		az, _ := openREST(t, storagetest.SQLite(t), withEverything)
		e := newTestRouter(t, az, "")
		for _, path := range []string{"/api/roles", "/api/role/x", "/api/v1/login", "/api/ping", "/ping"} {
			w := performRequest(e, "OPTIONS", path, "", nil, "Origin", "https://app.example",
				"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "Authorization")
			if w.Code != http.StatusNoContent || w.Header().Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("preflight %s = %d %v", path, w.Code, w.Header())
			}
		}
		w := performRequest(e, "GET", "/api/roles", newKey(), nil, "Origin", "https://app.example")
		checkEnvelope(t, w, 200)
		if w.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("no CORS header on a simple request: %v", w.Header())
		}
		w = performRequest(e, "OPTIONS", "/api/role/x", "", nil)
		if w.Code != http.StatusNoContent || w.Header().Get("Allow") != "DELETE, GET, POST, PUT, OPTIONS" {
			t.Errorf("plain OPTIONS = %d, Allow %q", w.Code, w.Header().Get("Allow"))
		}
	})
	t.Run("listed origins", func(t *testing.T) {
		az, _ := openREST(t, storagetest.SQLite(t), func(c *Config) { c.CORSOrigins = []string{"https://app.example"} })
		e := newTestRouter(t, az, "")
		w := performRequest(e, "GET", "/api/roles", newKey(), nil, "Origin", "https://app.example")
		checkEnvelope(t, w, 200)
		if w.Header().Get("Access-Control-Allow-Origin") != "https://app.example" || w.Header().Get("Access-Control-Allow-Credentials") != "true" {
			t.Errorf("allowed origin headers: %v", w.Header())
		}
		checkEnvelope(t, performRequest(e, "GET", "/api/roles", newKey(), nil, "Origin", "https://evil.example"), http.StatusForbidden)
	})
	t.Run("off", func(t *testing.T) {
		az, _ := openREST(t, storagetest.SQLite(t), func(c *Config) { c.DisableCORS = true })
		e := newTestRouter(t, az, "")
		for _, r := range e.Routes() {
			if r.Method == "OPTIONS" {
				t.Errorf("OPTIONS route with CORS off: %s", r.Path)
			}
		}
	})
}

// TestRESTMountErrors: bad configuration and route conflicts are errors,
// not panics, and a bad CORS configuration registers nothing.
func TestRESTMountErrors(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), nil)
	t.Run("bad CORS", func(t *testing.T) {
		saved := az.cfg.CORSOrigins
		defer func() { az.cfg.CORSOrigins = saved }()
		for _, origins := range [][]string{{"*", "https://a.example"}, {"https://*.example"}, {}} {
			az.cfg.CORSOrigins = origins
			e := gin.New()
			if err := az.Mount(e); err == nil || !strings.Contains(err.Error(), "AUTH_CORS_ORIGINS") {
				t.Errorf("origins %q: err = %v", origins, err)
			}
			if n := len(e.Routes()); n != 0 {
				t.Errorf("origins %q: %d routes registered", origins, n)
			}
		}
	})
	t.Run("conflict", func(t *testing.T) {
		e := gin.New()
		e.GET("/ping", func(c *gin.Context) {})
		if err := az.Mount(e); err == nil {
			t.Error("Mount over the host's /ping succeeded")
		}
	})
	t.Run("nil router", func(t *testing.T) {
		if err := az.Mount(nil); err == nil {
			t.Error("Mount(nil) succeeded")
		}
	})
	t.Run("twice on one router", func(t *testing.T) {
		e := gin.New()
		if err := az.Mount(e); err != nil {
			t.Fatal(err)
		}
		if err := az.Mount(e); err == nil {
			t.Error("second Mount on the same router succeeded")
		}
	})
}

func TestMountLeavesGinModeAlone(t *testing.T) {
	before := gin.Mode()
	az, _ := openREST(t, storagetest.SQLite(t), nil)
	newTestRouter(t, az, "")
	if gin.Mode() != before {
		t.Errorf("Mount changed gin's global mode to %q", gin.Mode())
	}
}

// TestRESTRouteList pins the client-key routes to DESIGN.md's table plus
// the audit route.
func TestRESTRouteList(t *testing.T) {
	var got []string
	for _, rt := range restRoutes() {
		got = append(got, rt.method+" "+rt.path)
	}
	want := []string{
		"GET /api/roles", "POST /api/role/:role", "DELETE /api/role/:role", "GET /api/role/:role", "PUT /api/role/:role",
		"GET /api/permission/:group/:name", "POST /api/permission/:group/:name", "DELETE /api/permission/:group/:name",
		"GET /api/membership/:user/:group", "POST /api/membership/:user/:group", "DELETE /api/membership/:user/:group",
		"GET /api/has_permission/:user/:name", "GET /api/user_permissions/:user", "GET /api/user_roles/:user",
		"GET /api/role_permissions/:role", "GET /api/members/:role", "GET /api/which_roles_can/:name",
		"GET /api/which_users_can/:name",
		"POST /api/role/:role/inherits/:parent", "DELETE /api/role/:role/inherits/:parent", "GET /api/role/:role/inherits",
		"GET /api/role/:role/inherited_by",
		"GET /api/scoped_memberships",
		"GET /api/revision",
		"POST /api/user/:user/rename/:new",
		"GET /api/users",
		"GET /api/where_can/:user/:name", "POST /api/check",
		"GET /api/changes",
		"GET /api/audit",
	}
	if !slices.Equal(got, want) {
		t.Errorf("routes:\n%v\nwant:\n%v", got, want)
	}
}

// TestRESTOwnChainRecovers: a panic behind rolegate's chain is a 500 with
// the envelope and no internals; the panic goes to the log.
func TestRESTOwnChainRecovers(t *testing.T) {
	az, logs := openREST(t, storagetest.SQLite(t), nil)
	e := gin.New()
	e.Group("", az.ownChain(func(*gin.Context) {})...).GET("/api/boom", func(*gin.Context) {
		panic("secret internals")
	})
	w := performRequest(e, "GET", "/api/boom", "", nil)
	body := checkEnvelope(t, w, http.StatusInternalServerError)
	if body["error"] != "internal error" || strings.Contains(w.Body.String(), "secret") {
		t.Errorf("500 body: %s", w.Body.String())
	}
	if !strings.Contains(logs.String(), "panic recovered") || !strings.Contains(logs.String(), "status=500") {
		t.Errorf("panic or its 500 not logged:\n%s", logs.String())
	}
}

// TestRESTBodyLimitOnEveryRoute: login, samples and /ping refuse bodies
// over 64 KiB too.
func TestRESTBodyLimitOnEveryRoute(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), withEverything)
	e := newTestRouter(t, az, "")
	big := strings.Repeat("x", 65<<10)
	for _, r := range []string{"POST /api/v1/login", "GET /api/ping", "GET /ping"} {
		method, path, _ := strings.Cut(r, " ")
		checkEnvelope(t, performRequest(e, method, path, "", strings.NewReader(big)), http.StatusRequestEntityTooLarge)
	}
}

// TestMountRefusesToShadowHostRoute: mounted at the root of an engine that
// already serves GET /api/ping, with the sample credentials set, Mount
// registers nothing and names the route, instead of taking it over.
func TestMountRefusesToShadowHostRoute(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), withEverything)
	e := gin.New()
	e.GET("/api/ping", func(c *gin.Context) { c.String(200, "host pong") })
	before := len(e.Routes())
	err := az.Mount(e)
	if err == nil || !strings.Contains(err.Error(), "GET /api/ping") || !strings.Contains(err.Error(), "Group") {
		t.Fatalf("Mount = %v, want an error naming GET /api/ping and the group remedy", err)
	}
	if len(e.Routes()) != before {
		t.Errorf("Mount registered %d routes before refusing", len(e.Routes())-before)
	}
	if w := performRequest(e, "GET", "/api/ping", "", nil); w.Body.String() != "host pong" {
		t.Errorf("host route answered %q", w.Body.String())
	}
	if err := az.Mount(e.Group("/auth")); err != nil {
		t.Errorf("Mount under a group: %v", err)
	}
}
