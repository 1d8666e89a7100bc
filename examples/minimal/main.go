// Command minimal is the shortest complete rolegate integration: open,
// mount, guard a route, serve. It takes the user from a request header
// (-user-header, default X-User: only ever do that behind a proxy that sets
// it), listens on AUTH_SERVER_PORT (default 8000) and prints the curl
// lines that take GET /secret from 403 to 200.
//
//	export AUTH_CLIENT_KEY=$(go run ./examples/hostapp -new-client-key)
//	go run ./examples/minimal
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
	_ "github.com/rolegate/rolegate/authz/sqlite" // the default store: a SQLite file
	"github.com/rolegate/rolegate/middleware"
)

func main() {
	userHeader := flag.String("user-header", "X-User", "request header holding the user name")
	flag.Parse()
	cfg, err := authz.ConfigFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	if cfg.ClientKey == "" {
		log.Fatal("set AUTH_CLIENT_KEY to a UUID v4 first: export AUTH_CLIENT_KEY=$(go run ./examples/hostapp -new-client-key)")
	}
	cfg.Resolver = middleware.HeaderResolver(*userHeader)
	az, err := authz.Open(context.Background(), cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer az.Close()

	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	if err := az.Mount(r); err != nil {
		log.Fatal(err)
	}
	r.GET("/secret", az.RequirePermission("read"), func(c *gin.Context) { c.String(http.StatusOK, "ok\n") })

	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", cmp.Or(os.Getenv("AUTH_SERVER_PORT"), "8000")))
	if err != nil {
		log.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	fmt.Printf(`minimal listening on %[1]s; try:
  K="Authorization: Bearer $AUTH_CLIENT_KEY"
  curl -H "%[2]s: sara" %[1]s/secret                        # 403
  curl -X POST -H "$K" %[1]s/api/role/reader
  curl -X POST -H "$K" %[1]s/api/permission/reader/read
  curl -X POST -H "$K" %[1]s/api/membership/sara/reader
  curl -H "%[2]s: sara" %[1]s/secret                        # 200
`, base, *userHeader)
	log.Fatal(http.Serve(ln, r))
}
