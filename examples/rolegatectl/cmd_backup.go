package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rolegate/rolegate/authz"
)

// backupFormat names the backup file format.
const backupFormat = "rolegate-backup"

// backupFile is what "rolegatectl backup" writes: one JSON document.
type backupFile struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// Namespace is the fingerprint of the namespace backed up (see
	// namespaceFingerprint); restore warns when it restores into another.
	// Backups written before it was recorded have none, and restore as
	// before.
	Namespace string `json:"namespace,omitempty"`
	// Revision is the namespace's revision the backup holds (a token,
	// r42): the change feed (rolegatectl changes --after) continues from
	// it. Backups written before it was recorded have none.
	Revision string `json:"revision,omitempty"`
	// Scopes: files written before GET /api/scoped_memberships held the
	// scopes named with --scopes here; backups now hold every scope and
	// leave it out. Read and ignored.
	Scopes []string     `json:"scopes,omitempty"`
	Policy authz.Policy `json:"policy"`
	// Memberships of the policy, kept apart so that an empty list is still
	// written (the policy's field omits it).
	Memberships []authz.PolicyMembership `json:"memberships"`
	// Audit, with --audit: the client's records, newest first. Restore
	// does not write them back (the audit log is append-only, and the
	// restore records its own changes); they are kept for the record.
	Audit []json.RawMessage `json:"audit,omitempty"`
}

func newBackupCmd(g *globals) *cobra.Command {
	var file string
	var withAudit bool
	var scopes []string
	cmd := &cobra.Command{
		Use:   "backup",
		Short: "Write the namespace's roles, grants, inheritance and memberships (and optionally audit) as one file",
		Args:  exactArgs(0),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, _ []string) error {
			p, rev, err := readSnapshot(ctx, a, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			b := backupFile{Format: backupFormat, Version: 1, Created: time.Now().UTC(), Namespace: namespaceFingerprint(a.key), Revision: rev, Policy: p, Memberships: p.Memberships}
			b.Policy.Memberships = nil
			if withAudit {
				if b.Audit, err = readAudit(ctx, a); err != nil {
					return err
				}
			}
			return writeOut(g, cmd, file, func(w io.Writer) error { return printJSON(w, b) })
		}),
	}
	cmd.Flags().StringVarP(&file, "file", "f", "-", "write to this file (- for standard output)")
	cmd.Flags().BoolVar(&withAudit, "audit", false, "include the audit records")
	// --scopes named the scopes to back up while the REST API listed scoped
	// memberships per scope only; every scope is backed up now. Kept,
	// ignored, so that existing scripts run.
	cmd.Flags().StringSliceVar(&scopes, "scopes", nil, "ignored: every scope is backed up")
	_ = cmd.Flags().MarkDeprecated("scopes", "every scope is backed up now")
	return cmd
}

func newRestoreCmd(g *globals) *cobra.Command {
	var file string
	var merge, dryRun, yes bool
	cmd := &cobra.Command{
		Use:   "restore -f FILE",
		Short: "Restore a backup into an empty namespace (or, with --merge, add it to a non-empty one)",
		Long: `Restores a backup file into the namespace of the client key: first it
prints what it will do (the changes, and who gains access as policy diff
--impact says it), and it changes nothing without --yes (on a terminal it
asks instead). A file with keys rolegatectl does not write is refused
(exit 2, naming them); a backup taken from another namespace is restored
with a warning that says so.`,
		Args: exactArgs(0),
		RunE: withClient(g, func(ctx context.Context, a *api, cmd *cobra.Command, _ []string) error {
			if file == "" {
				return usageErr("-f FILE is required (- for standard input)")
			}
			b, err := readBackup(g, file)
			if err != nil {
				return err
			}
			cur, err := readState(ctx, a, stateOptions{memberships: true})
			if err != nil {
				return err
			}
			if !merge && (len(cur.Roles) > 0 || len(cur.Memberships) > 0) {
				return deniedErr("the namespace is not empty (%d roles); restore into an empty one, or add --merge to add the backup to it", len(cur.Roles))
			}
			want := b.Policy
			if merge {
				want = mergePolicies(cur, b.Policy)
			}
			want.DropExpired(time.Now()) // what expired since the backup is not restored
			ops := authz.PlanPolicy(cur, want)
			imp := authz.PolicyImpact(cur, want)
			warnNamespace(cmd.ErrOrStderr(), file, b.Namespace, namespaceFingerprint(a.key))
			w := cmd.OutOrStdout()
			if dryRun {
				if g.output == "json" {
					return printJSON(w, map[string]any{"plan": nonNil(ops), "impact": imp})
				}
				if err := g.showPlan(w, ops); err != nil {
					return err
				}
				return g.showImpact(w, imp, 0)
			}
			if g.output != "json" {
				if _, err := fmt.Fprintf(w, "restore: %s\n", planCounts(ops)); err != nil {
					return err
				}
				if err := g.impactSummary(w, imp, true); err != nil {
					return err
				}
			}
			if len(ops) > 0 && !yes {
				if err := g.confirm(cmd, fmt.Sprintf("restoring makes %d change(s)", len(ops))); err != nil {
					return err
				}
			}
			if err := applyPlan(ctx, a, ops); err != nil {
				return err
			}
			if g.output == "json" {
				return printJSON(w, map[string]any{"restored": nonNil(ops), "impact": imp})
			}
			_, err = fmt.Fprintf(w, "restored %d change(s)\n", len(ops))
			return err
		}),
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "backup file (- for standard input)")
	cmd.Flags().BoolVar(&merge, "merge", false, "add the backup to a namespace that is not empty (nothing is removed)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the changes and who gains and loses access, and make no change")
	cmd.Flags().BoolVar(&yes, "yes", false, "restore without asking")
	return cmd
}

