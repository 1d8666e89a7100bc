package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rolegate/rolegate/examples/rolegatectl/casbinimport"
)

// env is what a run reads and writes besides its arguments, so that tests
// run the command in process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// globals are the root command's flags.
type globals struct {
	url     string
	keyFile string
	atLeast string
	output  string
	timeout time.Duration
	env     env
	api     *api
}

// run executes one command line and returns its exit code.
func run(args []string, e env) int {
	g := &globals{env: e}
	root := newRoot(g)
	root.SetArgs(args)
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	err := root.Execute()
	code := exitCode(err)
	var ee *exitError
	if err != nil && (!errors.As(err, &ee) || ee.err != nil) {
		fmt.Fprintln(e.stderr, "rolegatectl:", err)
	}
	return code
}

func newRoot(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "rolegatectl",
		Short: "Administer a rolegate server over its REST API",
		Long: `rolegatectl administers a running rolegate over its REST API.

The client key comes from --key-file or the ROLEGATE_KEY environment
variable (never from a plain flag). Exit codes: 0 ok or allowed, 1 denied
or not found, 2 usage or bad input, 3 server unreachable.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	f := root.PersistentFlags()
	f.StringVar(&g.url, "url", "", "server URL (default $ROLEGATE_URL, else http://127.0.0.1:8000)")
	f.StringVar(&g.keyFile, "key-file", "", "file holding the client key (default: $ROLEGATE_KEY)")
	f.StringVarP(&g.output, "output", "o", "table", "output format: table or json")
	f.StringVar(&g.atLeast, "at-least", "", "reads answer from state at least this revision (a token from `rolegatectl revision` or a write's Rolegate-Revision; default $ROLEGATE_AT_LEAST)")
	f.DurationVar(&g.timeout, "timeout", 5*time.Minute, "time limit of the whole command")
	_ = root.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]string{"table", "json"}, cobra.ShellCompDirectiveNoFileComp))
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &exitError{code: exitUsage, err: err} })
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if g.output != "table" && g.output != "json" {
			return usageErr("-o must be table or json, not %q", g.output)
		}
		return nil
	}
	root.AddCommand(newRoleCmd(g), newGrantCmd(g), newMemberCmd(g), newInheritCmd(g), newUserCmd(g),
		newCheckCmd(g), newWhereCanCmd(g), newWhoCanCmd(g), newWhichRolesCmd(g), newAuditCmd(g), newRevisionCmd(g))
	addLaterCommands(root, g)
	return root
}

// client returns the API client, reading the key on first use.
func (g *globals) client() (*api, error) {
	if g.api != nil {
		return g.api, nil
	}
	base := g.url
	if base == "" {
		base = g.env.getenv("ROLEGATE_URL")
	}
	if base == "" {
		base = "http://127.0.0.1:8000"
	}
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, usageErr("--url must start with http:// or https://, not %q", base)
	}
	key, err := g.key()
	if err != nil {
		return nil, err
	}
	atLeast := g.atLeast
	if atLeast == "" {
		atLeast = g.env.getenv("ROLEGATE_AT_LEAST")
	}
	g.api = &api{base: strings.TrimRight(base, "/"), key: key, atLeast: atLeast, hc: &http.Client{Timeout: 2 * time.Minute}}
	return g.api, nil
}

// key reads the client key from --key-file, else ROLEGATE_KEY.
func (g *globals) key() (string, error) {
	if g.keyFile != "" {
		// The key is a bearer secret: like the host app, refuse a file that
		// group or others may read (or write), before reading it.
		st, err := os.Stat(g.keyFile)
		if err != nil {
			return "", usageErr("--key-file: %v", err)
		}
		if perm := st.Mode().Perm(); perm&0o077 != 0 {
			return "", usageErr("--key-file %s has mode %04o: group or others can read or write it; the key is a secret (chmod 600 %s)", casbinimport.Escape(g.keyFile), perm, casbinimport.Escape(g.keyFile))
		}
		b, err := os.ReadFile(g.keyFile)
		if err != nil {
			return "", usageErr("--key-file: %v", err)
		}
		k := strings.TrimSpace(string(b))
		if k == "" {
			return "", usageErr("--key-file %s is empty", g.keyFile)
		}
		return k, nil
	}
	if k := strings.TrimSpace(g.env.getenv("ROLEGATE_KEY")); k != "" {
		return k, nil
	}
	return "", usageErr("no client key: use --key-file FILE or set ROLEGATE_KEY")
}

// ctx is the context of one command, bounded by --timeout.
func (g *globals) ctx(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	return context.WithTimeout(cmd.Context(), g.timeout)
}

// exactArgs is cobra.ExactArgs with the usage exit code.
func exactArgs(n int, names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErr("%s takes %d argument(s) (%s), got %d", cmd.CommandPath(), n, strings.Join(names, " "), len(args))
		}
		return nil
	}
}

// withClient wraps a command body that needs the API and a context.
func withClient(g *globals, fn func(ctx context.Context, a *api, cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		a, err := g.client()
		if err != nil {
			return err
		}
		ctx, cancel := g.ctx(cmd)
		defer cancel()
		return fn(ctx, a, cmd, args)
	}
}
