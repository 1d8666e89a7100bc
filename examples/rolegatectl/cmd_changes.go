package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// featureChanges: the change feed (GET /api/changes).
var featureChanges = feature{what: "the change feed (GET /api/changes)", present: func(doc map[string]any) bool {
	return docPath(doc, "/api/changes") != nil
}}

// changesPage is the data of GET /api/changes; each change is kept as the
// server sent it.
type changesPage struct {
	Changes []json.RawMessage `json:"changes"`
	Next    string            `json:"next"`
}

// followWait is the long poll of changes --follow: how long one request
// waits on the server for a change.
const followWait = 30 * time.Second

func newChangesCmd(g *globals) *cobra.Command {
	var after, out string
	var follow bool
	var limit int
	cmd := &cobra.Command{
		Use:   "changes [--after REV] [--follow] [--out FILE]",
		Short: "Print the namespace's changes after a revision as JSON lines (--follow: keep following)",
		Long: `Prints the client's changes after revision --after (a token such as r42:
a write's Rolegate-Revision, "rolegatectl revision", a backup's "revision";
default r0, the start), oldest first, one JSON object a line, as GET
/api/changes gives them. Without --follow it stops at the newest change.

--follow keeps following: it long-polls the server (30 s at a time) and
prints each change as it arrives, resuming from the last page's next after a
lost connection or an unavailable server (retrying with backoff). It stops
with exit 1 when the changes after its revision are no longer kept (410):
resync from a backup, then follow from the backup's revision.

--out FILE appends the lines to FILE instead, each page in one write,
synced before the next is read; started again with the same FILE (and no
--after), it drops a line cut short and resumes after the changes of
FILE's last revision that it holds, so a follower killed at any moment and
restarted loses no change and repeats none. Start a new FILE at a
revision (--after r42), not inside one.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := g.client()
			if err != nil {
				return err
			}
			if limit < 1 || limit > 1000 {
				return usageErr("--limit must be from 1 to 1000")
			}
			ctx := cmd.Context()
			if !follow {
				var cancel context.CancelFunc
				ctx, cancel = g.ctx(cmd)
				defer cancel()
			}
			if err := a.requireFeature(ctx, featureChanges); err != nil {
				return err
			}
			var w io.Writer = cmd.OutOrStdout()
			sync := func() error { return nil }
			if out != "" {
				f, last, err := openChangesOut(out)
				if err != nil {
					return err
				}
				defer f.Close()
				if after == "" {
					after = last
				}
				w, sync = f, f.Sync
			}
			if after == "" {
				after = "r0"
			}
			return followChanges(ctx, a, w, sync, after, limit, follow)
		},
	}
	cmd.Flags().StringVar(&after, "after", "", "print the changes after this revision token (default r0, or the last line of --out)")
	cmd.Flags().BoolVar(&follow, "follow", false, "keep following: wait for new changes and print them as they arrive")
	cmd.Flags().StringVar(&out, "out", "", "append the lines to this file, and resume after its last line when started again")
	cmd.Flags().IntVar(&limit, "limit", 1000, "changes asked for per request (1 to 1000)")
	return cmd
}

// followChanges reads pages after after and writes each page's changes as
// JSON lines in one write, then calls sync, then asks for the next.
func followChanges(ctx context.Context, a *api, w io.Writer, sync func() error, after string, limit int, follow bool) error {
	backoff := 100 * time.Millisecond
	for {
		q := url.Values{"after": {after}, "limit": {strconv.Itoa(limit)}}
		if follow {
			q.Set("wait", followWait.String())
		}
		var page changesPage
		err := a.get(ctx, "/api/changes", q, &page)
		if err != nil {
			var ae *apiError
			if errors.As(err, &ae) && ae.status == http.StatusGone {
				return &exitError{code: exitDenied, err: fmt.Errorf("%w (resync from a backup, then follow from its revision)", err)}
			}
			if !follow || exitCode(err) != exitUnreachable || ctx.Err() != nil {
				return err
			}
			// A lost connection or an unavailable store: try again
			// from the same revision.
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 10*time.Second)
			continue
		}
		backoff = 100 * time.Millisecond
		if len(page.Changes) > 0 {
			var buf bytes.Buffer
			for _, ch := range page.Changes {
				var c bytes.Buffer
				if err := json.Compact(&c, ch); err != nil {
					return fmt.Errorf("unexpected answer from the server: %w", err)
				}
				buf.Write(c.Bytes())
				buf.WriteByte('\n')
			}
			if _, err := w.Write(buf.Bytes()); err != nil {
				return err
			}
			if err := sync(); err != nil {
				return err
			}
		}
		if page.Next == "" {
			return fmt.Errorf("unexpected answer from the server: no next")
		}
		caughtUp := len(page.Changes) == 0 || page.Next == after
		after = page.Next
		if caughtUp && !follow {
			return nil
		}
		if ctx.Err() != nil {
			return nil
		}
	}
}

// openChangesOut opens FILE for appending, first cutting a last line
// that a follower killed mid-write left unfinished, and returns the
// revision of its last line ("" for an empty or new file).
func openChangesOut(name string) (*os.File, string, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, "", usageErr("--out: %v", err)
	}
	// The last revision in the file, and how many of its changes it
	// holds: a revision's changes come in order from its first, so the
	// next to read is the one after them ("r42.2" after three of r42).
	var lastRev string
	held := 0
	var good int64
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			break // a line without its newline is cut short: dropped
		}
		if err != nil {
			f.Close()
			return nil, "", usageErr("--out: %v", err)
		}
		good += int64(len(line))
		var ch struct {
			Revision string `json:"revision"`
		}
		if err := json.Unmarshal(line, &ch); err != nil || ch.Revision == "" {
			f.Close()
			return nil, "", usageErr("--out %s: line %q is not a change of rolegatectl changes", name, strings.TrimSpace(string(line)))
		}
		if ch.Revision != lastRev {
			lastRev, held = ch.Revision, 0
		}
		held++
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, "", usageErr("--out: %v", err)
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, "", usageErr("--out: %v", err)
	}
	if lastRev == "" {
		return f, "", nil
	}
	return f, lastRev + "." + strconv.Itoa(held-1), nil
}
