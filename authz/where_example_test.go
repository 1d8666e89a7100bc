package authz_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gin-gonic/gin"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/authz"
)

// Note is a row of the host app's own table in ExampleWhere_Filter.
type Note struct {
	bun.BaseModel `bun:"table:notes"`
	ID            int64 `bun:",pk,autoincrement"`
	Org           string
}

// A list of the host's own rows that the user may see: the orgs of its
// notes table where she may read, one query narrowed by where-can.
func ExampleWhere_Filter() {
	az, done := openExample(nil)
	defer done()
	ctx := context.Background()
	client, _ := az.HostClient()
	client.AddRole(ctx, "reader", "")
	client.AddPermission(ctx, "reader", "read")
	client.AddMembershipIn(ctx, "org-1", "alice", "reader")
	client.AddMembershipIn(ctx, "org-3", "alice", "reader")
	client.AddMembership(ctx, "sara", "reader")
	db := az.DB() // the app's own table, beside rolegate's
	db.NewCreateTable().Model((*Note)(nil)).Exec(ctx)
	db.NewInsert().Model(&[]Note{{Org: "org-1"}, {Org: "org-2"}, {Org: "org-3"}}).Exec(ctx)
	r := gin.New()

	r.GET("/orgs", func(c *gin.Context) {
		where, err := az.WhereCan(c, "read") // for the request's user
		if errors.Is(err, authz.ErrNoUser) {
			c.Status(http.StatusUnauthorized)
			return
		} else if err != nil {
			c.Status(http.StatusServiceUnavailable) // authz.ErrUnavailable
			return
		}
		orgs := []string{}
		q := db.NewSelect().Model((*Note)(nil)).ColumnExpr("DISTINCT org").Order("org")
		if err := where.Filter(q, "org").Scan(c, &orgs); err != nil {
			c.Status(http.StatusServiceUnavailable)
			return
		}
		c.JSON(http.StatusOK, gin.H{"orgs": orgs})
	})

	for _, user := range []string{"alice", "sara", "jack"} {
		req := httptest.NewRequest(http.MethodGet, "/orgs", nil)
		req.Header.Set("X-User", user)
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		fmt.Println(user, w.Body.String())
	}
	where, _ := client.WhereCan(ctx, "alice", "read")
	checks, _ := client.CheckMany(ctx, []authz.Check{
		{User: "alice", Permission: "read", Scope: "org-3"},
		{User: "alice", Permission: "read", Scope: "org-2"},
	})
	fmt.Println(where.Global(), where.Scopes(), where.In("org-3"), checks)
	// Output:
	// alice {"orgs":["org-1","org-3"]}
	// sara {"orgs":["org-1","org-2","org-3"]}
	// jack {"orgs":[]}
	// false [org-1 org-3] true [true false]
}
