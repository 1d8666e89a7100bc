package authz

import (
	"context"
	"time"

	"github.com/rolegate/rolegate/authz/internal/expiry"
	"github.com/rolegate/rolegate/authz/internal/keyring"
	"github.com/rolegate/rolegate/storage"
)

// The background removal of expired memberships and grants lives in
// authz/internal/expiry; this is what it asks of Authz.

// expiryHost is Authz as the expiry sweep sees it.
type expiryHost struct{ az *Authz }

var _ expiry.Host = expiryHost{}

func (h expiryHost) Scope(ns string) (storage.Scope, func()) {
	s := h.az.keys.Scope(ns)
	return s, func() { keyring.Release(s) }
}

// Audit records a removal as the revoke it is (outcome deleted), under
// the expire_ action of its kind, naming the row as a revoke does.
func (h expiryHost) Audit(ns string, e storage.Expired, _ time.Time) (storage.AuditRecord, bool) {
	if h.az.cfg.DisableAuditLogging {
		return storage.AuditRecord{}, false
	}
	action, resource := "expire_membership", "membership:"+e.StoredUser+"/"+e.Role
	switch {
	case e.IsGrant():
		action, resource = "expire_permission", "permission:"+e.Role+"/"+e.StoredPermission
	case e.Scope != "":
		resource += "@" + e.Scope
	}
	return storage.AuditRecord{At: time.Now().UTC(), Client: h.az.fingerprint(ns), Action: action,
		Resource: resource, Outcome: storage.AuditDeleted}, true
}

func (h expiryHost) Writer() string { return h.az.feed.Writer() }

// Removed drops from this process's cache of the namespace (if it has a
// handle for it) what the removals changed, as a revoke's commit does;
// the other replicas learn of them from the change log.
func (h expiryHost) Removed(ctx context.Context, ns string, removed []storage.Expired, audited int, first, last int64) {
	az := h.az
	if audited > 0 {
		az.metrics.audited(audited)
		az.pruner.Wrote(audited)
	}
	az.clients.Range(func(_ string, c *Client) bool {
		if c.scope.NS != ns {
			return true
		}
		for _, e := range removed {
			if e.IsGrant() {
				c.dropRole(invalidLocalWrite, e.Role)
			} else {
				c.dropUser(invalidLocalWrite, e.User)
			}
		}
		az.feed.Committed(ctx, c.follow, first, last)
		return false
	})
}

// startExpiry runs the sweep in the background.
func (az *Authz) startExpiry() {
	s := &expiry.Sweeper{DB: az.db, Clock: az.cfg.clock, Every: az.cfg.expiryEvery, Host: expiryHost{az},
		Log: az.log, Holder: az.feed.Writer(), Writers: az.sqliteWriters}
	az.goBackground(s.Run)
}
