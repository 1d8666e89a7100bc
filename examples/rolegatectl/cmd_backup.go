package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
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
			p, err := readState(ctx, a, stateOptions{memberships: true})
			if err != nil {
				return err
			}
			b := backupFile{Format: backupFormat, Version: 1, Created: time.Now().UTC(), Policy: p, Memberships: p.Memberships}
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
	var merge, dryRun bool
	cmd := &cobra.Command{
		Use:   "restore -f FILE",
		Short: "Restore a backup into an empty namespace (or, with --merge, add it to a non-empty one)",
		Args:  exactArgs(0),
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
			ops := authz.PlanPolicy(cur, want)
			if dryRun {
				return g.showPlan(cmd.OutOrStdout(), ops)
			}
			if err := applyPlan(ctx, a, ops); err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "restored %d change(s)\n", len(ops))
			return err
		}),
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "backup file (- for standard input)")
	cmd.Flags().BoolVar(&merge, "merge", false, "add the backup to a namespace that is not empty (nothing is removed)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the changes and make none")
	return cmd
}

// readBackup reads and checks a backup file.
func readBackup(g *globals, file string) (backupFile, error) {
	var raw []byte
	var err error
	if file == "-" {
		raw, err = io.ReadAll(g.env.stdin)
	} else {
		raw, err = os.ReadFile(file)
	}
	if err != nil {
		return backupFile{}, usageErr("%v", err)
	}
	var b backupFile
	if err := json.Unmarshal(raw, &b); err != nil {
		return backupFile{}, usageErr("%s: not a backup file: %v", file, err)
	}
	if b.Format != backupFormat || b.Version != 1 {
		return backupFile{}, usageErr("%s: not a rolegate backup of version 1", file)
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
