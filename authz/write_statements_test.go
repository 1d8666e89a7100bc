package authz

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// statementCounter is a query hook that records the statements run under
// a context marked by counted, BEGIN and COMMIT (and ROLLBACK) left out.
// Queries of the background watcher and revision check carry no mark.
type statementCounter struct {
	mu    sync.Mutex
	stmts []string
}

type countedKey struct{}

func counted(ctx context.Context) context.Context { return context.WithValue(ctx, countedKey{}, true) }

var _ bun.QueryHook = (*statementCounter)(nil)

func (h *statementCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

func (h *statementCounter) AfterQuery(ctx context.Context, e *bun.QueryEvent) {
	if ctx.Value(countedKey{}) == nil {
		return
	}
	switch strings.ToUpper(strings.TrimSpace(e.Query)) {
	case "BEGIN", "COMMIT", "ROLLBACK":
		return
	}
	h.mu.Lock()
	h.stmts = append(h.stmts, e.Query)
	h.mu.Unlock()
}

// take returns the statements recorded since the last take.
func (h *statementCounter) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.stmts
	h.stmts = nil
	return s
}

// writeStatements sorts a write's statements: the audit insert, the
// change log (the revision bump, the change-log insert and the NOTIFY: one
// statement on PostgreSQL, two on SQLite), and the rest, the write's own.
func writeStatements(stmts []string) (audit, changeLog int, rest []string) {
	for _, q := range stmts {
		switch {
		case strings.Contains(q, "INSERT INTO rolegate_audit"):
			audit++
		case strings.Contains(q, "rolegate_changes"), strings.Contains(q, "INSERT INTO rolegate_revisions"):
			changeLog++
		default:
			rest = append(rest, q)
		}
	}
	return audit, changeLog, rest
}

// TestWriteStatements counts what add_role, add_permission and
// add_membership ask of the store, each on a fresh target (it creates) and
// on an existing one (it finds it there): at most 3 statements beyond the
// audit insert and the change log, in the default (admin-key) mode and in
// open mode.
func TestWriteStatements(t *testing.T) {
	const most = 3
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, mode := range []struct {
			name string
			keys bool
		}{{"keys", true}, {"open", false}} {
			t.Run(mode.name, func(t *testing.T) {
				key := newKey()
				var mod func(*Config)
				if mode.keys {
					mod = func(c *Config) { c.ClientKey = key }
				}
				// The hook goes on before Open, so that no background work
				// (the audit retention) is running on the handle meanwhile.
				ft := freshTarget(t, target)
				db := storagetest.OpenTarget(t, ft)
				h := &statementCounter{}
				db.AddQueryHook(h)
				cfg := configFor(ft)
				if mod != nil {
					mod(&cfg)
				}
				az, err := OpenDB(context.Background(), db, cfg)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { az.Close() })
				c := mustClient(t, az, key)
				ctx := counted(context.Background())
				for _, op := range []struct {
					name string
					run  func() (bool, error)
				}{
					{"add_role", func() (bool, error) { return c.AddRole(ctx, "editor", "Edits") }},
					{"add_permission", func() (bool, error) { return c.AddPermission(ctx, "editor", "edit") }},
					{"add_membership", func() (bool, error) { return c.AddMembership(ctx, "alice", "editor") }},
				} {
					for _, want := range []bool{true, false} {
						h.take()
						created, err := op.run()
						if err != nil || created != want {
							t.Fatalf("%s = %v, %v; want %v", op.name, created, err, want)
						}
						stmts := h.take()
						audit, changeLog, rest := writeStatements(stmts)
						t.Logf("%s (created %v): %d statements: audit %d, change log %d, others %d", op.name, want, len(stmts), audit, changeLog, len(rest))
						for _, q := range rest {
							t.Logf("    %s", oneLine(q))
						}
						logged := 0 // a change: one statement on PostgreSQL (bump, entry and NOTIFY), two on SQLite
						if want {
							logged = 1
							if target.Name == "sqlite" {
								logged = 2
							}
						}
						if changeLog != logged {
							t.Errorf("%s (created %v): %d change log statements, want %d", op.name, want, changeLog, logged)
						}
						if audit != 1 {
							t.Errorf("%s (created %v): %d audit inserts, want 1", op.name, want, audit)
						}
						if len(rest) > most {
							t.Errorf("%s (created %v): %d statements beyond the audit and change log, want at most %d", op.name, want, len(rest), most)
						}
					}
				}
			})
		}
	})
}

func oneLine(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if len(q) > 160 {
		q = q[:160] + "..."
	}
	return q
}
