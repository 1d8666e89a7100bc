package storage

import (
	"context"
	"slices"
	"time"

	"github.com/uptrace/bun"
)

// Expired is a membership or a grant removed because its time ran out
// (ExpireDue). A membership has User and Role (Scope for one held in one
// scope only); a grant has Role and Permission. Names are plain;
// StoredUser and StoredPermission are the forms the row held, which audit
// records name (never the plaintext of an encrypted name).
type Expired struct {
	Scope, User, Role, Permission string
	StoredUser, StoredPermission  string
	ExpiresAt                     time.Time
}

// IsGrant reports whether e is a grant rather than a membership.
func (e Expired) IsGrant() bool { return e.User == "" }

// ExpiringNamespaces lists up to limit namespaces holding a membership or
// grant whose expires_at is at or before now, read through the tables'
// partial indexes of expiring rows.
func ExpiringNamespaces(ctx context.Context, db bun.IDB, now time.Time, limit int) ([]string, error) {
	at := bun.NullTime{Time: now.UTC()}
	var out []string
	for _, t := range boundedTables {
		var ns []string
		if err := db.NewRaw("SELECT DISTINCT ns FROM "+t+" WHERE expires_at <= ? LIMIT ?", at, limit).Scan(ctx, &ns); err != nil {
			return nil, Classify(err)
		}
		out = append(out, ns...)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	return out[:min(len(out), limit)], nil
}

// ExpireDue deletes up to limit of the namespace's memberships and grants
// whose expires_at is at or before now, in the caller's transaction, and
// returns them. Each row is deleted by one statement only, however many
// processes expire at once: a row another transaction deleted first is
// not deleted, nor returned, again. The caller records each removal
// (audit, change log) in the same transaction, so that it is recorded
// once, as a revoke is.
func ExpireDue(ctx context.Context, db bun.IDB, s Scope, now time.Time, limit int) ([]Expired, error) {
	at := bun.NullTime{Time: now.UTC()}
	var out []Expired
	for _, q := range []struct {
		table, key, returning string
	}{
		{"rolegate_memberships", "user_name, role", "'' AS scope, user_name, role, '' AS name"},
		{"rolegate_scoped_memberships", "user_name, scope, role", "scope, user_name, role, '' AS name"},
		{"rolegate_permissions", "role, name", "'' AS scope, '' AS user_name, role, name"},
	} {
		if len(out) >= limit {
			break
		}
		var rows []struct {
			Scope     string       `bun:"scope"`
			User      string       `bun:"user_name"`
			Role      string       `bun:"role"`
			Name      string       `bun:"name"`
			ExpiresAt bun.NullTime `bun:"expires_at"`
		}
		err := db.NewRaw("DELETE FROM "+q.table+" WHERE ns = ? AND expires_at <= ? AND ("+q.key+") IN (SELECT "+q.key+" FROM "+q.table+
			" WHERE ns = ? AND expires_at <= ? LIMIT ?) RETURNING "+q.returning+", expires_at",
			s.NS, at, s.NS, at, limit-len(out)).Scan(ctx, &rows)
		if err != nil {
			return nil, Classify(err)
		}
		for _, r := range rows {
			e := Expired{Scope: r.Scope, Role: r.Role, StoredUser: r.User, StoredPermission: r.Name, ExpiresAt: r.ExpiresAt.Time.UTC()}
			if r.User != "" {
				if e.User, err = s.plainUser(r.User); err != nil {
					return nil, err
				}
			} else if e.Permission, err = plain(s.Permissions, r.Name); err != nil {
				return nil, err
			}
			out = append(out, e)
		}
	}
	return out, nil
}
