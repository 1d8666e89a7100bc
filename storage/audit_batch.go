package storage

import (
	"context"
	"strings"

	"github.com/uptrace/bun"
)

// auditRowsPerInsert keeps a multi-row insert well under the bind
// parameter limits (SQLite 32766, PostgreSQL 65535).
const auditRowsPerInsert = 500 // 10 parameters a row

// InsertAudit writes records, a few hundred per statement: a batch of
// thousands of changes then costs a few round trips for its audit instead
// of one per change. Call it in the change's own transaction so that a
// change is never without its record.
func InsertAudit(ctx context.Context, db bun.IDB, recs ...AuditRecord) error {
	for len(recs) > 0 {
		n := min(len(recs), auditRowsPerInsert)
		var q strings.Builder
		q.WriteString("INSERT INTO rolegate_audit (at, client, action, resource, outcome, request_id, client_request_id, remote_addr, actor, reason) VALUES ")
		args := make([]any, 0, 10*n)
		for i, r := range recs[:n] {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, r.At.UTC(), r.Client, r.Action, r.Resource, r.Outcome, r.RequestID, r.ClientRequestID, r.RemoteAddr, r.Actor, r.Reason)
		}
		if _, err := db.NewRaw(q.String(), args...).Exec(ctx); err != nil {
			return Classify(err)
		}
		recs = recs[n:]
	}
	return nil
}
