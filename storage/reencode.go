package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// encryptedColumn is one column whose values rolegate encrypts.
type encryptedColumn struct {
	table, col, kind string
	pk               []string // primary key; may include col
	intPK            int      // index of an integer key column, or -1
	intPK2           int      // index of a second integer key column, or 0 (none)
	free             bool     // free text holding stored names: no prefix to skip by
}

// encryptedColumns are every column rolegate encrypts: permission names,
// members' user names (global and scoped memberships, and the change log,
// which names the member a write changed), role descriptions, and the
// names in audit records' resources and actors.
var encryptedColumns = []encryptedColumn{
	{"rolegate_permissions", "name", KindPermission, []string{"ns", "role", "name"}, -1, 0, false},
	{"rolegate_memberships", "user_name", KindUser, []string{"ns", "user_name", "role"}, -1, 0, false},
	{"rolegate_scoped_memberships", "user_name", KindUser, []string{"ns", "user_name", "scope", "role"}, -1, 0, false},
	{"rolegate_roles", "description", KindDescription, []string{"ns", "name"}, -1, 0, false},
	{"rolegate_changes", "user_name", KindUser, []string{"ns", "revision"}, 1, 0, false},
	// The change feed's entries (after the tables above, so that a pass
	// interrupted before they were added resumes by index).
	{"rolegate_audit", "resource", KindAudit, []string{"id"}, 0, 0, true},
	// A pass interrupted before it was added resumes by index.
	{"rolegate_audit", "actor", KindAudit, []string{"id"}, 0, 0, true},
	// Last, likewise: the change feed's entries (see RecordFeed).
	{"rolegate_change_ops", "user_name", KindUser, feedPK, 1, 2, false},
	{"rolegate_change_ops", "new_user", KindUser, feedPK, 1, 2, false},
	{"rolegate_change_ops", "permission", KindPermission, feedPK, 1, 2, false},
	{"rolegate_change_ops", "description", KindDescription, feedPK, 1, 2, false},
	{"rolegate_change_ops", "actor", KindActor, feedPK, 1, 2, true},
}

// feedPK is the primary key of rolegate_change_ops.
var feedPK = []string{"ns", "revision", "seq"}

// EncryptedTables are the tables Reencode rewrites.
func EncryptedTables() []string {
	var out []string
	for _, c := range encryptedColumns {
		if !slices.Contains(out, c.table) {
			out = append(out, c.table)
		}
	}
	return out
}

// ReencodeOptions configure Reencode.
type ReencodeOptions struct {
	// Task names the pass (e.g. the target key id); a progress marker left
	// by another task is ignored.
	Task string
	// Done is the prefix of values already in their final form: the pass
	// skips them in SQL.
	Done string
	// Batch is the number of rows per transaction (default 1000).
	Batch int
	// Recode re-encodes one value: it returns the new stored form of one
	// value of kind owned by owner (the namespace; for KindAudit the
	// client's fingerprint), and whether it differs from stored. A new
	// form starts with Done: a pass never reads it again, and no row of a
	// batch is rewritten to the key of another row of the batch (on
	// PostgreSQL a batch's rewrites run together, which one by one would
	// order).
	Recode func(owner, kind, stored string) (string, bool, error)
	// Seal and Unseal encrypt and decrypt the progress marker, which names
	// the last row done (its key may hold a plain name); nil stores it as
	// it is.
	Seal   func(string) string
	Unseal func(string) (string, error)
	// Log receives progress; nil logs nothing.
	Log func(msg string, args ...any)
	// AfterBatch, when set, runs after each committed batch (n counts
	// them from 1); an error stops the pass there, as a crash would.
	AfterBatch func(n int) error
}

type reencodeMarker struct {
	Task  string `json:"task"`
	Table int    `json:"table"`
	After []any  `json:"after,omitempty"`
}

