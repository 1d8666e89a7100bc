package rest

import (
	"time"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// Entries of the direct lists (a role's members, a role's own
// permissions, a user's roles, the scoped memberships): every stored row,
// a bounded one with its starts_at and expires_at and "held", false when
// now is outside them (a membership that starts on Monday is listed, as
// not held). An unbounded row is as before: its name alone.

type (
	listedUser struct {
		User string `json:"user"`
		rbac.Bounds
		Held *bool `json:"held,omitempty"`
	}
	listedName struct {
		Name string `json:"name"`
		rbac.Bounds
		Held *bool `json:"held,omitempty"`
	}
	listedRole struct {
		Role string `json:"role"`
		rbac.Bounds
		Held *bool `json:"held,omitempty"`
	}
	scopedEntry struct {
		rbac.ScopedMembership
		rbac.Bounds
		Held *bool `json:"held,omitempty"`
	}
)

func listedKey(l rbac.Listed) string { return l.Name }

// eachListed writes each window of a direct list, the name under key
// ("user", "name" or "role").
func eachListed(w *listWriter, key string) func([]rbac.Listed) error {
	return func(page []rbac.Listed) error {
		for _, l := range page {
			var held *bool
			if !l.Bounds.IsZero() {
				held = &l.Held
			}
			b := utc(l.Bounds)
			var e any
			switch key {
			case "user":
				e = listedUser{User: l.Name, Bounds: b, Held: held}
			case "role":
				e = listedRole{Role: l.Name, Bounds: b, Held: held}
			default:
				e = listedName{Name: l.Name, Bounds: b, Held: held}
			}
			if err := w.entry(e); err != nil {
				return err
			}
		}
		return w.flush()
	}
}

// eachUntil writes each window of who-can: a user, with "until" when her
// holding of the permission ends (RFC 3339, UTC; left out for no end).
func eachUntil(w *listWriter) func([]rbac.UserUntil) error {
	return func(page []rbac.UserUntil) error {
		for _, u := range page {
			if u.Until != nil {
				t := u.Until.UTC().Truncate(time.Microsecond)
				u.Until = &t
			}
			if err := w.entry(u); err != nil {
				return err
			}
		}
		return w.flush()
	}
}
