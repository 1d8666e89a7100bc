package authz

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// hostOrg is a row of the host's own table in the filter tests: one
// organisation, the scope its rows belong to.
type hostOrg struct {
	bun.BaseModel `bun:"table:host_orgs"`
	ID            int64  `bun:",pk,autoincrement"`
	Org           string `bun:",notnull"`
}

// hostOrgs makes the host's table in az's database with one row per org.
func hostOrgs(t testing.TB, az *Authz, orgs []string) {
	t.Helper()
	ctx := context.Background()
	if _, err := az.DB().NewCreateTable().Model((*hostOrg)(nil)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	for len(orgs) > 0 {
		n := min(len(orgs), 500)
		rows := make([]hostOrg, n)
		for i := range rows {
			rows[i].Org = orgs[i]
		}
		if _, err := az.DB().NewInsert().Model(&rows).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		orgs = orgs[n:]
	}
}

// filtered is the orgs of the host's rows the filter keeps, sorted, and
// the statement it ran.
func filtered(t testing.TB, az *Authz, w Where) ([]string, string) {
	t.Helper()
	var rows []hostOrg
	q := w.Filter(az.DB().NewSelect().Model(&rows).Column("org"), "org").Order("org")
	stmt := q.String()
	if err := q.Scan(context.Background()); err != nil {
		t.Fatalf("%.200s: %v", stmt, err)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Org
	}
	return out, stmt
}

// TestWhereFilterStatements: the filter adds no condition for a global
// holder, one that reads no row for a user holding nothing (the plan on
// PostgreSQL, the program on SQLite), and the scopes as one array
// (PostgreSQL) or an IN list (SQLite) otherwise, past SQLite's bound on
// query parameters too.
func TestWhereFilterStatements(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, nil)
		ctx := context.Background()
		cl := mustClient(t, az, newKey())
		whereSetup(t, cl)
		hostOrgs(t, az, []string{"org-1", "org-2", "org-3", "org-4", "org-1"})
		pg := storage.IsPostgres(az.DB())

		bob, _ := cl.WhereCan(ctx, "bob", "read")
		rows, stmt := filtered(t, az, bob)
		if strings.Contains(stmt, "WHERE") || len(rows) != 5 {
			t.Errorf("global holder: %d rows by %s, want every row and no condition", len(rows), stmt)
		}

		none, _ := cl.WhereCan(ctx, "alice", "delete")
		rows, stmt = filtered(t, az, none)
		if !strings.Contains(stmt, "WHERE (FALSE)") || len(rows) != 0 {
			t.Errorf("holder of nothing: %d rows by %s, want none and WHERE (FALSE)", len(rows), stmt)
		}
		noScan(t, az, pg, stmt)

		alice, _ := cl.WhereCan(ctx, "alice", "read")
		rows, stmt = filtered(t, az, alice)
		wantCond := `WHERE ("org" IN ('org-1', 'org-2', 'org-3'))`
		if pg {
			wantCond = `WHERE ("org" = ANY('{"org-1","org-2","org-3"}'))`
		}
		if !strings.Contains(stmt, wantCond) || !slices.Equal(rows, []string{"org-1", "org-1", "org-2", "org-3"}) {
			t.Errorf("alice: %q by %s, want %s", rows, stmt, wantCond)
		}
		t.Logf("global: no condition; nothing: WHERE (FALSE); scopes: %s", wantCond)
	})
}

// noScan shows that the database answers stmt without reading the table:
// PostgreSQL's plan has a one-time filter and no scan; SQLite's program
// jumps from its start to its end before it opens the table.
func noScan(t *testing.T, az *Authz, pg bool, stmt string) {
	t.Helper()
	ctx := context.Background()
	if pg {
		var plan []string
		if err := az.DB().NewRaw("EXPLAIN (COSTS OFF) "+stmt).Scan(ctx, &plan); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(plan, "\n")
		if !strings.Contains(text, "One-Time Filter: false") || strings.Contains(text, "Scan") {
			t.Errorf("PostgreSQL plans a scan for %s:\n%s", stmt, text)
		}
		t.Logf("PostgreSQL plan of %s:\n%s", stmt, text)
		return
	}
	rows, err := az.DB().QueryContext(ctx, "EXPLAIN "+stmt)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	type op struct {
		addr   int
		opcode string
		p2     int
	}
	var prog []op
	for rows.Next() {
		var o op
		var p1, p3, p5 int
		var p4, comment any
		if err := rows.Scan(&o.addr, &o.opcode, &p1, &o.p2, &p3, &p4, &p5, &comment); err != nil {
			t.Fatal(err)
		}
		prog = append(prog, o)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// Init jumps to the set-up, which comes back to address 1; from there
	// the program runs straight (a sorter's set-up at most) into a Goto
	// past the table's OpenRead, whose loop is thus never entered.
	open := slices.IndexFunc(prog, func(o op) bool { return o.opcode == "OpenRead" })
	jump := slices.IndexFunc(prog, func(o op) bool { return o.opcode == "Goto" && o.addr > 0 })
	if open < 0 || jump < 0 || jump > open || prog[jump].p2 <= open {
		t.Errorf("SQLite's program for %s does not skip the table: %v", stmt, prog)
		return
	}
	t.Logf("SQLite's program for %s: Goto %d at %d, past OpenRead at %d", stmt, prog[jump].p2, jump, open)
}

// TestWhereFilterManyScopes: 33,000 scopes, past SQLite's 32,766 query
// parameters, filter the host's rows in one statement (3,000 on
// PostgreSQL, whose array is one value whatever its length).
func TestWhereFilterManyScopes(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az := openTarget(t, target, func(c *Config) { c.MaxRowsPerClient = 50_000 })
		ctx := context.Background()
		cl := mustClient(t, az, newKey())
		if _, err := cl.AddRole(ctx, "viewer", ""); err != nil {
			t.Fatal(err)
		}
		if _, err := cl.AddPermission(ctx, "viewer", "read"); err != nil {
			t.Fatal(err)
		}
		n := 33_000
		if target.Name == "postgresql" {
			n = 3_000
		}
		start := time.Now()
		ops := make([]Operation, n)
		orgs := make([]string, 0, n+1)
		for i := range ops {
			org := fmt.Sprintf("org-%05d", i)
			ops[i] = Operation{Op: "add_membership", User: "alice", Role: "viewer", Scope: org}
			orgs = append(orgs, org)
		}
		if _, err := cl.Batch(ctx, ops); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d memberships stored in %v", n, time.Since(start))
		hostOrgs(t, az, append(orgs, "elsewhere"))
		start = time.Now()
		w, err := cl.WhereCan(ctx, "alice", "read")
		t.Logf("where, cold: %v", time.Since(start))
		if err != nil || w.Len() != n {
			t.Fatalf("where: %d scopes, %v", w.Len(), err)
		}
		start = time.Now()
		rows, stmt := filtered(t, az, w)
		t.Logf("the filtered query: %v", time.Since(start))
		if !slices.Equal(rows, orgs) {
			t.Fatalf("%d rows of %d, statement of %d bytes", len(rows), n, len(stmt))
		}
	})
}
