package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/rolegate/rolegate/authz"
)

func newPolicyCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Policy as code: export the store as a YAML file, diff a file against it, apply a file",
		Long: `A policy file (YAML; JSON Schema in policy.schema.json) lists roles with
their descriptions, grants and inheritance, and optionally memberships.
"apply" makes the store's roles and grants match the file in one
transaction (POST /api/batch); memberships only when the file has a
"memberships" key, so assignments made at run time survive a deploy.`,
	}
	var file, out string // -f of diff and apply; -f of export
	var exitCode, dryRun, withMembers bool
	readFile := func() (authz.Policy, error) {
		if file == "" {
			return authz.Policy{}, usageErr("-f FILE is required (- for standard input)")
		}
		var b []byte
		var err error
		if file == "-" {
			b, err = io.ReadAll(g.env.stdin)
		} else {
			b, err = os.ReadFile(file)
		}
		if err != nil {
			return authz.Policy{}, usageErr("%v", err)
		}
		p, err := authz.ParsePolicy(b)
		if err != nil {
			return authz.Policy{}, usageErr("%s: %v", file, err)
		}
		return p, nil
	}
	plan := func(ctx context.Context, a *api) ([]authz.Operation, error) {
		p, err := readFile()
		if err != nil {
			return nil, err
		}
		cur, err := readState(ctx, a, stateOptions{memberships: p.ManageMemberships})
		if err != nil {
			return nil, err
		}
		return authz.PlanPolicy(cur, p), nil
	}
	diff := &cobra.Command{
		Use: "diff -f FILE", Short: "Show what apply would change", Args: exactArgs(0),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, _ []string) error {
			ops, err := plan(ctx, a)
			if err != nil {
				return err
			}
			if err := g.showPlan(cmd.OutOrStdout(), ops); err != nil {
				return err
			}
			if exitCode && len(ops) > 0 {
				return silentExit(exitDenied)
			}
			return nil
		}),
	}
	diff.Flags().BoolVar(&exitCode, "exit-code", false, "exit 1 when there are differences")
	apply := &cobra.Command{
		Use: "apply -f FILE", Short: "Make the store match the file (one transaction)", Args: exactArgs(0),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, _ []string) error {
			ops, err := plan(ctx, a)
			if err != nil {
				return err
			}
			if dryRun {
				return g.showPlan(cmd.OutOrStdout(), ops)
			}
			if err := applyPlan(ctx, a, ops); err != nil {
				return err
			}
			if g.output == "json" {
				return printJSON(cmd.OutOrStdout(), map[string]any{"applied": ops})
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "applied %d change(s)\n", len(ops))
			return err
		}),
	}
	apply.Flags().BoolVar(&dryRun, "dry-run", false, "print the changes and make none")
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
	for _, c := range []*cobra.Command{diff, apply} {
		c.Flags().StringVarP(&file, "file", "f", "", "policy file (- for standard input)")
	}
	export.Flags().StringVarP(&out, "file", "f", "-", "write to this file (- for standard output)")
	cmd.AddCommand(diff, apply, export)
	return cmd
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
		if ops == nil {
			ops = []authz.Operation{}
		}
		return printJSON(w, ops)
	}
	if len(ops) == 0 {
		_, err := fmt.Fprintln(w, "no changes")
		return err
	}
	rows := make([][]string, len(ops))
	for i, op := range ops {
		rows[i] = []string{op.Op, op.Role, op.Permission + op.Parent, op.User, op.Scope, op.Description}
	}
	return printTable(w, []string{"OP", "ROLE", "PERMISSION/PARENT", "USER", "SCOPE", "DESCRIPTION"}, rows)
}
