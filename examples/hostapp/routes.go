package main

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
)

// newEngine is the host app as its authors would write it anyway, plus the
// lines that adopt rolegate. trustedProxies (AUTH_TRUSTED_PROXIES) are the
// only peers whose X-Forwarded-For and X-Real-IP gin believes for
// c.ClientIP(); none by default (gin itself would trust every peer).
// open (the -open flag) leaves out the guarded routes: their guards
// check under the host's client key, which open mode has not.
func newEngine(az *authz.Authz, trustedProxies []string, open bool) (*gin.Engine, error) {
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

	if open {
		r.GET("/", func(c *gin.Context) {
			c.JSON(http.StatusOK, gin.H{"app": "hostapp", "mode": "open", "api": "/api"})
		})
		return r, nil
	}
	notes, err := newNoteStore(context.Background(), az.DB()) // the app's own table, beside rolegate's
	if err != nil {
		return nil, err
	}
	r.GET("/", func(c *gin.Context) {
		c.JSON(http.StatusOK, gin.H{"app": "hostapp", "notes": "/notes", "orgs": "/orgs"})
	})
	r.GET("/notes", az.RequirePermission("read"), notes.list)
	r.POST("/notes", az.RequirePermission("edit"), notes.create)
	// Owners: a note's author may delete it, and so may holders of
	// notes.delete; an unknown id is 404.
	r.DELETE("/notes/:id", az.RequirePermission("notes.delete", authz.OrIf(notes.isAuthor)), notes.remove)
	// Per-org notes: read and write in the org named by the URL. A
	// membership in that org, or a global one, counts.
	inOrg := authz.ScopeFromParam("org")
	r.GET("/orgs/:org/notes", az.RequirePermission("read", inOrg), notes.list)
	r.POST("/orgs/:org/notes", az.RequirePermission("edit", inOrg), notes.create)
	// Deleting one names a note: the scope is the note's own org, never
	// the URL's, which a moderator of another org could write (404 when
	// they differ).
	r.DELETE("/orgs/:org/notes/:id", az.RequirePermission("notes.delete", authz.ScopeFunc(notes.orgOf)), notes.remove)
	// A list of what the user may see: the orgs holding notes where she
	// may read, one query on the notes table narrowed by where-can.
	r.GET("/orgs", notes.orgs(az))
	return r, nil
}
