// Command minimal is the shortest complete rolegate integration: open,
// mount, guard a route, serve.
package main

import (
	"context"
	"log"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
)

func main() {
	cfg, err := authz.ConfigFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	az, err := authz.Open(context.Background(), cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer az.Close()
	r := gin.Default()
	if err := az.Mount(r); err != nil {
		log.Fatal(err)
	}
	r.GET("/secret", az.RequirePermission("read"), func(c *gin.Context) { c.String(200, "ok\n") })
	log.Fatal(r.Run("127.0.0.1:8080"))
}
