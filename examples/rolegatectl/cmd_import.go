package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/uptrace/bun/driver/pgdriver"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/examples/rolegatectl/casbinimport"
)

func newImportCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "import", Short: "Import from another authorization system"}
	var file, modelFile, dbURL, table string
	var dryRun bool
	casbin := &cobra.Command{
		Use:   "casbin [--model model.conf] (--policy policy.csv | --db URL)",
		Short: "Import a Casbin RBAC policy (adds only; refuses a model rolegate cannot express)",
		Long: `Import a Casbin policy from a policy.csv or a casbin_rule table (--db with a
postgres:// URL, or sqlite://PATH / file:PATH). Nothing is removed: roles,
grants, inheritance and memberships are added in one transaction.

With --model, the Casbin model (.conf) says what each field means. rolegate
expresses RBAC (g(r.sub, p.sub) and r.X == p.X), with a role hierarchy,
with resource roles (g2(r.obj, p.obj)), with domains (g = _, _, _ and
r.dom == p.dom), and with a hierarchy in domains. Anything else (deny or
priority effects, keyMatch/regexMatch/globMatch matchers, ABAC conditions,
time-windowed role links, several policy types, a literal * as a name) is
refused before anything is written, with exit code 2; so is what would
import with another meaning than Casbin's: role links that loop (legal in
Casbin), an object or action containing ':' (OBJ:ACT would be ambiguous),
and, without --model, fields that are matcher expressions (ABAC rules,
the in operator), each named by its lines. Without --model the form is
read from the policy's shape, and refused alike.

  p, ROLE, PERM            grant PERM
  p, ROLE, OBJ, ACT        grant "OBJ:ACT"
  p, ROLE, DOM, OBJ, ACT   grant "OBJ:ACT" to role "ROLE@DOM" (policies with domains)
  g, USER, ROLE            membership (g, ROLE, ROLE: inheritance, when the first
                           field is itself a role, i.e. the second field of a g line)
  g, USER, ROLE, DOM       membership of USER in "ROLE@DOM", in scope DOM
  g, ROLE, ROLE, DOM       "ROLE@DOM" inherits the other "ROLE@DOM"
  g2, OBJ, GROUP           grants on GROUP are granted on OBJ too
A subject granted permissions directly gets a role of the same name (in a
domain: "USER@DOM", in scope DOM) with itself as a member, a role too
(Casbin's g(x, x) holds: p, alice, data1, read with g, bob, alice leaves
alice her grants). A role with no p line of its own is not a subject: ask
it with "rolegatectl check --role". A user who reaches a grant only
through more than 10 role links (Casbin's default limit) is named in a
warning: rolegate grants it, Casbin does not.

Past 50,000 changes the plan is sent as a stream (POST /api/batch/stream),
still applied in one transaction: all or nothing.

Exit codes: 0 imported; 1 imported, but some lines were skipped (each is
listed with its reason); 2 refused, nothing written.`,
		Args: exactArgs(0),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, _ []string) error {
			var rules []casbinimport.Rule
			var err error
			if dbURL == "" && file == "" {
				// A URL with a password does not belong in shell history.
				dbURL = g.env.getenv("ROLEGATE_CASBIN_DB")
			}
			var model *casbinimport.Model
			if modelFile != "" {
				f, err := os.Open(modelFile)
				if err != nil {
					return usageErr("--model: %s", casbinimport.Escape(err.Error()))
				}
				model, err = casbinimport.ReadModel(f)
				f.Close()
				if err != nil {
					return usageErr("%s: %v", casbinimport.Escape(modelFile), err)
				}
			}
			switch {
			case (file == "") == (dbURL == ""):
				return usageErr("give exactly one of --policy FILE and --db URL (or ROLEGATE_CASBIN_DB)")
			case file != "":
				f, err := os.Open(file)
				if err != nil {
					return usageErr("%s", casbinimport.Escape(err.Error()))
				}
				rules, err = casbinimport.ReadCSV(f)
				f.Close()
				if err != nil {
					return usageErr("%s: %s", casbinimport.Escape(file), casbinimport.Escape(err.Error()))
				}
			default:
				if rules, err = readCasbinTable(ctx, dbURL, table); err != nil {
					return err
				}
			}
			res, err := casbinimport.Import(rules, model)
			if err != nil {
				// Refused: nothing is read from the server or written.
				return usageErr("%v", err)
			}
			cur, err := readState(ctx, a, stateOptions{memberships: true, scopes: scopesOf(res.Policy), addOnly: true})
			if err != nil {
				return err
			}
			ops := authz.PlanPolicy(cur, mergePolicies(cur, res.Policy))
			// A skipped line makes the exit code 1; nothing else changes.
			done := func() error {
				if len(res.Skipped) > 0 {
					return silentExit(exitDenied)
				}
				return nil
			}
			w := cmd.OutOrStdout()
			if g.output == "json" {
				if res.Skipped == nil {
					res.Skipped = []casbinimport.Skipped{}
				}
				if ops == nil {
					ops = []authz.Operation{}
				}
				if !dryRun {
					if err := applyPlan(ctx, a, ops); err != nil {
						return err
					}
				}
				if res.Warnings == nil {
					res.Warnings = []string{}
				}
				if err := printJSON(w, map[string]any{"dry_run": dryRun, "operations": ops, "skipped": res.Skipped, "warnings": res.Warnings}); err != nil {
					return err
				}
				return done()
			}
			for _, s := range res.Skipped {
				where := ""
				if s.Line > 0 {
					where = fmt.Sprintf("line %d: ", s.Line)
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "skipped %s%s (%s)\n", where, s.Text, s.Reason)
			}
			for _, s := range res.Warnings {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", s)
			}
			if dryRun {
				if err := g.showPlan(w, ops); err != nil {
					return err
				}
				return done()
			}
			if err := applyPlan(ctx, a, ops); err != nil {
				return err
			}
			if _, err = fmt.Fprintf(w, "imported %d change(s), skipped %d rule(s)\n", len(ops), len(res.Skipped)); err != nil {
				return err
			}
			return done()
		}),
	}
	casbin.Flags().StringVar(&file, "policy", "", "Casbin policy.csv")
	casbin.Flags().StringVar(&modelFile, "model", "", "Casbin model (.conf) the policy is written for; without it, the form is read from the policy")
	casbin.Flags().StringVar(&dbURL, "db", "", "database holding a casbin_rule table (postgres://..., sqlite://PATH); default $ROLEGATE_CASBIN_DB, which keeps a password out of shell history")
	casbin.Flags().StringVar(&table, "table", "casbin_rule", "table name with --db")
	casbin.Flags().BoolVar(&dryRun, "dry-run", false, "print the plan and the skipped rules; change nothing")
	cmd.AddCommand(casbin)
	return cmd
}

