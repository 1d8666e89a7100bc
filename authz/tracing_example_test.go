package authz_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gin-gonic/gin"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/rolegate/rolegate/authz"
)

// With a TracerProvider, writes and cold checks are spans (with the store's
// round trips inside, not printed here); a check the decision cache
// answers from memory makes none.
func ExampleConfig_tracing() {
	spans := tracetest.NewSpanRecorder() // the host's exporter, in a real app
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	az, done := openExample(func(c *authz.Config) { c.TracerProvider = tp })
	defer done()
	ctx := context.Background()
	host, _ := az.HostClient()
	host.AddRole(ctx, "editor", "")
	host.AddPermission(ctx, "editor", "edit")
	host.AddMembership(ctx, "sara", "editor")

	router := gin.New()
	router.GET("/notes", az.RequirePermission("edit"), func(c *gin.Context) { c.String(200, "notes") })
	get(router, "/notes", "sara") // cold: read from the store
	get(router, "/notes", "sara") // warm: from memory
	for _, s := range spans.Ended() {
		if strings.HasPrefix(s.Name(), "rolegate.") {
			fmt.Println(s.Name())
		}
	}
	// Output:
	// sara 200 notes
	// sara 200 notes
	// rolegate.write add_role
	// rolegate.write add_permission
	// rolegate.write add_membership
	// rolegate.check.cold
}
