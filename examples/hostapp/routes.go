package main

import (
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/middleware"
)

// newEngine is the host app as its authors would write it anyway, plus the
// lines that adopt rolegate. trustedProxies (AUTH_TRUSTED_PROXIES) are the
// only peers whose X-Forwarded-For and X-Real-IP gin believes for
// c.ClientIP(); none by default (gin itself would trust every peer).
func newEngine(az *authz.Authz, trustedProxies []string) (*gin.Engine, error) {
	r := gin.New()
	if err := r.SetTrustedProxies(trustedProxies); err != nil {
		return nil, err
	}
	r.Use(gin.Recovery())
	// Encoded slashes stay inside a path segment, so a name like "a%2Fb"
	// reaches rolegate's name check (400) instead of changing the route.
	r.UseRawPath = true
	r.UnescapePathValues = true
	r.HandleMethodNotAllowed = true
	// An API answers a wrong path with 404, not a redirect that a client
	// would follow with its POST body and key.
	r.RedirectTrailingSlash = false

	// rolegate: REST admin API, /ping, login and samples; envelope 404/405
	// for unknown paths under /api.
	if err := az.Mount(r); err != nil {
		return nil, err
	}
	r.NoRoute(az.NotFoundHandler())
	r.NoMethod(az.MethodNotAllowedHandler())

	notes := &noteStore{}
	r.GET("/", func(c *gin.Context) {
		c.JSON(http.StatusOK, gin.H{"app": "hostapp", "notes": "/notes"})
	})
	r.GET("/notes", az.RequirePermission("read"), notes.list)
	r.POST("/notes", az.RequirePermission("edit"), notes.create)
	// Per-org notes: read in the org named by the URL. A membership in
	// that org, or a global one, counts.
	orgNotes := &orgNotes{}
	r.GET("/orgs/:org/notes", az.RequirePermission("read", authz.ScopeFromParam("org")), orgNotes.list)
	return r, nil
}

// noteStore is the host app's own data: notes in memory.
type noteStore struct {
	mu    sync.Mutex
	notes []note
}

type note struct {
	Author string `json:"author"`
	Text   string `json:"text"`
}

func (s *noteStore) list(c *gin.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.JSON(http.StatusOK, gin.H{"notes": append([]note{}, s.notes...)})
}

// orgNotes is the host app's per-org notes (none yet: the example is
// about the guard).
type orgNotes struct{}

func (orgNotes) list(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"org": c.Param("org"), "notes": []note{}})
}

func (s *noteStore) create(c *gin.Context) {
	var in struct {
		Text string `json:"text" binding:"required,max=1000"`
	}
	if err := c.ShouldBindJSON(&in); err != nil {
		c.JSON(http.StatusBadRequest, gin.H{"error": "send {\"text\": \"...\"}"})
		return
	}
	user, _ := middleware.UserFrom(c)
	s.mu.Lock()
	s.notes = append(s.notes, note{Author: user, Text: in.Text})
	s.mu.Unlock()
	c.JSON(http.StatusCreated, gin.H{"author": user, "text": in.Text})
}
