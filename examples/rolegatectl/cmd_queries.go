package main

import (
	"context"
	"net/url"

	"github.com/spf13/cobra"
)

func newUserCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "user", Short: "Show a user's roles and permissions; rename a user"}
	var scope string
	roles := &cobra.Command{
		Use: "roles USER", Short: "List the user's roles", Args: exactArgs(1, "USER"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if err := needScopes(ctx, a, scope); err != nil {
				return err
			}
			rows, err := a.list(ctx, "/api/user_roles/"+seg(args[0]), "role", scopeQuery(scope))
			if err != nil {
				return err
			}
			return g.showList(cmd.OutOrStdout(), rows, scopedFields(scope, "role")...)
		}),
	}
	perms := &cobra.Command{
		Use: "permissions USER", Short: "List the permissions the user holds", Args: exactArgs(1, "USER"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if err := needScopes(ctx, a, scope); err != nil {
				return err
			}
			rows, err := a.list(ctx, "/api/user_permissions/"+seg(args[0]), "name", scopeQuery(scope))
			if err != nil {
				return err
			}
			return g.showList(cmd.OutOrStdout(), rows, "name")
		}),
	}
	cmd.PersistentFlags().StringVar(&scope, "scope", "", "also count memberships in this scope")
	cmd.AddCommand(roles, perms, newUserRenameCmd(g))
	return cmd
}

func newCheckCmd(g *globals) *cobra.Command {
	var scope string
	var explain, role bool
	cmd := &cobra.Command{
		Use:   "check (USER | --role ROLE) PERMISSION",
		Short: "Does the user (or with --role, the role) hold the permission (exit 0 allowed, 1 denied)",
		Long: `Does the user hold the permission, through any of their roles and what
those roles inherit. With --role, the first argument is a role, and the
answer is the role's effective grant (its own and inherited): role names are
not users.`,
		Args: exactArgs(2, "USER", "PERMISSION"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if role && scope != "" {
				return usageErr("--scope applies to users; a role's grants hold in every scope")
			}
			if err := needScopes(ctx, a, scope); err != nil {
				return err
			}
			q := url.Values{}
			if scope != "" {
				q.Set("scope", scope)
			}
			if explain {
				q.Set("explain", "true")
			}
			path := "/api/has_permission/"
			if role {
				path = "/api/permission/"
				if !explain {
					q.Set("effective", "true")
				}
			}
			var out map[string]any
			if err := a.get(ctx, path+seg(args[0])+"/"+seg(args[1]), q, &out); err != nil {
				return err
			}
			allowed, _ := out["result"].(bool)
			if g.output == "json" {
				if err := printJSON(cmd.OutOrStdout(), out); err != nil {
					return err
				}
			} else {
				w := cmd.OutOrStdout()
				line := "denied"
				if allowed {
					line = "allowed"
				}
				if _, err := w.Write([]byte(line + "\n")); err != nil {
					return err
				}
				if explain && allowed {
					printExplanation(w, out)
				}
			}
			if !allowed {
				return silentExit(exitDenied)
			}
			return nil
		}),
	}
	cmd.Flags().StringVar(&scope, "scope", "", "check in this scope (global memberships count in every scope)")
	cmd.Flags().BoolVar(&explain, "explain", false, "show the path that grants the permission")
	cmd.Flags().BoolVar(&role, "role", false, "the first argument is a role: does it hold the permission, itself or by inheritance")
	return cmd
}

func newWhoCanCmd(g *globals) *cobra.Command {
	var scope string
	cmd := &cobra.Command{
		Use: "who-can PERMISSION", Short: "List the users holding the permission", Args: exactArgs(1, "PERMISSION"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if err := needScopes(ctx, a, scope); err != nil {
				return err
			}
			rows, err := a.list(ctx, "/api/which_users_can/"+seg(args[0]), "user", scopeQuery(scope))
			if err != nil {
				return err
			}
			return g.showList(cmd.OutOrStdout(), rows, scopedFields(scope, "user")...)
		}),
	}
	cmd.Flags().StringVar(&scope, "scope", "", "also count memberships in this scope")
	return cmd
}

func newWhichRolesCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use: "which-roles PERMISSION", Short: "List the roles holding the permission", Args: exactArgs(1, "PERMISSION"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			rows, err := a.list(ctx, "/api/which_roles_can/"+seg(args[0]), "role", nil)
			if err != nil {
				return err
			}
			return g.showList(cmd.OutOrStdout(), rows, "role")
		}),
	}
}

func newAuditCmd(g *globals) *cobra.Command {
	var limit int
	var before int64
	cmd := &cobra.Command{
		Use: "audit", Short: "Show the client's audit records, newest first", Args: exactArgs(0),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if limit < 1 || limit > pageSize {
				return usageErr("--limit must be from 1 to %d", pageSize)
			}
			q := url.Values{"limit": {itoa(int64(limit))}}
			if before > 0 {
				q.Set("before", itoa(before))
			}
			var rows []map[string]any
			if err := a.get(ctx, "/api/audit", q, &rows); err != nil {
				return err
			}
			for _, r := range rows {
				if id, ok := r["id"].(float64); ok {
					r["id"] = int64(id)
				}
			}
			return g.showList(cmd.OutOrStdout(), rows, "id", "at", "action", "resource", "outcome", "request_id")
		}),
	}
	cmd.Flags().IntVar(&limit, "limit", 100, "records to show")
	cmd.Flags().Int64Var(&before, "before", 0, "only records older than the one with this id (the last id of the previous page; ids are opaque)")
	return cmd
}
