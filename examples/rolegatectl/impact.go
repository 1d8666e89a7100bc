package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rolegate/rolegate/authz"
)

// summaryRows is how many entries of each side apply and restore print
// before they change anything; policy diff --impact prints them all.
const summaryRows = 20

// showImpact prints who gains and who loses access: the counts, then the
// entries, lost first (at most max of each side; 0: all); JSON with -o
// json.
func (g *globals) showImpact(w io.Writer, imp authz.Impact, max int) error {
	if g.output == "json" {
		return printJSON(w, imp)
	}
	if imp.Empty() {
		_, err := fmt.Fprintln(w, "impact: nobody gains or loses access")
		return err
	}
	if _, err := fmt.Fprintf(w, "impact: %d lost, %d gained (user, permission, scope)\n", len(imp.Lost), len(imp.Gained)); err != nil {
		return err
	}
	var rows [][]string
	var more []string
	for _, side := range []struct {
		word    string
		entries []authz.Access
	}{{"lost", imp.Lost}, {"gained", imp.Gained}} {
		for i, e := range side.entries {
			if max > 0 && i == max {
				more = append(more, fmt.Sprintf("... and %d more %s", len(side.entries)-max, side.word))
				break
			}
			rows = append(rows, []string{side.word, e.User, e.Permission, scopeWord(e.Scope)})
		}
	}
	if err := printTable(w, []string{"CHANGE", "USER", "PERMISSION", "SCOPE"}, rows); err != nil {
		return err
	}
	if len(more) > 0 {
		_, err := fmt.Fprintf(w, "%s (policy diff --impact lists them all)\n", strings.Join(more, ", "))
		return err
	}
	return nil
}

func scopeWord(scope string) string {
	if scope == "" {
		return "(global)"
	}
	return scope
}

// impactSummary is what apply and restore print before they change
// anything.
func (g *globals) impactSummary(w io.Writer, imp authz.Impact, known bool) error {
	if !known {
		_, err := fmt.Fprintln(w, "impact: unknown (this server cannot list every scoped membership)")
		return err
	}
	return g.showImpact(w, imp, summaryRows)
}

// confirm lets a change go on that needs --yes: on a terminal it asks;
// otherwise it refuses (exit 1, nothing changed), saying why.
func (g *globals) confirm(cmd *cobra.Command, why string) error {
	if f, ok := g.env.stdin.(*os.File); ok && isTerminal(f) {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s. Apply? [y/N] ", why)
		line, _ := bufio.NewReader(f).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
			return nil
		}
		return deniedErr("nothing changed")
	}
	return deniedErr("%s: nothing changed; run again with --yes to go ahead", why)
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
