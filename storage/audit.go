package storage

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// AuditRecord is one audited change or refusal. Client is a keyed
// fingerprint of the client key, never the key; Resource never holds the
// plaintext of an encrypted name.
type AuditRecord struct {
	ID         int64     `bun:"id" json:"id"`
	At         time.Time `bun:"at" json:"at"`
	Client     string    `bun:"client" json:"client"`
	Action     string    `bun:"action" json:"action"`
	Resource   string    `bun:"resource" json:"resource"`
	Outcome    string    `bun:"outcome" json:"outcome"`
	RequestID  string    `bun:"request_id" json:"request_id"`
	RemoteAddr string    `bun:"remote_addr" json:"remote_addr"`
}

// InsertAudit writes one record; call it in the change's own transaction
// so that a change is never without its record.
func InsertAudit(ctx context.Context, db bun.IDB, r AuditRecord) error {
	_, err := db.NewRaw(`INSERT INTO rolegate_audit (at, client, action, resource, outcome, request_id, remote_addr)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, r.At.UTC(), r.Client, r.Action, r.Resource, r.Outcome, r.RequestID, r.RemoteAddr).Exec(ctx)
	return Classify(err)
}

// ListAudit returns one client's records, newest first, with id below
// before (0 means from the newest), at most limit.
func ListAudit(ctx context.Context, db bun.IDB, client string, before int64, limit int) ([]AuditRecord, error) {
	q := `SELECT id, at, client, action, resource, outcome, request_id, remote_addr FROM rolegate_audit WHERE client = ?`
	args := []any{client}
	if before > 0 {
		q += " AND id < ?"
		args = append(args, before)
	}
	q += " ORDER BY id DESC LIMIT ?"
	args = append(args, limit)
	out := []AuditRecord{}
	if err := db.NewRaw(q, args...).Scan(ctx, &out); err != nil {
		return nil, Classify(err)
	}
	for i := range out {
		out[i].At = out[i].At.UTC()
	}
	return out, nil
}
