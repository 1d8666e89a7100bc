// Command loadtest puts a running examples/hostapp under mixed traffic on
// loopback and checks afterwards that every acknowledged write is stored
// and nothing else.
//
// Setup writes roles, permissions and memberships through the REST API
// (by default 1,000 users over 50 roles, all named with a fresh run
// prefix). Then -connections workers, each on its own keep-alive
// connection in a closed loop, send for -duration (and at most
// -max-requests requests in all):
//
//   - checks (1 - write-ratio): GET /notes with X-User (the guard) and
//     GET /api/has_permission/{user}/{perm}; the setup users are never
//     written, so every answer is checked against the data;
//   - writes (write-ratio): POST and DELETE /api/membership/{user}/{role}
//     of users of this run, each worker writing only its own users, one
//     request at a time, so the last acknowledged write of a pair is its
//     final state.
//
// It reports throughput, p50/p99/p99.9/max latency (hdrhistogram-go,
// microsecond resolution, closed loop: no correction for coordinated
// omission) and status counts per operation, then reads GET
// /api/members/{role} for every role of the run and compares it with what
// the acknowledged writes say it must be. It exits 1 when that differs,
// when a check answered allow for deny or the reverse, or when there were
// more than -max-errors unexpected statuses or failed requests.
//
// Against a running hostapp (started with -user-header X-User and the same
// AUTH_CLIENT_KEY):
//
//	go run -C examples/loadtest . -url http://127.0.0.1:8000 -client-key $AUTH_CLIENT_KEY
//
// Or let it build and start hostapp itself, once per database, and also
// measure the unguarded route, the guarded one and the REST check with wrk:
//
//	go run -C examples/loadtest . -spawn -db sqlite,postgresql -wrk 20s
//
// With -db postgresql it creates a fresh database (loadtest_<time>) through
// -pg-url and drops it afterwards unless -keep-db.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	var cfg loadConfig
	flag.StringVar(&cfg.BaseURL, "url", "", "base URL of a running hostapp (loopback only), e.g. http://127.0.0.1:8000")
	flag.StringVar(&cfg.ClientKey, "client-key", "", "client key for the REST API; must be the hostapp's AUTH_CLIENT_KEY so that the guard sees the same data (default $AUTH_CLIENT_KEY)")
	flag.DurationVar(&cfg.Duration, "duration", 60*time.Second, "length of the mixed traffic")
	flag.IntVar(&cfg.Connections, "connections", 64, "concurrent connections, one closed-loop worker each")
	flag.Float64Var(&cfg.WriteRatio, "write-ratio", 0.1, "share of requests that are writes (POST/DELETE membership)")
	flag.Float64Var(&cfg.APICheckRatio, "api-check-ratio", 0.5, "share of the checks sent to GET /api/has_permission; the rest go to the guarded GET /notes")
	flag.IntVar(&cfg.Users, "users", 1000, "setup users")
	flag.IntVar(&cfg.Roles, "roles", 50, "setup roles")
	flag.Int64Var(&cfg.MaxRequests, "max-requests", 50_000_000, "stop after this many requests even before -duration")
	flag.DurationVar(&cfg.Timeout, "timeout", 10*time.Second, "timeout of one request")
	flag.Int64Var(&cfg.MaxErrors, "max-errors", 0, "exit 1 when more requests than this got an unexpected status or no answer")
	seed := flag.Uint64("seed", 1, "seed of the setup data and of the traffic mix")
	spawn := flag.Bool("spawn", false, "build and start examples/hostapp on a free loopback port for each -db, run the load against it, stop it")
	dbs := flag.String("db", "sqlite", "with -spawn: comma-separated databases to run on, in order: sqlite, postgresql")
	pgURL := flag.String("pg-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "with -spawn -db postgresql: an admin URL through which a fresh database is created (and dropped afterwards)")
	keepDB := flag.Bool("keep-db", false, "with -spawn: keep the PostgreSQL database and the SQLite file")
	hostappBin := flag.String("hostapp-bin", "", "with -spawn: a hostapp binary to use instead of building ./examples/hostapp")
	wrkDur := flag.Duration("wrk", 0, "after the load, run wrk for this long against GET / (unguarded), GET /notes (guarded, allowed user) and GET /api/has_permission (the REST check) of the same app; 0 skips")
	wrkThreads := flag.Int("wrk-threads", 2, "wrk -t")
	wrkConns := flag.Int("wrk-connections", 64, "wrk -c")
	wrkRounds := flag.Int("wrk-rounds", 2, "wrk runs per route, the order turned each round")
	flag.Parse()
	cfg.Seed = *seed
	if cfg.ClientKey == "" {
		cfg.ClientKey = os.Getenv("AUTH_CLIENT_KEY")
	}

	if err := checkConfig(&cfg, *spawn); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	wrk := wrkConfig{duration: *wrkDur, threads: *wrkThreads, conns: *wrkConns, rounds: *wrkRounds}

	ok := true
	if *spawn {
		var err error
		ok, err = spawnRuns(ctx, &cfg, spawnConfig{dbs: strings.Split(*dbs, ","), pgURL: *pgURL, keepDB: *keepDB, hostappBin: *hostappBin}, wrk)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
	} else {
		var err error
		ok, err = runAgainst(ctx, &cfg, wrk)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
	}
	if !ok {
		fmt.Println("RESULT: FAILED")
		os.Exit(1)
	}
	fmt.Println("RESULT: PASSED")
}

