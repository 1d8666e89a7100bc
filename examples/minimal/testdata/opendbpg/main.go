// Command opendbpg is a host that opens rolegate on its own PostgreSQL
// handle (authz.OpenDB): TestOpenDBHostLinksNoSQLite builds it and reads
// which modules it links.
package main

import (
	"context"
	"database/sql"
	"log"
	"os"

	"github.com/gin-gonic/gin"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/rolegate/rolegate/authz"
)

func main() {
	db := bun.NewDB(sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(os.Getenv("DATABASE_URL")))), pgdialect.New())
	az, err := authz.OpenDB(context.Background(), db, authz.Config{ClientKey: os.Getenv("AUTH_CLIENT_KEY")})
	if err != nil {
		log.Fatal(err)
	}
	defer az.Close()
	r := gin.New()
	if err := az.Mount(r); err != nil {
		log.Fatal(err)
	}
	r.GET("/secret", az.RequirePermission("read"), func(c *gin.Context) { c.String(200, "ok") })
	log.Fatal(r.Run())
}
