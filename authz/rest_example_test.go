package authz_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
)

// A host app opens rolegate, mounts its routes next to its own, and opts
// into the error envelope for unknown rolegate paths.
func ExampleAuthz_Mount() {
	dir, _ := os.MkdirTemp("", "rolegate-example")
	defer os.RemoveAll(dir)
	cfg := authz.DefaultConfig()
	cfg.SQLitePath = filepath.Join(dir, "auth.sqlite3")
	cfg.Logger = slog.New(slog.DiscardHandler)

	az, err := authz.Open(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer az.Close()

	gin.SetMode(gin.ReleaseMode) // Mount leaves gin's global mode to the host
	router := gin.New()
	router.UseRawPath = true // names with an encoded '/' reach the name check (400)
	router.UnescapePathValues = true
	router.NoRoute(az.NotFoundHandler()) // envelope 404 under /api and /ping only
	router.HandleMethodNotAllowed = true
	router.NoMethod(az.MethodNotAllowedHandler())
	if err := az.Mount(router); err != nil {
		fmt.Println(err)
		return
	}
	router.GET("/notes", func(c *gin.Context) { c.String(http.StatusOK, "the host's own route") })

	call := func(method, path string) {
		req := httptest.NewRequest(method, path, nil)
		req.Header.Set("Authorization", "Bearer 3f1c2a9e-8b7d-4c6e-9f1a-2b3c4d5e6f70")
		w := httptest.NewRecorder()
		router.ServeHTTP(w, req)
		fmt.Println(method, path, w.Code)
	}
	call("POST", "/api/role/cook")
	call("POST", "/api/permission/cook/cook")
	call("POST", "/api/membership/sara/cook")
	call("GET", "/api/has_permission/sara/cook")
	call("POST", "/api/role/a%2Fb")
	call("GET", "/notes")
	// Output:
	// POST /api/role/cook 201
	// POST /api/permission/cook/cook 201
	// POST /api/membership/sara/cook 201
	// GET /api/has_permission/sara/cook 200
	// POST /api/role/a%2Fb 400
	// GET /notes 200
}
