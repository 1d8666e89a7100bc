package authz

import (
	"fmt"
	"time"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/storage"
)

// Time bounds: a membership or a grant may count from a time (StartsAt),
// until a time (ExpiresAt), or both. Outside its window it is not held:
// checks, who-can and every effective answer leave it out, with no write
// at its boundaries (each cached entry carries its next boundary). An
// expired row is removed in the background soon after its expiry, with
// an audit record (expire_membership, expire_permission) and a change-log
// entry like a revoke's. Times are kept in UTC to the microsecond.

// AddOption is an option of AddMembership, AddMembershipIn and
// AddPermission. An add sets the row's bounds to exactly the options
// given: adding again without them makes the row unbounded.
type AddOption = rbac.AddOption

// ExpiresAt makes the membership or grant stop counting at t. A t that has
// already passed is ErrAlreadyExpired.
func ExpiresAt(t time.Time) AddOption { return func(b *Bounds) { b.ExpiresAt = &t } }

// StartsAt makes the membership or grant count only from t; with
// ExpiresAt, t must come before the expiry.
func StartsAt(t time.Time) AddOption { return func(b *Bounds) { b.StartsAt = &t } }

// bounds makes the options into bounds: ErrBadRequest when they start at
// or after they expire, ErrAlreadyExpired when they expire by now.
func (c *Client) bounds(opts []AddOption) (storage.TimeBounds, error) {
	var pb Bounds
	for _, o := range opts {
		if o != nil {
			o(&pb)
		}
	}
	var b storage.TimeBounds
	if pb.StartsAt != nil {
		b.Starts = *pb.StartsAt
	}
	if pb.ExpiresAt != nil {
		b.Expires = *pb.ExpiresAt
	}
	b = b.Normalized()
	return b, checkBounds(b, c.az.cfg.clock.Now())
}

// checkBounds is the rule for a row's bounds written at now.
func checkBounds(b storage.TimeBounds, now time.Time) error {
	switch {
	case !b.Starts.IsZero() && !b.Expires.IsZero() && !b.Starts.Before(b.Expires):
		return fmt.Errorf("%w: starts_at (%s) must be before expires_at (%s)", errBadRequest,
			b.Starts.Format(time.RFC3339Nano), b.Expires.Format(time.RFC3339Nano))
	case !b.Expires.IsZero() && !b.Expires.After(now):
		return fmt.Errorf("%w: expires_at %s is not in the future", ErrAlreadyExpired, b.Expires.Format(time.RFC3339Nano))
	}
	return nil
}

// boundsNote is how an audit record's resource names a row's bounds: ""
// for none, else " from <start>" and " until <expiry>" as given.
func boundsNote(b storage.TimeBounds) string {
	var s string
	if !b.Starts.IsZero() {
		s += " from " + b.Starts.Format(time.RFC3339Nano)
	}
	if !b.Expires.IsZero() {
		s += " until " + b.Expires.Format(time.RFC3339Nano)
	}
	return s
}

// WithBounds sets both bounds at once from a Bounds (nil fields: no
// bound), as lists and policy files give them.
func WithBounds(b Bounds) AddOption { return func(to *Bounds) { *to = b } }

// publicBounds is b as the API shows it.
func publicBounds(b storage.TimeBounds) Bounds {
	var out Bounds
	if !b.Starts.IsZero() {
		t := b.Starts.UTC()
		out.StartsAt = &t
	}
	if !b.Expires.IsZero() {
		t := b.Expires.UTC()
		out.ExpiresAt = &t
	}
	return out
}
