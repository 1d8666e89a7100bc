package main

import (
	"context"
	"net/http"
	"time"

	"github.com/spf13/cobra"
)

func newGrantCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "grant", Short: "Grant, revoke and check a role's permissions"}
	var grantBounds boundFlags
	add := &cobra.Command{
		Use: "add ROLE PERMISSION [--until T] [--from T]", Short: "Grant a permission to a role, for good or between --from and --until", Args: exactArgs(2, "ROLE", "PERMISSION"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			q, note, err := grantBounds.query(nil, time.Now())
			if err != nil {
				return err
			}
			var out map[string]any
			status, err := a.send(ctx, http.MethodPost, "/api/permission/"+seg(args[0])+"/"+seg(args[1]), q, nil, &out)
			if err != nil {
				return err
			}
			return g.showResult(cmd.OutOrStdout(), out, createdLine(status, "grant of "+args[1]+" to "+args[0]+note))
		}),
	}
	grantBounds.register(add, "grant")
	del := &cobra.Command{
		Use: "delete ROLE PERMISSION", Aliases: []string{"revoke"}, Short: "Revoke a permission from a role", Args: exactArgs(2, "ROLE", "PERMISSION"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			return deleteCall(ctx, g, a, cmd, "/api/permission/"+seg(args[0])+"/"+seg(args[1]), nil, "grant of "+args[1]+" to "+args[0])
		}),
	}
	check := &cobra.Command{
		Use: "check ROLE PERMISSION", Short: "Does the role itself hold the permission (exit 0 yes, 1 no)", Args: exactArgs(2, "ROLE", "PERMISSION"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			return boolCheck(ctx, g, a, cmd, "/api/permission/"+seg(args[0])+"/"+seg(args[1]), nil,
				args[0]+" holds "+args[1], args[0]+" does not hold "+args[1])
		}),
	}
	cmd.AddCommand(add, del, check)
	return cmd
}

func newMemberCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "member", Short: "Add, remove and check memberships (global, or in one --scope)"}
	var scope string
	path := func(args []string) string { return "/api/membership/" + seg(args[0]) + "/" + seg(args[1]) }
	in := func() string {
		if scope == "" {
			return ""
		}
		return " in scope " + scope
	}
	var memberBounds boundFlags
	add := &cobra.Command{
		Use: "add USER ROLE [--until T] [--from T]", Short: "Make a user a member of a role, for good or between --from and --until", Args: exactArgs(2, "USER", "ROLE"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			q, note, err := memberBounds.query(scopeQuery(scope), time.Now())
			if err != nil {
				return err
			}
			if err := needScopes(ctx, a, scope); err != nil {
				return err
			}
			var out map[string]any
			status, err := a.send(ctx, http.MethodPost, path(args), q, nil, &out)
			if err != nil {
				return err
			}
			return g.showResult(cmd.OutOrStdout(), out, createdLine(status, "membership of "+args[0]+" in "+args[1]+in()+note))
		}),
	}
	memberBounds.register(add, "membership")
	del := &cobra.Command{
		Use: "delete USER ROLE", Aliases: []string{"remove"}, Short: "Remove a user from a role", Args: exactArgs(2, "USER", "ROLE"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if err := needScopes(ctx, a, scope); err != nil {
				return err
			}
			return deleteCall(ctx, g, a, cmd, path(args), scopeQuery(scope), "membership of "+args[0]+" in "+args[1]+in())
		}),
	}
	check := &cobra.Command{
		Use: "check USER ROLE", Short: "Is the user a member of the role (exit 0 yes, 1 no)", Args: exactArgs(2, "USER", "ROLE"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if err := needScopes(ctx, a, scope); err != nil {
				return err
			}
			return boolCheck(ctx, g, a, cmd, path(args), scopeQuery(scope),
				args[0]+" is a member of "+args[1]+in(), args[0]+" is not a member of "+args[1]+in())
		}),
	}
	cmd.PersistentFlags().StringVar(&scope, "scope", "", "the membership's scope (a tenant, an org...); none: global")
	cmd.AddCommand(add, del, check)
	return cmd
}