// Reencode rewrites every value of every encrypted column through
// opt.Recode, in batches of opt.Batch rows, each batch a transaction that
// also saves a progress marker in rolegate_settings, so that a pass cut
// off (a crash, a lost connection) resumes where it stopped when run again
// with the same Task. Rows are visited in primary key order from the
// marker, skipping values that already start with opt.Done; a value whose
// new form collides with an existing row (a plain name and its encrypted
// twin, from the mixed mode of earlier versions) is deleted, the twin
// kept (a batch that meets a twin made by a concurrent writer after it
// read the row rolls back and runs again). After the ordered pass, a sweep from the start finds anything
// added behind it in the old form (the caller has already made such writes
// fail, see WaitForWriters; the sweep is a second net); the pass ends when
// a sweep changes nothing. It returns the rows changed.
//
// The caller holds the migration lock. db may be a connection (SQLite:
// with secure_delete on, so that the old values are overwritten).
func Reencode(ctx context.Context, db bun.IDB, opt ReencodeOptions) (int64, error) {
	if opt.Batch <= 0 {
		opt.Batch = 1000
	}
	logf := opt.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if opt.Seal == nil || opt.Unseal == nil {
		opt.Seal = func(s string) string { return s }
		opt.Unseal = func(s string) (string, error) { return s, nil }
	}
	m := reencodeMarker{Task: opt.Task}
	if v, ok, err := GetSetting(ctx, db, SettingReencodeProgress); err != nil {
		return 0, err
	} else if ok {
		var saved reencodeMarker
		if p, err := opt.Unseal(v); err == nil && json.Unmarshal([]byte(p), &saved) == nil && saved.Task == opt.Task {
			m = saved
			logf("encryption: resuming an interrupted pass", "table", encryptedColumns[min(m.Table, len(encryptedColumns)-1)].table)
		}
	}
	var total int64
	batches := 0
	start := time.Now()
	for sweep := 0; ; sweep++ {
		changedThisRound := int64(0)
		for ; m.Table < len(encryptedColumns); m.Table, m.After = m.Table+1, nil {
			col := encryptedColumns[m.Table]
			if IsPostgres(db) {
				// Fresh statistics, or after a bulk load the planner may
				// take the by-role index for the per-row UPDATE by primary
				// key and scan a whole role each time (seconds a batch).
				if _, err := db.ExecContext(ctx, "ANALYZE "+col.table); err != nil {
					return total, Classify(err)
				}
			}
			for {
				n, changed, after, err := reencodeBatch(ctx, db, col, opt, m)
				for try := 0; try < 5 && isUniqueViolation(err); try++ {
					// A writer under the new key made the new form's twin
					// of a row of the batch after the batch read it (a
					// rotation while serving): the batch rolled back; run
					// again, it sees the twin and deletes the old row.
					time.Sleep(time.Duration(10<<try) * time.Millisecond)
					n, changed, after, err = reencodeBatch(ctx, db, col, opt, m)
				}
				if err != nil {
					return total, fmt.Errorf("storage: re-encrypting %s.%s: %w", col.table, col.col, err)
				}
				total += changed
				changedThisRound += changed
				if n == 0 {
					break
				}
				m.After = after
				batches++
				logf("encryption: batch done", "table", col.table, "rows", n, "changed", changed,
					"changed_total", total, "rows_per_second", int64(float64(total)/max(time.Since(start).Seconds(), 1e-9)))
				if opt.AfterBatch != nil {
					if err := opt.AfterBatch(batches); err != nil {
						return total, err
					}
				}
				if n < opt.Batch {
					break
				}
			}
		}
		if sweep > 0 && changedThisRound == 0 {
			break
		}
		m = reencodeMarker{Task: opt.Task} // the sweep
		if sweep >= 3 {
			return total, fmt.Errorf("storage: re-encrypting: writers kept adding values in the old form")
		}
	}
	_, err := db.NewRaw("DELETE FROM rolegate_settings WHERE key = ?", SettingReencodeProgress).Exec(ctx)
	return total, Classify(err)
}

