package main

import (
	"context"
	"fmt"
	"net/url"

	"github.com/spf13/cobra"
)

var featureWhereCan = feature{what: "where-can (GET /api/where_can)", present: func(doc map[string]any) bool {
	return docPath(doc, "/api/where_can/{user}/{name}") != nil
}}

// whereCan is GET /api/where_can's data, all pages together.
type whereCan struct {
	Global bool     `json:"global"`
	Scopes []string `json:"scopes"`
}

func newWhereCanCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "where-can USER PERMISSION",
		Short: "Where the user holds the permission: globally, and the scopes (exit 0 somewhere, 1 nowhere)",
		Long: `Where the user holds the permission: "global" when a global membership
grants it (then it holds in every scope), and the scopes, sorted, where a
membership in that scope grants it (inheritance included), listed whether
or not it holds globally. Exit 0 when it holds somewhere, 1 nowhere.`,
		Args: exactArgs(2, "USER", "PERMISSION"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if err := a.requireFeature(ctx, featureWhereCan); err != nil {
				return err
			}
			where, err := a.whereCan(ctx, args[0], args[1])
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if g.output == "json" {
				err = printJSON(w, where)
			} else {
				global := "no"
				if where.Global {
					global = "yes: every scope"
				}
				if _, err = fmt.Fprintf(w, "global: %s\n", global); err == nil && len(where.Scopes) > 0 {
					rows := make([][]string, len(where.Scopes))
					for i, s := range where.Scopes {
						rows[i] = []string{s}
					}
					err = printTable(w, []string{"SCOPE"}, rows)
				}
			}
			if err != nil {
				return err
			}
			if !where.Global && len(where.Scopes) == 0 {
				return silentExit(exitDenied)
			}
			return nil
		}),
	}
}

// whereCan reads every page of the user's scopes.
func (a *api) whereCan(ctx context.Context, user, perm string) (whereCan, error) {
	out := whereCan{Scopes: []string{}}
	after := ""
	for {
		q := url.Values{"limit": {fmt.Sprint(pageSize)}}
		if after != "" {
			q.Set("after", after)
		}
		var page whereCan
		if err := a.get(ctx, "/api/where_can/"+seg(user)+"/"+seg(perm), q, &page); err != nil {
			return whereCan{}, err
		}
		out.Global = page.Global
		out.Scopes = append(out.Scopes, page.Scopes...)
		if len(page.Scopes) < pageSize || page.Scopes[len(page.Scopes)-1] <= after {
			return out, nil
		}
		after = page.Scopes[len(page.Scopes)-1]
	}
}