func checkConfig(cfg *loadConfig, spawn bool) error {
	switch {
	case cfg.Duration <= 0 || cfg.Duration > time.Hour:
		return errors.New("-duration must be between 0 and 1h")
	case cfg.Connections < 1 || cfg.Connections > 4096:
		return errors.New("-connections must be from 1 to 4096")
	case cfg.WriteRatio < 0 || cfg.WriteRatio > 1 || cfg.APICheckRatio < 0 || cfg.APICheckRatio > 1:
		return errors.New("-write-ratio and -api-check-ratio must be from 0 to 1")
	case cfg.Users < 1 || cfg.Users > 1_000_000 || cfg.Roles < 2 || cfg.Roles > 100_000:
		return errors.New("-users must be from 1 to 1e6, -roles from 2 to 1e5")
	case cfg.MaxRequests < 1:
		return errors.New("-max-requests must be positive")
	}
	if spawn {
		return nil
	}
	if cfg.BaseURL == "" {
		return errors.New("give -url of a running hostapp, or -spawn")
	}
	if cfg.ClientKey == "" {
		return errors.New("give -client-key (the hostapp's AUTH_CLIENT_KEY)")
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return checkLoopback(cfg.BaseURL)
}

// checkLoopback refuses a URL whose host is not a loopback address: this
// tool floods its target.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("-url %q is not an http(s) URL", raw)
	}
	host := u.Hostname()
	ips, err := net.LookupIP(host)
	if err != nil || len(ips) == 0 {
		return fmt.Errorf("-url host %q does not resolve: %v", host, err)
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return fmt.Errorf("-url host %q is not loopback (%s); this tool only targets loopback", host, ip)
		}
	}
	return nil
}

// runAgainst runs the load (and wrk) against cfg.BaseURL.
func runAgainst(ctx context.Context, cfg *loadConfig, wrk wrkConfig) (bool, error) {
	if cfg.Prefix == "" {
		cfg.Prefix = runPrefix()
	}
	s, v, w, err := runOnce(ctx, cfg, os.Stdout)
	if err != nil {
		return false, err
	}
	ok := passed(cfg, s, v)
	if wrk.duration > 0 {
		if err := runWrk(ctx, cfg.BaseURL, cfg.ClientKey, w.allowed, wrk, os.Stdout); err != nil {
			fmt.Println("wrk:", err)
			ok = false
		}
	}
	return ok, nil
}

// runPrefix names the data of one run, so that runs against one database
// never see each other's roles.
func runPrefix() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return "lt" + time.Now().UTC().Format("0102150405") + hex.EncodeToString(b)
}
