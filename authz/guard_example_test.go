package authz_test

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
)

// exampleNotes is a host's own data: note id to author and org.
var exampleNotes = map[string]struct{ author, org string }{
	"1": {"jack", ""},
	"2": {"jack", "org-42"},
}

// The author of a note may edit it, and so may holders of "edit": OrIf
// asks the host's rule only when the permission refuses. An unknown note
// is 404.
func ExampleOrIf() {
	az, done := openExample(nil)
	defer done()
	seed(mustHost(az)) // sara holds edit; jack only read
	isAuthor := func(c *gin.Context, user string) (bool, error) {
		n, ok := exampleNotes[c.Param("id")]
		if !ok {
			return false, authz.ErrResourceNotFound
		}
		return n.author == user, nil
	}
	r := gin.New()
	r.GET("/notes/:id/edit", az.RequirePermission("edit", authz.OrIf(isAuthor)), func(c *gin.Context) { c.String(200, "ok") })
	get(r, "/notes/1/edit", "jack") // the author
	get(r, "/notes/1/edit", "sara") // a holder of edit
	get(r, "/notes/1/edit", "mary") // neither
	get(r, "/notes/9/edit", "mary") // no such note
	// Output:
	// jack 200 ok
	// sara 200 ok
	// mary 403 insufficient permissions
	// mary 404 not found
}

// The scope of a request acting on a note is the note's own org, not the
// URL's: a member of org-7 cannot reach an org-42 note through an org-7
// URL (404), and an org-42 editor can through the note's own.
func ExampleScopeFunc() {
	az, done := openExample(nil)
	defer done()
	host := mustHost(az)
	seed(host)
	ctx := context.Background()
	host.AddMembershipIn(ctx, "org-7", "mary", "editor")
	host.AddMembershipIn(ctx, "org-42", "lena", "editor")
	noteOrg := func(c *gin.Context) (string, error) {
		n, ok := exampleNotes[c.Param("id")]
		if !ok || n.org == "" || n.org != c.Param("org") {
			return "", authz.ErrResourceNotFound
		}
		return n.org, nil
	}
	r := gin.New()
	r.GET("/orgs/:org/notes/:id/edit", az.RequirePermission("edit", authz.ScopeFunc(noteOrg)), func(c *gin.Context) { c.String(200, "ok") })
	get(r, "/orgs/org-7/notes/2/edit", "mary")
	get(r, "/orgs/org-42/notes/2/edit", "mary")
	get(r, "/orgs/org-42/notes/2/edit", "lena")
	// Output:
	// mary 404 not found
	// mary 403 insufficient permissions
	// lena 200 ok
}
