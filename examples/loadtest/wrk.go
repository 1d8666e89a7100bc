package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

type wrkConfig struct {
	duration time.Duration
	threads  int
	conns    int
	rounds   int
}

var (
	wrkRPS    = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkNon2xx = regexp.MustCompile(`Non-2xx or 3xx responses:\s+([0-9]+)`)
	wrkErrors = regexp.MustCompile(`Socket errors:[^\n]*`)
	wrkLat    = regexp.MustCompile(`Latency\s+(\S+)\s+(\S+)\s+(\S+)`)
	wrkP99    = regexp.MustCompile(`99%\s+(\S+)`)
)

// runWrk measures, on the same running app, GET /notes (guarded, as a
// user who holds "read"), GET /api/has_permission/{user}/read (the REST
// check, with the client key) and GET / (unguarded), and prints each rate
// and each route's ratio to the unguarded one: per round, and the median
// over wc.rounds rounds. Any non-2xx answer fails it.
func runWrk(ctx context.Context, base, clientKey, allowedUser string, wc wrkConfig, out io.Writer) error {
	if _, err := exec.LookPath("wrk"); err != nil {
		return fmt.Errorf("wrk is not installed (apt-get install -y wrk): %w", err)
	}
	secs := strconv.Itoa(int(wc.duration.Round(time.Second) / time.Second))
	common := []string{"-t" + strconv.Itoa(wc.threads), "-c" + strconv.Itoa(wc.conns), "-d" + secs + "s", "--latency"}
	type target struct {
		name string
		args []string
	}
	with := func(extra ...string) []string { return append(append([]string{}, common...), extra...) }
	targets := []target{
		{"unguarded GET /", with(base + "/")},
		{"guarded GET /notes", with("-H", "X-User: "+allowedUser, base+"/notes")},
		{"REST GET /api/has_permission", with("-H", "Authorization: Bearer "+clientKey,
			base+"/api/has_permission/"+url.PathEscape(allowedUser)+"/read")},
	}
	// Each round runs every route once, the order turned by one each
	// round, so that drift of the machine falls on all alike.
	sums := make([]float64, len(targets))
	ratios := make([][]float64, len(targets)) // route/unguarded of each round
	rounds := max(1, wc.rounds)
	for r := range rounds {
		round := make([]float64, len(targets))
		for k := range targets {
			i := (k + r) % len(targets)
			rate, err := wrkOnce(ctx, targets[i].name, targets[i].args, out)
			if err != nil {
				return err
			}
			sums[i] += rate
			round[i] = rate
		}
		for i := 1; i < len(targets); i++ {
			ratios[i] = append(ratios[i], round[i]/round[0])
		}
	}
	for i := range targets {
		fmt.Fprintf(out, "wrk %s: mean %.0f req/s over %d run(s)\n", targets[i].name, sums[i]/float64(rounds), rounds)
	}
	for i := 1; i < len(targets); i++ {
		rs := slices.Sorted(slices.Values(ratios[i]))
		n := len(rs)
		median := (rs[(n-1)/2] + rs[n/2]) / 2
		var each []string
		for _, r := range rs {
			each = append(each, fmt.Sprintf("%.3f", r))
		}
		fmt.Fprintf(out, "wrk ratio %s / unguarded: per round (sorted) %s, median %.3f\n", targets[i].name, strings.Join(each, " "), median)
	}
	return nil
}

func wrkOnce(ctx context.Context, name string, args []string, out io.Writer) (float64, error) {
	fmt.Fprintf(out, "$ wrk %s\n", shellJoin(args))
	var buf bytes.Buffer
	cmd := exec.CommandContext(ctx, "wrk", args...)
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("wrk: %w: %s", err, buf.String())
	}
	text := buf.String()
	m := wrkRPS.FindStringSubmatch(text)
	if m == nil {
		return 0, fmt.Errorf("no Requests/sec in wrk output: %s", text)
	}
	rate, _ := strconv.ParseFloat(m[1], 64)
	lat := ""
	if l := wrkLat.FindStringSubmatch(text); l != nil {
		lat = fmt.Sprintf(", latency avg %s stdev %s max %s", l[1], l[2], l[3])
	}
	if l := wrkP99.FindStringSubmatch(text); l != nil {
		lat += ", p99 " + l[1]
	}
	fmt.Fprintf(out, "wrk %s: %.0f req/s%s (load average after: %s)\n", name, rate, lat, loadavg())
	if e := wrkErrors.FindString(text); e != "" {
		fmt.Fprintf(out, "  %s\n", e)
	}
	if n := wrkNon2xx.FindStringSubmatch(text); n != nil {
		return 0, fmt.Errorf("wrk %s: %s non-2xx answers", name, n[1])
	}
	return rate, nil
}

func shellJoin(args []string) string {
	var parts []string
	for _, a := range args {
		if strings.HasPrefix(a, "Authorization: Bearer ") {
			a = "Authorization: Bearer $AUTH_CLIENT_KEY" // printed, never the key
		}
		if strings.ContainsAny(a, " '\"$") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}
