package loginapi

import (
	"context"

	"github.com/gin-gonic/gin"
	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/internal/store"
	"github.com/rolegate/rolegate/middleware"
)

// Login is what a host's authz needs of a login service: the routes, the
// session resolver, renaming a user's login record with its roles, and
// applying such a rename to this process's sessions once it committed.
// loginx.Start returns one.
type Login interface {
	Register(r gin.IRouter)
	Resolver() middleware.Resolver
	RenameUser(ctx context.Context, db bun.IDB, old, newName string) (renamed bool, err error)
	Sync(ctx context.Context) error
	Close() error
}

// Start is the signature of loginx.Start, the value of authz's
// Config.Login.
type Start func(ctx context.Context, db *bun.DB, cfg Config) (Login, error)

// ErrUsernameTaken: a rename's new name is the RBAC name of another login
// user. Two login users never share a name, so the rename is refused.
var ErrUsernameTaken = store.ErrUsernameTaken