// snapshotTries is how many times backup reads the namespace before it
// settles for a state that writes moved while it was read.
const snapshotTries = 5

// readSnapshot reads the namespace's state and the revision it holds: the
// revision read before and after the state agree, so no write landed
// between (the lists are several reads). When writes keep landing, it
// keeps the last state read with the revision read before it, and warns:
// replaying the change feed from that revision re-applies what the state
// may hold already. A server without revisions gives "".
func readSnapshot(ctx context.Context, a *api, warn io.Writer) (authz.Policy, string, error) {
	revision := func() (string, error) {
		var out struct {
			Revision string `json:"revision"`
		}
		err := a.get(ctx, "/api/revision", nil, &out)
		var ae *apiError
		if errors.As(err, &ae) && ae.status == http.StatusNotFound {
			return "", nil // an older server
		}
		return out.Revision, err
	}
	for try := 1; ; try++ {
		before, err := revision()
		if err != nil {
			return authz.Policy{}, "", err
		}
		// The lists read at least that revision: a replica reading from
		// a standby behind it answers from the primary instead.
		saved := a.atLeast
		if before != "" {
			a.atLeast = before
		}
		p, err := readState(ctx, a, stateOptions{memberships: true})
		a.atLeast = saved
		if err != nil {
			return authz.Policy{}, "", err
		}
		after, err := revision()
		if err != nil {
			return authz.Policy{}, "", err
		}
		if before == after || try == snapshotTries {
			if before != after {
				fmt.Fprintf(warn, "rolegatectl: warning: writes landed while the backup was read (%s to %s); it records %s, and replaying the changes after it re-applies some it holds\n", before, after, before)
			}
			return p, before, nil
		}
	}
}

// namespaceFingerprint identifies the namespace of a client key in a
// backup: a digest of the namespace id (the SHA-256 of the normalised key,
// which every stored row carries), so equal for the same key on any
// server and useless to recover the key.
func namespaceFingerprint(key string) string {
	ns := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(key))))
	sum := sha256.Sum256([]byte("rolegate backup namespace\x00" + hex.EncodeToString(ns[:])))
	return hex.EncodeToString(sum[:16])
}

// warnNamespace warns when a backup comes from another namespace than the
// one it is restored into, or does not say which.
func warnNamespace(w io.Writer, file, from, into string) {
	switch from {
	case into:
	case "":
		fmt.Fprintf(w, "rolegatectl: note: %s does not record the namespace it was taken from (written by an older rolegatectl)\n", file)
	default:
		fmt.Fprintf(w, "rolegatectl: warning: %s was taken from another namespace (fingerprint %s) than this key's (%s)\n", file, from, into)
	}
}

// planCounts says how many operations of each kind a plan holds.
func planCounts(ops []authz.Operation) string {
	if len(ops) == 0 {
		return "no changes"
	}
	var kinds []string
	n := map[string]int{}
	for _, op := range ops {
		kind := op.Op
		if op.Scope != "" {
			kind += " (scoped)"
		}
		if n[kind] == 0 {
			kinds = append(kinds, kind)
		}
		n[kind]++
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s %d", k, n[k])
	}
	return fmt.Sprintf("%d change(s): %s", len(ops), strings.Join(parts, ", "))
}

// readBackup reads and checks a backup file: keys rolegatectl does not
// write (unknown, in another letter case, or repeated) are refused.
func readBackup(g *globals, file string) (backupFile, error) {
	raw, err := g.readInput(file)
	if err != nil {
		return backupFile{}, err
	}
	var b backupFile
	if err := json.Unmarshal(raw, &b); err != nil {
		return backupFile{}, usageErr("%s: not a backup file: %v", file, err)
	}
	if b.Format != backupFormat || b.Version != 1 {
		return backupFile{}, usageErr("%s: not a rolegate backup of version 1", file)
	}
	bad, err := strictKeys(raw, b)
	if err != nil {
		return backupFile{}, usageErr("%s: not a backup file: %v", file, err)
	}
	if len(bad) > 0 {
		return backupFile{}, errUnknownKeys(file, bad)
	}
	b.Policy.Memberships, b.Policy.ManageMemberships = b.Memberships, true
	if b.Policy.Memberships == nil {
		b.Policy.Memberships = []authz.PolicyMembership{}
	}
	if err := b.Policy.Validate(); err != nil {
		return backupFile{}, usageErr("%s: %v", file, err)
	}
	b.Policy.Normalize()
	return b, nil
}

// readAudit pages through GET /api/audit, newest first.
func readAudit(ctx context.Context, a *api) ([]json.RawMessage, error) {
	var all []json.RawMessage
	var before int64
	for {
		q := url.Values{"limit": {strconv.Itoa(pageSize)}}
		if before > 0 {
			q.Set("before", strconv.FormatInt(before, 10))
		}
		var page []json.RawMessage
		if err := a.get(ctx, "/api/audit", q, &page); err != nil {
			return nil, err
		}
		all = append(all, page...)
		if len(page) < pageSize {
			return all, nil
		}
		var last struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(page[len(page)-1], &last); err != nil || last.ID < 1 {
			return all, nil
		}
		before = last.ID
	}
}
