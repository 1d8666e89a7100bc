package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/spf13/cobra"
)

var featureRename = feature{what: "renaming users (POST /api/user/{user}/rename/{new})", present: func(doc map[string]any) bool {
	return docPath(doc, "/api/user/{user}/rename/{new}") != nil
}}

// newUserRenameCmd is `user rename OLD NEW [--merge]`: every membership of
// OLD, global and scoped, moves to NEW in one transaction on the server.
func newUserRenameCmd(g *globals) *cobra.Command {
	var merge bool
	cmd := &cobra.Command{
		Use:   "rename OLD NEW",
		Short: "Move every membership of a user, global and scoped, to a new name",
		Long: `Move every membership of OLD, global and in every scope, to NEW, in one
transaction on the server, with one audit record. When NEW already holds
memberships the server refuses (exit 1) unless --merge, which merges them
(duplicates dropped). On the host's client key, the login user named OLD
is renamed too.`,
		Args: exactArgs(2, "OLD", "NEW"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if f := cmd.Flags().Lookup("scope"); f != nil && f.Changed {
				return usageErr("user rename moves the memberships of every scope; it takes no --scope")
			}
			if err := a.requireFeature(ctx, featureRename); err != nil {
				return err
			}
			var q url.Values
			if merge {
				q = url.Values{"merge": {"true"}}
			}
			var out struct {
				User  string `json:"user"`
				Moved int    `json:"moved"`
			}
			if _, err := a.send(ctx, http.MethodPost, "/api/user/"+seg(args[0])+"/rename/"+seg(args[1]), q, nil, &out); err != nil {
				return err
			}
			return g.showResult(cmd.OutOrStdout(), out, fmt.Sprintf("renamed %s to %s: %d memberships moved", args[0], out.User, out.Moved))
		}),
	}
	cmd.Flags().BoolVar(&merge, "merge", false, "when NEW already holds memberships, merge them instead of refusing")
	return cmd
}
