package main

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// boundFlags are --from and --until of the adds of memberships and
// grants: a time in RFC 3339, or a duration from now (72h, 90m, 14d).
type boundFlags struct{ from, until string }

func (b *boundFlags) register(cmd *cobra.Command, what string) {
	cmd.Flags().StringVar(&b.until, "until", "", "the "+what+" stops counting then: RFC 3339 (2030-01-11T18:00:00Z) or a duration from now (72h, 14d)")
	cmd.Flags().StringVar(&b.from, "from", "", "the "+what+" counts only from then: RFC 3339 or a duration from now")
}

// query adds ?starts_at and ?expires_at to q for the flags given, in UTC
// RFC 3339, and says them for the line printed ("" without bounds). An
// add without them makes the row unbounded, as the server does.
func (b *boundFlags) query(q url.Values, now time.Time) (url.Values, string, error) {
	var note string
	for _, f := range []struct{ flag, value, param string }{{"--from", b.from, "starts_at"}, {"--until", b.until, "expires_at"}} {
		if f.value == "" {
			continue
		}
		t, err := parseWhen(f.value, now)
		if err != nil {
			return nil, "", usageErr("%s %q: %v", f.flag, f.value, err)
		}
		if q == nil {
			q = url.Values{}
		}
		q.Set(f.param, t.UTC().Format(time.RFC3339Nano))
		note += " " + strings.TrimPrefix(f.flag, "--") + " " + t.UTC().Format(time.RFC3339)
	}
	return q, note, nil
}

// parseWhen reads a time in RFC 3339, or a duration from now: Go's (72h,
// 1h30m) or a number of days (14d).
func parseWhen(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil {
			return now.Add(time.Duration(n) * 24 * time.Hour), nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("not a time in RFC 3339 (2030-01-11T18:00:00Z) nor a duration (72h, 14d)")
	}
	return now.Add(d), nil
}

// opTime is an operation's bound in a plan's table ("" for none).
func opTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}
