package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// Reads that follow a write: every successful write answers the token of
// its revision in the Rolegate-Revision header; every read accepts
// ?at_least=TOKEN and answers from state at least that new (the client
// catches up first when this replica's cache is behind); GET
// /api/revision answers the current token.

// RevisionHeader carries a write's revision token.
const RevisionHeader = "Rolegate-Revision"

// atLeastParam is the query parameter of every read.
const atLeastParam = "at_least"

// reads reports whether the route is a read: it accepts ?at_least.
func (rt route) reads() bool { return rt.method == http.MethodGet || rt.read }

// atLeast applies the read's ?at_least, when given: a malformed token or
// one the store has not reached is a 400.
func atLeast(c *gin.Context, ctx context.Context, cl Caller) error {
	if c.Request.URL.RawQuery == "" {
		return nil // the common case: no map of no parameters
	}
	v, ok, err := queryValue(c.Request.URL.Query(), atLeastParam)
	if err != nil || !ok {
		return err
	}
	return cl.AtLeast(ctx, v)
}

// wrote keeps the revision token of the write the request made, for the
// Rolegate-Revision header its answer carries, and returns the write's
// answer (created, deleted, changed).
func (call *request) wrote(w rbac.Written) bool {
	call.revision = w.Revision
	return w.Changed
}

// revisionData is the data of GET /api/revision.
type revisionData struct {
	Revision string `json:"revision"`
}

// revisionRoute: GET /api/revision, the client's current revision token.
func revisionRoute() route {
	return route{
		method: http.MethodGet, path: "/api/revision", action: "revision",
		run: func(call *request) (int, string, any, error) {
			tok, err := call.cl.Revision(call.ctx)
			if err != nil {
				return 0, "", nil, err
			}
			return http.StatusOK, "ok", revisionData{Revision: tok}, nil
		},
	}
}
