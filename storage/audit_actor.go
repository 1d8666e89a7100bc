package storage

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261127090000", "audit: actor and reason", auditActorUp, auditActorDown)
}

// Actors of audit records that name no user and no key.
const (
	// ActorLibrary is a Go call of the library API with no actor in its
	// context.
	ActorLibrary = "library"
	// ActorAnonymous is a request refused before any key or person was
	// accepted.
	ActorAnonymous = "anonymous"
	// ActorKeyPrefix starts the actor of a client key: "key:" and the
	// first 8 hex digits of the key's SHA-256, which is also the first 8
	// of its namespace (never the key).
	ActorKeyPrefix = "key:"
	// ActorUserPrefix starts the actor of a person: "user:" and the name
	// as the audit log holds names (its stored form under encryption).
	ActorUserPrefix = "user:"
)

// KeyActor is the actor of a client key whose namespace is ns.
func KeyActor(ns string) string { return ActorKeyPrefix + ns[:8] }

// AuditFingerprint is the keyed digest that names the client of
// namespace ns in audit records: stable for one store (key is the store's
// audit_key setting), useless without the key.
func AuditFingerprint(key []byte, ns string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(ns))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// auditActorUp adds who made a change (actor) and why (reason, from
// X-Change-Reason), with the index GET /api/audit?actor= reads. Records
// written before have no actor on record; they get the one they must have
// had: a record without a request id came from a Go call (library), one
// without a client was refused before any key was accepted (anonymous),
// and a REST request's record gets the key actor of its client, found by
// recomputing each known namespace's fingerprint (a client whose
// namespace holds nothing any more keeps "key:unknown").
func auditActorUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, s := range []string{
			"ALTER TABLE rolegate_audit ADD COLUMN actor TEXT NOT NULL DEFAULT ''",
			"ALTER TABLE rolegate_audit ADD COLUMN reason TEXT NOT NULL DEFAULT ''",
			"CREATE INDEX IF NOT EXISTS rolegate_audit_by_client_actor ON rolegate_audit (client, actor, id)",
			"UPDATE rolegate_audit SET actor = '" + ActorAnonymous + "' WHERE client = ''",
			"UPDATE rolegate_audit SET actor = '" + ActorLibrary + "' WHERE actor = '' AND request_id = ''",
		} {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return err
			}
		}
		key, ok, err := GetSetting(ctx, tx, "audit_key")
		if err != nil || !ok {
			return err // no key: no record has a client
		}
		var namespaces []string
		if err := tx.NewRaw(`SELECT ns FROM rolegate_revisions UNION SELECT ns FROM rolegate_roles`).Scan(ctx, &namespaces); err != nil {
			return err
		}
		for _, ns := range namespaces {
			if len(ns) < 8 {
				continue
			}
			if _, err := tx.ExecContext(ctx, "UPDATE rolegate_audit SET actor = ? WHERE client = ? AND actor = ''",
				KeyActor(ns), AuditFingerprint([]byte(key), ns)); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, "UPDATE rolegate_audit SET actor = '"+ActorKeyPrefix+"unknown' WHERE actor = ''")
		return err
	})
}

func auditActorDown(ctx context.Context, db *bun.DB) error {
	for _, s := range []string{
		"DROP INDEX IF EXISTS rolegate_audit_by_client_actor",
		"ALTER TABLE rolegate_audit DROP COLUMN reason",
		"ALTER TABLE rolegate_audit DROP COLUMN actor",
	} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	return nil
}
