package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/authz/authztest"
)

// defaultMaxLost is how many (user, permission, scope) accesses policy
// apply takes away without --yes.
const defaultMaxLost = 10

func newPolicyCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Policy as code: export the store as a YAML file, diff a file against it, apply a file, test a file",
		Long: `A policy file (YAML; JSON Schema in policy.schema.json) lists roles with
their descriptions, grants and inheritance, optionally memberships, and
optionally tests (decisions it must give). "apply" makes the store's roles
and grants match the file in one transaction (POST /api/batch);
memberships only when the file has a "memberships" key, so assignments
made at run time survive a deploy. "diff --impact" and "apply" say who
gains and who loses access; "test" checks the decisions with no server.`,
	}
	var file, out string // -f of diff and apply; -f of export
	var withMembers bool
	readFile := func() (authz.Policy, error) { return g.readPolicy(file) }
	cmd.AddCommand(newPolicyDiffCmd(g, &file, readFile), newPolicyApplyCmd(g, &file, readFile))
	export := &cobra.Command{
		Use: "export", Short: "Write the store's roles, grants and inheritance as a policy file", Args: exactArgs(0),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, _ []string) error {
			p, err := readState(ctx, a, stateOptions{memberships: withMembers})
			if err != nil {
				return err
			}
			var b []byte
			if g.output == "json" {
				return writeOut(g, cmd, out, func(w io.Writer) error { return printJSON(w, p) })
			}
			if b, err = authz.MarshalPolicy(p); err != nil {
				return err
			}
			return writeOut(g, cmd, out, func(w io.Writer) error { _, err := w.Write(b); return err })
		}),
	}
	export.Flags().BoolVar(&withMembers, "memberships", false, "include global memberships (the file then manages them)")
	export.Flags().StringVarP(&out, "file", "f", "-", "write to this file (- for standard output)")
	cmd.AddCommand(export, newPolicyTestCmd(g))
	return cmd
}

// readPolicy reads and parses a policy file (- for standard input); a bad
// one is a usage error naming the file and line.
func (g *globals) readPolicy(file string) (authz.Policy, error) {
	if file == "" {
		return authz.Policy{}, usageErr("-f FILE is required (- for standard input)")
	}
	b, err := g.readInput(file)
	if err != nil {
		return authz.Policy{}, err
	}
	p, err := authz.ParsePolicy(b)
	if err != nil {
		return authz.Policy{}, usageErr("%s", authztest.FileError(file, err))
	}
	return p, nil
}

