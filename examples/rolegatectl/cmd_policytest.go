package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/spf13/cobra"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/authz/authztest"
)

// newPolicyTestCmd is "policy test": a policy's decisions checked with no
// server and no database to set up, in a temporary SQLite store through
// the library (package authztest).
func newPolicyTestCmd(g *globals) *cobra.Command {
	var file, casesFile, junit string
	cmd := &cobra.Command{
		Use:   "test -f POLICY [--cases CASES] [--junit FILE]",
		Short: "Check a policy's decisions against cases, with no server (exit 0 all hold, 1 one fails, 2 bad input)",
		Long: `Loads the policy into a temporary SQLite store through the library and
checks every case: the policy file's own "tests" and those of --cases,
a file of

  cases:
    - {user: alice, permission: edit, allow: true}
    - {user: alice, permission: edit, scope: org-2, allow: false}
    - {user: intern, permission: notes.delete, allow: false, name: "interns never delete"}
  memberships:      # optional: held besides the policy's (for a policy without memberships)
    - {user: intern, role: viewer}

A case with a scope holds when a global membership or one in the scope
grants; without a scope only global memberships count. Each failure is
printed with the user, permission, scope, the expected and the given
answer, and why. Exit 0 when every case holds, 1 when one does not, 2 for
bad input (unknown keys, invalid names, a policy that does not load),
naming the file and line. --junit writes a JUnit XML report for CI.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := g.ctx(cmd)
			defer cancel()
			return g.policyTest(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr(), file, casesFile, junit)
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "policy file (- for standard input)")
	cmd.Flags().StringVar(&casesFile, "cases", "", "cases file (its cases run after the policy's own tests)")
	cmd.Flags().StringVar(&junit, "junit", "", "write a JUnit XML report to this file")
	return cmd
}

// sourcedCase is a case with the file it comes from.
type sourcedCase struct {
	authz.PolicyCase
	file string
}

func (c sourcedCase) where() string {
	if c.Line > 0 {
		return fmt.Sprintf("%s:%d", c.file, c.Line)
	}
	return c.file
}

func (g *globals) policyTest(ctx context.Context, stdout, stderr io.Writer, file, casesFile, junit string) error {
	if file == "" {
		return usageErr("-f FILE is required (- for standard input)")
	}
	data, err := g.readInput(file)
	if err != nil {
		return err
	}
	p, err := authz.ParsePolicy(data)
	if err != nil {
		return usageErr("%s", authztest.FileError(file, err))
	}
	var cases []sourcedCase
	for _, tc := range p.Tests {
		cases = append(cases, sourcedCase{tc, file})
	}
	if casesFile != "" {
		raw, err := g.readInput(casesFile)
		if err != nil {
			return err
		}
		cs, err := authz.ParsePolicyCases(raw)
		if err != nil {
			return usageErr("%s", authztest.FileError(casesFile, err))
		}
		if p, err = cs.AddTo(p); err != nil {
			return usageErr("%s", authztest.FileError(casesFile, err))
		}
		for _, tc := range cs.Cases {
			cases = append(cases, sourcedCase{tc, casesFile})
		}
	}
	if len(cases) == 0 {
		return usageErr("no cases: %s has no tests and --cases names no file with some", file)
	}
	warnUnknownPermissions(stderr, p, cases)

	start := time.Now()
	store, err := authztest.Open(ctx, p, authztest.Options{})
	if err != nil {
		var le *authztest.LoadError
		if errors.As(err, &le) {
			if line := roleLine(data, le.Op.Role); line > 0 {
				return usageErr("%s:%d: %v", file, line, err)
			}
		}
		return usageErr("%s: %v", file, err)
	}
	defer store.Close()
	plain := make([]authz.PolicyCase, len(cases))
	for i, c := range cases {
		plain[i] = c.PolicyCase
	}
	results, err := store.Check(ctx, plain)
	if err != nil {
		return &exitError{code: exitUnreachable, err: err}
	}
	elapsed := time.Since(start)
	if junit != "" {
		if err := writeJUnit(junit, file, cases, results, elapsed); err != nil {
			return usageErr("--junit: %v", err)
		}
	}
	failed := 0
	for _, r := range results {
		if r.Failed() {
			failed++
		}
	}
	if g.output == "json" {
		err = printJSON(stdout, testReport(cases, results, failed))
	} else {
		for i, r := range results {
			if r.Failed() {
				fmt.Fprint(stdout, r.Format(cases[i].where()))
			}
		}
		_, err = fmt.Fprintf(stdout, "%d case(s): %d passed, %d failed (%s)\n", len(results), len(results)-failed, failed, elapsed.Round(time.Millisecond))
	}
	if err != nil {
		return err
	}
	if failed > 0 {
		return silentExit(exitDenied)
	}
	return nil
}

// testReport is the -o json form of a run.
func testReport(cases []sourcedCase, results []authztest.Result, failed int) map[string]any {
	type failure struct {
		authz.PolicyCase
		File string `json:"file"`
		Line int    `json:"line,omitempty"`
		Got  bool   `json:"got"`
		Why  string `json:"why"`
	}
	fails := []failure{}
	for i, r := range results {
		if r.Failed() {
			fails = append(fails, failure{PolicyCase: r.Case, File: cases[i].file, Line: r.Case.Line, Got: r.Got, Why: r.Why})
		}
	}
	return map[string]any{"cases": len(results), "passed": len(results) - failed, "failed": failed, "failures": fails}
}

// warnUnknownPermissions warns of cases asking for a permission no role of
// the policy holds: a deny that passes for a typo.
func warnUnknownPermissions(w io.Writer, p authz.Policy, cases []sourcedCase) {
	known := map[string]bool{}
	for _, r := range p.Roles {
		for _, perm := range r.Permissions {
			known[perm] = true
		}
	}
	for _, c := range cases {
		if !known[c.Permission] {
			fmt.Fprintf(w, "%s: warning: no role of the policy holds %q (a typo?)\n", c.where(), c.Permission)
		}
	}
}

// roleLine is the line of the role named name in a policy file; 0 when
// it cannot be found.
func roleLine(data []byte, name string) int {
	var f struct {
		Roles []struct {
			Name string `yaml:"name"`
		} `yaml:"roles"`
	}
	if yaml.Unmarshal(data, &f) != nil {
		return 0
	}
	for i, r := range f.Roles {
		if r.Name != name {
			continue
		}
		path, err := yaml.PathString(fmt.Sprintf("$.roles[%d]", i))
		if err != nil {
			return 0
		}
		node, err := path.ReadNode(strings.NewReader(string(data)))
		if err != nil || node.GetToken() == nil || node.GetToken().Position == nil {
			return 0
		}
		return node.GetToken().Position.Line
	}
	return 0
}

// readInput reads a file, or standard input for "-".
func (g *globals) readInput(file string) ([]byte, error) {
	var b []byte
	var err error
	if file == "-" {
		b, err = io.ReadAll(g.env.stdin)
	} else {
		b, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return b, nil
}
