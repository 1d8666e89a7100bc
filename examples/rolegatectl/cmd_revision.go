package main

import (
	"context"

	"github.com/spf13/cobra"
)

// newRevisionCmd prints the client's current revision token (GET
// /api/revision). A read on another replica with --at-least TOKEN then
// answers from state at least that new:
//
//	rolegatectl --url $A policy apply -f policy.yaml
//	T=$(rolegatectl --url $A revision)
//	rolegatectl --url $B --at-least "$T" check alice edit
func newRevisionCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use: "revision", Short: "Print the current revision token (for --at-least on another replica)", Args: exactArgs(0),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, _ []string) error {
			var out struct {
				Revision string `json:"revision"`
			}
			if err := a.get(ctx, "/api/revision", nil, &out); err != nil {
				return err
			}
			return g.showResult(cmd.OutOrStdout(), out, out.Revision)
		}),
	}
}
