package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"sort"
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

// runWrk measures GET /notes (guarded, as a user who holds "read") and then
// GET / (unguarded) of the same running app, one after the other, and
// prints both rates and their ratio (means over wc.rounds runs each). Any non-2xx answer fails it.
func runWrk(ctx context.Context, base, allowedUser string, wc wrkConfig, out io.Writer) error {
	if _, err := exec.LookPath("wrk"); err != nil {
		return fmt.Errorf("wrk is not installed (apt-get install -y wrk): %w", err)
	}
	secs := strconv.Itoa(int(wc.duration.Round(time.Second) / time.Second))
	common := []string{"-t" + strconv.Itoa(wc.threads), "-c" + strconv.Itoa(wc.conns), "-d" + secs + "s", "--latency"}
	type target struct {
		name string
		args []string
	}
	targets := []target{
		{"guarded GET /notes", append(append([]string{}, common...), "-H", "X-User: "+allowedUser, base+"/notes")},
		{"unguarded GET /", append(append([]string{}, common...), base+"/")},
	}
	// Rounds alternate the order (guarded, unguarded, then unguarded,
	// guarded, ...) so that drift of the machine falls on both alike.
	sums := make([]float64, len(targets))
	var ratios []float64 // guarded/unguarded of each round
	for r := 0; r < max(1, wc.rounds); r++ {
		order := []int{0, 1}
		if r%2 == 1 {
			order = []int{1, 0}
		}
		var round [2]float64
		for _, i := range order {
			rate, err := wrkOnce(ctx, targets[i].name, targets[i].args, out)
			if err != nil {
				return err
			}
			sums[i] += rate
			round[i] = rate
		}
		ratios = append(ratios, round[0]/round[1])
	}
	rates := make([]float64, len(targets))
	for i := range sums {
		rates[i] = sums[i] / float64(max(1, wc.rounds))
		fmt.Fprintf(out, "wrk %s: mean %.0f req/s over %d run(s)\n", targets[i].name, rates[i], max(1, wc.rounds))
	}
	sort.Float64s(ratios)
	median := ratios[len(ratios)/2]
	if len(ratios)%2 == 0 {
		median = (ratios[len(ratios)/2-1] + ratios[len(ratios)/2]) / 2
	}
	var rs []string
	for _, r := range ratios {
		rs = append(rs, fmt.Sprintf("%.3f", r))
	}
	fmt.Fprintf(out, "wrk ratio guarded/unguarded: %.3f of the means; per round (sorted) %s, median %.3f\n", rates[0]/rates[1], strings.Join(rs, " "), median)
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
		if strings.ContainsAny(a, " '\"$") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}