// reencodeBatch re-encodes up to opt.Batch rows of col after m.After in
// one transaction, saving the marker past them. It returns the rows seen,
// those changed, and the key of the last.
func reencodeBatch(ctx context.Context, db bun.IDB, col encryptedColumn, opt ReencodeOptions, m reencodeMarker) (int, int64, []any, error) {
	sel := make([]string, 4)
	for i := range sel {
		switch {
		case i >= len(col.pk):
			sel[i] = "'' AS k" + strconv.Itoa(i)
		case i == col.intPK || i == col.intPK2 && i > 0:
			sel[i] = "CAST(" + col.pk[i] + " AS TEXT) AS k" + strconv.Itoa(i)
		default:
			sel[i] = col.pk[i] + " AS k" + strconv.Itoa(i)
		}
	}
	keys := strings.Join(col.pk, ", ")
	q := "SELECT " + col.owner() + " AS owner, " + strings.Join(sel, ", ") + ", " + col.col + " AS v FROM " + col.table +
		" WHERE " + col.col + " IS NOT NULL AND " + col.col + " <> ''"
	var args []any
	if !col.free {
		q += " AND " + col.col + " NOT LIKE ?"
		args = append(args, opt.Done+"%")
	}
	if m.After != nil {
		q += " AND (" + keys + ") > (" + strings.TrimSuffix(strings.Repeat("?, ", len(col.pk)), ", ") + ")"
		args = append(args, col.keyArgs(m.After)...)
	}
	q += " ORDER BY " + keys + " LIMIT ?"
	args = append(args, opt.Batch)
	var seen int
	var changed int64
	var last []any
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var batch []struct {
			Owner string `bun:"owner"`
			K0    string `bun:"k0"`
			K1    string `bun:"k1"`
			K2    string `bun:"k2"`
			K3    string `bun:"k3"`
			V     string `bun:"v"`
		}
		if err := tx.NewRaw(q, args...).Scan(ctx, &batch); err != nil {
			return err
		}
		seen = len(batch)
		if seen == 0 {
			return nil
		}
		// On PostgreSQL a batch's rewrites go as one statement (an UPDATE
		// from a list of values); SQLite is in process, and runs them one
		// by one through statements compiled once per batch.
		var many *pgRewrites // nil on SQLite
		var rw rewriter
		if IsPostgres(tx) {
			many = col.pgRewrites()
		} else {
			var err error
			if rw, err = col.rewriteSQL().prepare(ctx, tx); err != nil {
				return err
			}
			defer rw.close()
		}
		for _, r := range batch {
			nv, diff, err := opt.Recode(r.Owner, col.kind, r.V)
			if err != nil {
				return fmt.Errorf("a value of namespace %.8s…: %w", r.Owner, err)
			}
			if !diff {
				continue
			}
			changed++
			key := col.key([4]string{r.K0, r.K1, r.K2, r.K3})
			if many != nil {
				many.add(key, nv)
				continue
			}
			if err := rw.rewrite(ctx, key, nv); err != nil {
				return err
			}
		}
		if many != nil {
			if err := many.run(ctx, tx); err != nil {
				return err
			}
		}
		r := batch[len(batch)-1]
		last = col.key([4]string{r.K0, r.K1, r.K2, r.K3})
		mk, _ := json.Marshal(reencodeMarker{Task: opt.Task, Table: m.Table, After: last})
		_, err := tx.NewRaw(`INSERT INTO rolegate_settings (key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, SettingReencodeProgress, opt.Seal(string(mk))).Exec(ctx)
		return err
	})
	return seen, changed, last, Classify(err)
}

// owner is the column that says whose value a row holds: the namespace,
// or for audit records the client's fingerprint.
func (col encryptedColumn) owner() string {
	if col.kind == KindAudit {
		return "client"
	}
	return "ns"
}

// key is the primary key of a row read as text, with its integer column
// (if any) as a number.
func (col encryptedColumn) key(k [4]string) []any {
	out := make([]any, len(col.pk))
	for i := range out {
		out[i] = k[i]
		if i == col.intPK || i == col.intPK2 && i > 0 {
			n, _ := strconv.ParseInt(k[i], 10, 64)
			out[i] = n
		}
	}
	return out
}

// keyArgs turns a marker's saved key (JSON: numbers as float64) back into
// query arguments.
func (col encryptedColumn) keyArgs(after []any) []any {
	out := make([]any, len(after))
	for i, v := range after {
		if f, ok := v.(float64); ok {
			v = int64(f)
		}
		out[i] = v
	}
	return out
}
