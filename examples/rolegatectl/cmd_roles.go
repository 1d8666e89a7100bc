package main

import (
	"context"
	"net/http"
	"net/url"

	"github.com/spf13/cobra"
)

func newRoleCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "role", Short: "List, add, describe and delete roles; show a role's permissions and members"}
	var desc string
	add := &cobra.Command{
		Use: "add ROLE", Short: "Create a role (exists already: unchanged, exit 0)", Args: exactArgs(1, "ROLE"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			var body any
			if desc != "" {
				body = map[string]string{"description": desc}
			}
			var out map[string]any
			status, err := a.send(ctx, http.MethodPost, "/api/role/"+seg(args[0]), nil, body, &out)
			if err != nil {
				return err
			}
			return g.showResult(cmd.OutOrStdout(), out, createdLine(status, "role "+args[0]))
		}),
	}
	add.Flags().StringVarP(&desc, "description", "d", "", "description of a new role")
	del := &cobra.Command{
		Use: "delete ROLE", Short: "Delete a role with its grants and memberships", Args: exactArgs(1, "ROLE"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			return deleteCall(ctx, g, a, cmd, "/api/role/"+seg(args[0]), nil, "role "+args[0])
		}),
	}
	list := &cobra.Command{
		Use: "list", Short: "List roles with their descriptions", Args: exactArgs(0),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			rows, err := a.list(ctx, "/api/roles", "role", nil)
			if err != nil {
				return err
			}
			return g.showList(cmd.OutOrStdout(), rows, "role", "description")
		}),
	}
	var effective bool
	perms := &cobra.Command{
		Use: "permissions ROLE", Short: "List a role's permissions (its own; --effective adds inherited ones)", Args: exactArgs(1, "ROLE"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			var q url.Values
			if effective {
				if err := a.requireFeature(ctx, featureInheritance); err != nil {
					return err
				}
				q = url.Values{"effective": {"true"}}
			}
			rows, err := a.list(ctx, "/api/role_permissions/"+seg(args[0]), "name", q)
			if err != nil {
				return err
			}
			return g.showList(cmd.OutOrStdout(), rows, "name")
		}),
	}
	perms.Flags().BoolVar(&effective, "effective", false, "include permissions inherited from parent roles")
	var scope string
	members := &cobra.Command{
		Use: "members ROLE", Short: "List a role's members (global ones; --scope adds that scope's)", Args: exactArgs(1, "ROLE"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if err := needScopes(ctx, a, scope); err != nil {
				return err
			}
			rows, err := a.list(ctx, "/api/members/"+seg(args[0]), "user", scopeQuery(scope))
			if err != nil {
				return err
			}
			return g.showList(cmd.OutOrStdout(), rows, scopedFields(scope, "user")...)
		}),
	}
	members.Flags().StringVar(&scope, "scope", "", "also count memberships in this scope")
	describe := &cobra.Command{
		Use: "describe ROLE TEXT", Short: "Change a role's description (\"\" clears it; the role must exist)", Args: exactArgs(2, "ROLE", "TEXT"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			var out map[string]any
			if _, err := a.send(ctx, http.MethodPut, "/api/role/"+seg(args[0]), nil, map[string]string{"description": args[1]}, &out); err != nil {
				return err
			}
			return g.showResult(cmd.OutOrStdout(), out, "role "+args[0]+": description set")
		}),
	}
	cmd.AddCommand(list, add, describe, del, perms, members)
	return cmd
}

// createdLine words a POST's answer: 201 created, 200 existed.
func createdLine(status int, what string) string {
	if status == http.StatusCreated {
		return "created " + what
	}
	return what + " existed already"
}

// deleteCall runs a DELETE and prints whether anything was deleted (exit
// 0 either way: the state asked for holds).
func deleteCall(ctx context.Context, g *globals, a *api, cmd *cobra.Command, path string, q url.Values, what string) error {
	var out struct {
		Deleted bool `json:"deleted"`
	}
	if _, err := a.send(ctx, http.MethodDelete, path, q, nil, &out); err != nil {
		return err
	}
	line := "deleted " + what
	if !out.Deleted {
		line = what + " was not there"
	}
	return g.showResult(cmd.OutOrStdout(), out, line)
}

// needScopes checks that the server supports scopes when one is asked for.
func needScopes(ctx context.Context, a *api, scope string) error {
	if scope == "" {
		return nil
	}
	return a.requireFeature(ctx, featureScopes)
}

// scopedFields adds the scope column when a scope was asked for.
func scopedFields(scope string, fields ...string) []string {
	if scope != "" {
		return append(fields, "scope")
	}
	return fields
}

// boolCheck runs a GET answering {"result": bool}: exit 0 when true, 1
// when false.
func boolCheck(ctx context.Context, g *globals, a *api, cmd *cobra.Command, path string, q url.Values, yes, no string) error {
	var out map[string]any
	if err := a.get(ctx, path, q, &out); err != nil {
		return err
	}
	ok, _ := out["result"].(bool)
	line := no
	if ok {
		line = yes
	}
	if err := g.showResult(cmd.OutOrStdout(), out, line); err != nil {
		return err
	}
	if !ok {
		return silentExit(exitDenied)
	}
	return nil
}
