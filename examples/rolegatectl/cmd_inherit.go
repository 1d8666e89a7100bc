package main

// Role inheritance and the --explain output: these talk to the routes of
// rolegate's decision engine v2 (POST|DELETE /api/role/{role}/inherits/
// {parent}, GET /api/role/{role}/inherits, ?explain=true). Against an older
// server every command here says so and exits 1; none pretends.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"

	"github.com/spf13/cobra"
)

func newInheritCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "inherit", Short: "Make a role inherit another's permissions; list and remove links"}
	path := func(args []string) string { return "/api/role/" + seg(args[0]) + "/inherits/" + seg(args[1]) }
	add := &cobra.Command{
		Use: "add ROLE PARENT", Short: "ROLE inherits every permission of PARENT (a cycle is refused)", Args: exactArgs(2, "ROLE", "PARENT"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if err := a.requireFeature(ctx, featureInheritance); err != nil {
				return err
			}
			var out any
			status, err := a.send(ctx, http.MethodPost, path(args), nil, nil, &out)
			if err != nil {
				return err
			}
			return g.showResult(cmd.OutOrStdout(), out, createdLine(status, args[0]+" inherits "+args[1]))
		}),
	}
	del := &cobra.Command{
		Use: "delete ROLE PARENT", Aliases: []string{"remove"}, Short: "Remove an inheritance link", Args: exactArgs(2, "ROLE", "PARENT"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if err := a.requireFeature(ctx, featureInheritance); err != nil {
				return err
			}
			return deleteCall(ctx, g, a, cmd, path(args), nil, args[0]+" inherits "+args[1])
		}),
	}
	list := &cobra.Command{
		Use: "list ROLE", Short: "List the role's direct parents", Args: exactArgs(1, "ROLE"),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error {
			if err := a.requireFeature(ctx, featureInheritance); err != nil {
				return err
			}
			rows, err := a.list(ctx, "/api/role/"+seg(args[0])+"/inherits", "role", nil)
			if err != nil {
				return err
			}
			return g.showList(cmd.OutOrStdout(), rows, "role")
		}),
	}
	cmd.AddCommand(add, del, list)
	return cmd
}

// printExplanation prints what has_permission?explain=true added to data
// beside "result", whatever its shape, one field a line; a server that
// added nothing is said to have given no explanation.
func printExplanation(w io.Writer, data map[string]any) {
	keys := make([]string, 0, len(data))
	for k := range data {
		if k != "result" {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		fmt.Fprintln(w, "(the server gave no explanation: it may not support ?explain=true)")
		return
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  %s: %s\n", k, compact(data[k]))
	}
}

// compact renders an explanation value on one line.
func compact(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		s := ""
		for i, e := range x {
			if i > 0 {
				s += " -> "
			}
			s += compact(e)
		}
		return s
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		s := "{"
		for i, k := range keys {
			if i > 0 {
				s += ", "
			}
			s += k + ": " + compact(x[k])
		}
		return s + "}"
	default:
		return fmt.Sprint(v)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
