package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261123090100", "audit: client request id, retention index", auditRetentionUp, auditRetentionDown)
}

// client_request_id keeps the X-Request-ID a client sent apart from ours
// (request_id), which a client never chooses; the index on at lets the
// retention find old records without reading the table.
func auditRetentionUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, s := range []string{
			"ALTER TABLE rolegate_audit ADD COLUMN client_request_id TEXT NOT NULL DEFAULT ''",
			"CREATE INDEX IF NOT EXISTS rolegate_audit_by_time ON rolegate_audit (at)",
		} {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return err
			}
		}
		return nil
	})
}

func auditRetentionDown(ctx context.Context, db *bun.DB) error {
	for _, s := range []string{
		"DROP INDEX IF EXISTS rolegate_audit_by_time",
		"ALTER TABLE rolegate_audit DROP COLUMN client_request_id",
	} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

// AuditRecord is one audited change or refusal. Client is a keyed
// fingerprint of the client key, never the key; Resource and Actor never
// hold the plaintext of an encrypted name. Actor is who asked (a person,
// a key's short digest, the library; see ActorLibrary), Reason what the
// request said of why (X-Change-Reason). RequestID is ours;
// ClientRequestID is the X-Request-ID the client sent, if any, kept apart
// and never trusted.
type AuditRecord struct {
	ID              int64     `bun:"id" json:"id"`
	At              time.Time `bun:"at" json:"at"`
	Client          string    `bun:"client" json:"client"`
	Action          string    `bun:"action" json:"action"`
	Resource        string    `bun:"resource" json:"resource"`
	Outcome         string    `bun:"outcome" json:"outcome"`
	RequestID       string    `bun:"request_id" json:"request_id"`
	ClientRequestID string    `bun:"client_request_id" json:"client_request_id,omitempty"`
	RemoteAddr      string    `bun:"remote_addr" json:"remote_addr"`
	Actor           string    `bun:"actor" json:"actor"`
	Reason          string    `bun:"reason" json:"reason,omitempty"`
}

// AuditFilter picks the records ListAudit returns: one client's, of one
// action and one actor when they are not "", with ids below Before (0:
// from the newest), at most Limit.
type AuditFilter struct {
	Client, Action, Actor string
	Before                int64
	Limit                 int
}

// ListAudit returns one client's records of one action ("" for every
// action), newest first, with id below before (0 means from the newest),
// at most limit.
func ListAudit(ctx context.Context, db bun.IDB, client, action string, before int64, limit int) ([]AuditRecord, error) {
	return ListAuditBy(ctx, db, AuditFilter{Client: client, Action: action, Before: before, Limit: limit})
}

// ListAuditBy returns the records f picks, newest first.
func ListAuditBy(ctx context.Context, db bun.IDB, f AuditFilter) ([]AuditRecord, error) {
	q := `SELECT id, at, client, action, resource, outcome, request_id, client_request_id, remote_addr, actor, reason FROM rolegate_audit WHERE client = ?`
	args := []any{f.Client}
	if f.Action != "" {
		q += " AND action = ?"
		args = append(args, f.Action)
	}
	if f.Actor != "" {
		q += " AND actor = ?"
		args = append(args, f.Actor)
	}
	if f.Before > 0 {
		q += " AND id < ?"
		args = append(args, f.Before)
	}
	q += " ORDER BY id DESC LIMIT ?"
	args = append(args, f.Limit)
	out := []AuditRecord{}
	if err := db.NewRaw(q, args...).Scan(ctx, &out); err != nil {
		return nil, Classify(err)
	}
	for i := range out {
		out[i].At = out[i].At.UTC()
	}
	return out, nil
}