func newPolicyDiffCmd(g *globals, file *string, readFile func() (authz.Policy, error)) *cobra.Command {
	var exitCode, showImpact bool
	var against string
	run := func(ctx context.Context, a *api, cmd *cobra.Command) error {
		p, err := readFile()
		if err != nil {
			return err
		}
		var cur authz.Policy
		if against != "" {
			if cur, err = g.readPolicy(against); err != nil {
				return err
			}
		} else if cur, err = readState(ctx, a, stateOptions{memberships: p.ManageMemberships || showImpact}); err != nil {
			return err
		}
		w := cmd.OutOrStdout()
		if showImpact {
			imp := authz.PolicyImpact(cur, p)
			if err := g.showImpact(w, imp, 0); err != nil {
				return err
			}
			if exitCode && !imp.Empty() {
				return silentExit(exitDenied)
			}
			return nil
		}
		p.DropExpired(time.Now())
		ops := authz.PlanPolicy(cur, p)
		if err := g.showPlan(w, ops); err != nil {
			return err
		}
		if exitCode && len(ops) > 0 {
			return silentExit(exitDenied)
		}
		return nil
	}
	online := withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, _ []string) error { return run(ctx, a, cmd) })
	diff := &cobra.Command{
		Use:   "diff -f FILE [--impact] [--against OTHER]",
		Short: "Show what apply would change, or with --impact who would gain and lose access",
		Long: `Compares the file with the server's state, or with another policy file
(--against, no server needed): the operations apply would run, or with
--impact every (user, permission, scope) that would be gained or lost,
counted and sorted. A global entry (scope "(global)") is the check without
a scope and in every scope where no scoped membership of the user decides
it; a scoped entry is a change in that scope while the global answer stays.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if against == "" {
				return online(cmd, args)
			}
			ctx, cancel := g.ctx(cmd)
			defer cancel()
			return run(ctx, nil, cmd)
		},
	}
	diff.Flags().StringVarP(file, "file", "f", "", "policy file (- for standard input)")
	diff.Flags().BoolVar(&exitCode, "exit-code", false, "exit 1 when there are differences (with --impact: when anyone gains or loses access)")
	diff.Flags().BoolVar(&showImpact, "impact", false, "list the (user, permission, scope) gained and lost instead of the operations")
	diff.Flags().StringVar(&against, "against", "", "compare with this policy file instead of a server (offline)")
	return diff
}

func newPolicyApplyCmd(g *globals, file *string, readFile func() (authz.Policy, error)) *cobra.Command {
	var dryRun, yes bool
	var maxLost int
	apply := &cobra.Command{
		Use:   "apply -f FILE",
		Short: "Make the store match the file (one transaction), saying who gains and loses access",
		Long: fmt.Sprintf(`Makes the store match the file in one transaction. Before it changes
anything it prints who would gain and who would lose access (as policy
diff --impact), and refuses (exit 1, nothing changed) when more than
--max-lost (default %d) accesses would be lost, unless --yes (on a
terminal it asks instead).`, defaultMaxLost),
		Args: exactArgs(0),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, _ []string) error {
			p, err := readFile()
			if err != nil {
				return err
			}
			cur, known, err := readForImpact(ctx, a, p)
			if err != nil {
				return err
			}
			p.DropExpired(time.Now()) // the server would refuse them (422)
			ops := authz.PlanPolicy(cur, p)
			imp := authz.PolicyImpact(cur, p)
			w := cmd.OutOrStdout()
			if dryRun {
				if g.output == "json" {
					return printJSON(w, map[string]any{"plan": nonNil(ops), "impact": imp})
				}
				if err := g.showPlan(w, ops); err != nil {
					return err
				}
				return g.showImpact(w, imp, 0)
			}
			if len(ops) > 0 && g.output != "json" {
				if err := g.impactSummary(w, imp, known); err != nil {
					return err
				}
			}
			switch {
			case len(ops) == 0, yes:
			case !known:
				if err := g.confirm(cmd, "the impact could not be computed (this server cannot list every scoped membership)"); err != nil {
					return err
				}
			case len(imp.Lost) > maxLost:
				if err := g.confirm(cmd, fmt.Sprintf("%d access(es) would be lost, more than --max-lost %d", len(imp.Lost), maxLost)); err != nil {
					return err
				}
			}
			if err := applyPlan(ctx, a, ops); err != nil {
				return err
			}
			if g.output == "json" {
				return printJSON(w, map[string]any{"applied": nonNil(ops), "impact": imp})
			}
			_, err = fmt.Fprintf(w, "applied %d change(s)\n", len(ops))
			return err
		}),
	}
	apply.Flags().StringVarP(file, "file", "f", "", "policy file (- for standard input)")
	apply.Flags().BoolVar(&dryRun, "dry-run", false, "print the changes and who gains and loses access, and make no change")
	apply.Flags().BoolVar(&yes, "yes", false, "apply even when more than --max-lost accesses would be lost")
	apply.Flags().IntVar(&maxLost, "max-lost", defaultMaxLost, "the most (user, permission, scope) accesses apply takes away without --yes")
	return apply
}

// readForImpact reads the state a plan needs, with every membership (the
// impact is about users) when the server can list them all. A server that
// has scopes but cannot list every scoped membership (an older release)
// is read without memberships when the file does not manage them, and the
// impact is then unknown (known false).
func readForImpact(ctx context.Context, a *api, p authz.Policy) (cur authz.Policy, known bool, err error) {
	if !p.ManageMemberships {
		scopes, err := a.has(ctx, featureScopes)
		if err != nil {
			return authz.Policy{}, false, err
		}
		list, err := a.has(ctx, featureScopedList)
		if err != nil {
			return authz.Policy{}, false, err
		}
		if scopes && !list {
			cur, err = readState(ctx, a, stateOptions{})
			return cur, false, err
		}
	}
	cur, err = readState(ctx, a, stateOptions{memberships: true})
	return cur, err == nil, err
}

func nonNil(ops []authz.Operation) []authz.Operation {
	if ops == nil {
		return []authz.Operation{}
	}
	return ops
}

// writeOut writes to the file, or to standard output for "-".
func writeOut(g *globals, cmd *cobra.Command, file string, fn func(io.Writer) error) error {
	if file == "" || file == "-" {
		return fn(cmd.OutOrStdout())
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return usageErr("%v", err)
	}
	if err := fn(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// showPlan prints planned operations: a table, or JSON.
func (g *globals) showPlan(w io.Writer, ops []authz.Operation) error {
	if g.output == "json" {
		return printJSON(w, nonNil(ops))
	}
	if len(ops) == 0 {
		_, err := fmt.Fprintln(w, "no changes")
		return err
	}
	rows := make([][]string, len(ops))
	for i, op := range ops {
		rows[i] = []string{op.Op, op.Role, op.Permission + op.Parent, op.User, op.Scope, op.Description, opTime(op.StartsAt), opTime(op.ExpiresAt)}
	}
	return printTable(w, []string{"OP", "ROLE", "PERMISSION/PARENT", "USER", "SCOPE", "DESCRIPTION", "FROM", "UNTIL"}, rows)
}