// mergePolicies is cur with everything of add added: an import adds, and
// never removes or re-describes.
func mergePolicies(cur, add authz.Policy) authz.Policy {
	out := authz.Policy{Version: authz.PolicyVersion, ManageMemberships: true}
	byName := map[string]int{}
	for _, r := range cur.Roles {
		byName[r.Name] = len(out.Roles)
		out.Roles = append(out.Roles, authz.PolicyRole{Name: r.Name, Description: r.Description,
			Permissions: slices.Clone(r.Permissions), Inherits: slices.Clone(r.Inherits), TimedPermissions: slices.Clone(r.TimedPermissions)})
	}
	for _, r := range add.Roles {
		i, ok := byName[r.Name]
		if !ok {
			byName[r.Name] = len(out.Roles)
			out.Roles = append(out.Roles, r)
			continue
		}
		out.Roles[i].Permissions = append(out.Roles[i].Permissions, r.Permissions...)
		out.Roles[i].Inherits = append(out.Roles[i].Inherits, r.Inherits...)
		out.Roles[i].TimedPermissions = append(out.Roles[i].TimedPermissions, r.TimedPermissions...)
	}
	out.Memberships = append(slices.Clone(cur.Memberships), add.Memberships...)
	out.Normalize()
	return out
}

// readCasbinTable reads the rules of a casbin_rule table (ptype, v0..v5).
func readCasbinTable(ctx context.Context, dsn, table string) ([]casbinimport.Rule, error) {
	if !authz.ValidName(table) || !isIdent(table) {
		return nil, usageErr("--table must be a plain SQL identifier")
	}
	db, err := openCasbinDB(dsn)
	if err == nil {
		err = db.PingContext(ctx)
		if err != nil {
			db.Close()
		}
	}
	if err != nil {
		return nil, &exitError{code: exitUnreachable, err: fmt.Errorf("--db: %w", err)}
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "SELECT ptype, v0, v1, v2, v3, v4, v5 FROM "+table+" ORDER BY id")
	if err != nil {
		return nil, deniedErr("--db: reading %s: %v", table, err)
	}
	defer rows.Close()
	var out []casbinimport.Rule
	for rows.Next() {
		var f [7]sql.NullString
		if err := rows.Scan(&f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6]); err != nil {
			return nil, deniedErr("--db: reading %s: %v", table, err)
		}
		vs := make([]string, 0, 6)
		for _, v := range f[1:] {
			vs = append(vs, v.String)
		}
		for len(vs) > 0 && vs[len(vs)-1] == "" {
			vs = vs[:len(vs)-1]
		}
		out = append(out, casbinimport.Rule{Line: len(out) + 1, PType: f[0].String, Values: vs})
	}
	if err := rows.Err(); err != nil {
		return nil, deniedErr("--db: reading %s: %v", table, err)
	}
	return out, nil
}

// openCasbinDB opens the database of a Casbin adapter: a postgres:// (or
// postgresql://) URL, or a SQLite file as sqlite://PATH or file:PATH
// (sqlite://rel/x.db is relative, sqlite:///abs/x.db absolute).
func openCasbinDB(dsn string) (*sql.DB, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, errors.New("not a valid URL")
	}
	switch strings.ToLower(u.Scheme) {
	case "postgres", "postgresql":
		return sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn), pgdriver.WithDialTimeout(3*time.Second))), nil
	case "sqlite", "sqlite3", "file":
		p := strings.TrimPrefix(dsn[len(u.Scheme)+1:], "//")
		if i := strings.IndexAny(p, "?#"); i >= 0 {
			p = p[:i]
		}
		if p, err = url.PathUnescape(p); err != nil || p == "" {
			return nil, errors.New("the URL does not name a SQLite file")
		}
		return sql.Open("sqlite", p)
	default:
		return nil, fmt.Errorf("unsupported scheme %q (use postgres://, sqlite:// or file:)", u.Scheme)
	}
}

func isIdent(s string) bool {
	for i, c := range s {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}
