package storage

import (
	"context"

	"github.com/uptrace/bun"
)

// eachUser calls fn with the users that hold at least one membership,
// global or scoped, window by window, sorted and deduplicated (the list
// UsersWithMembership).
func eachUser(ctx context.Context, db bun.IDB, s Scope, w ListWindow, fn func([]string) error) error {
	return eachStored(ctx, db, s.Users, w, "u.user_name", `(SELECT user_name FROM rolegate_memberships WHERE ns = ?
		UNION ALL SELECT user_name FROM rolegate_scoped_memberships WHERE ns = ?) u WHERE 1 = 1`,
		[]any{s.NS, s.NS}, fn)
}
