// Command hostapp is an existing Gin app that adopts rolegate: its own
// routes (GET / open, GET /notes needing "read", POST /notes needing
// "edit", DELETE /notes/:id for the note's author or holders of
// "notes.delete", the same under /orgs/:org with the scope taken from the
// URL to read and write and from the note to delete; GET /orgs, the orgs
// holding notes where the user may read, through rolegate's filter on the
// app's own notes table), rolegate's REST admin
// API, login and sample routes mounted beside them, and a graceful
// shutdown.
//
//	go run ./examples/hostapp                   # SQLite at ~/.auth.sqlite3; without AUTH_CLIENT_KEY, a key kept in ~/.auth.sqlite3.client-key
//	go run ./examples/hostapp -new-client-key   # print a fresh client key
//	go run ./examples/hostapp -open             # open mode: the REST API for any UUID v4 key, bounded
//	go run ./examples/hostapp -user-header X-User -admin-users  # the app's users on the admin plane
//	go run ./examples/hostapp -max-conns 1024 -idle-timeout 15s
//
// It prints what to do next (the key's export line, a curl line, the
// console's URL). It keeps at most -max-conns connections open (2048, and
// no more than the open-file limit leaves room for): at the cap it closes
// the connection idle the longest rather than leave a new client waiting
// (see conns.go); keep-alive connections wait -idle-timeout (30 s) for
// their next request.
//
// With -open the host app serves rolegate's REST admin API in open mode,
// the shape of the original RBAC service: any UUID v4 key is a namespace
// of its own, and what one client may store and make the process do is
// bounded (rows per client, namespaces, writes per second, reads in
// flight, the audit log). It refuses to start when AUTH_CLIENT_KEY or
// AUTH_CLIENT_KEYS is set (they close the admin plane), and it leaves out
// the host app's own guarded routes (/notes...), whose guards check under
// the host's key, which open mode does not have.
//
// Settings come from the environment or a .env file (see the README).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/authz/prommetrics"
	_ "github.com/rolegate/rolegate/authz/sqlite" // the default store: a SQLite file
	"github.com/rolegate/rolegate/loginx"
	"github.com/rolegate/rolegate/middleware"
)

func main() {
	newKey := flag.Bool("new-client-key", false, "print a new client key (a UUID version 4) and exit")
	userHeader := flag.String("user-header", "", "trust this request header as the user name (for apps behind an authenticating proxy, and for trying rolegate without a login provider)")
	adminUsers := flag.Bool("admin-users", false, "let the app's own users (from -user-header or a login session) use the admin API and console by rolegate.admin, rolegate.read and rolegate.members held in the app's namespace (AUTH_ADMIN_USERS=true does the same)")
	open := flag.Bool("open", false, "serve the REST admin API in open mode (any UUID v4 key is a namespace, bounded); needs AUTH_CLIENT_KEY and AUTH_CLIENT_KEYS unset, and leaves out the app's own guarded routes")
	var lim limits
	flag.IntVar(&lim.maxConns, "max-conns", defaultMaxConns, "most connections open at once (each holds a file descriptor and about 19 KB); at the cap the one idle the longest is closed to make room; 0: no cap")
	flag.DurationVar(&lim.idleTimeout, "idle-timeout", defaultIdleTimeout, "how long a keep-alive connection may wait for its next request")
	flag.Parse()
	if *newKey {
		fmt.Println(uuid.NewString())
		return
	}
	if err := run(*userHeader, *adminUsers, *open, lim); err != nil {
		fmt.Fprintln(os.Stderr, "hostapp:", err)
		os.Exit(1)
	}
}

// limits are the server's own bounds, from flags.
type limits struct {
	maxConns    int
	idleTimeout time.Duration
}

func run(userHeader string, adminUsers, open bool, lim limits) error {
	host, herr := settingsFromEnv()
	cfg, err := authz.ConfigFromEnv()
	if err = errors.Join(herr, err); err != nil {
		return err
	}
	if open && (cfg.ClientKey != "" || len(cfg.ClientKeys) > 0) {
		return errors.New("-open serves the REST API to any UUID v4 key, but AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS is set (an admin plane closed to those keys); unset both to run in open mode")
	}
	level := slog.LevelInfo
	if host.debug {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	cfg.Logger = log
	if cfg.EnableMetrics { // AUTH_ENABLE_METRICS: Prometheus at GET /metrics
		cfg.Observer = prommetrics.New(nil)
	}
	cfg.Login = loginx.Start // the token-exchange login, when AUTH_OAUTH_PROVIDERS names providers
	if userHeader != "" {
		cfg.Resolver = middleware.HeaderResolver(userHeader)
		log.Warn("trusting a request header as the user name; only do this behind a proxy that sets it", "header", userHeader)
	}
	if adminUsers {
		cfg.AdminUsers = true
	}
	if cfg.AdminUsers && open {
		return errors.New("-admin-users (AUTH_ADMIN_USERS) needs the app's own namespace, which -open does not have")
	}
	gin.SetMode(gin.ReleaseMode)
	if host.debug {
		gin.SetMode(gin.DebugMode)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	keyFile := ""
	if !open && cfg.ClientKey == "" {
		// The guards check under this key; without it they cannot work
		// (registering one panics with authz.ErrNoClientKey).
		key, path, err := exampleClientKey(cfg)
		if err != nil {
			return err
		}
		cfg.ClientKey, keyFile = key, path
		log.Warn("AUTH_CLIENT_KEY is not set: using the example's key kept in a file (export AUTH_CLIENT_KEY=$(cat FILE) to use it with curl; set AUTH_CLIENT_KEY in a real deployment)", "file", path)
	}
	openCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	az, err := authz.Open(openCtx, cfg)
	cancel()
	if err != nil {
		return err
	}
	defer az.Close()

	if open {
		logOpenMode(log, cfg)
	}
	engine, err := newEngine(az, cfg.TrustedProxies, open)
	if err != nil {
		return err
	}
	addr := net.JoinHostPort(host.host, strconv.Itoa(host.port))
	tcp, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	ln := limitConns(tcp, connCapFor(lim.maxConns, log), log)
	srv := newServer(engine, lim.idleTimeout)
	srv.ConnState = ln.track
	base := "http://" + ln.Addr().String()
	log.Info("hostapp listening", "addr", base, "max_conns", ln.max, "idle_timeout", lim.idleTimeout)
	if az.ConsoleEnabled() {
		with := "an admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS)"
		if cfg.AdminUsers {
			with += ", or the app's own session of a user holding rolegate.admin, rolegate.read or rolegate.members"
		}
		log.Info("admin console", "url", base+"/console/", "sign_in_with", with)
	}
	printNextSteps(os.Stdout, base, keyFile, userHeader, open, az.ConsoleEnabled())

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// logOpenMode says that the app runs in open mode, with the bounds in
// force.
func logOpenMode(log *slog.Logger, cfg authz.Config) {
	log.Warn("open mode: the REST admin API accepts any UUID v4 key as a namespace of its own; the host app's guarded routes are left out",
		"rows_per_client", cfg.MaxRowsPerClient, "bytes_per_client", cfg.MaxBytesPerClient, "namespaces", cfg.MaxNamespaces,
		"writes_per_second", cfg.OpenWritesPerSecond, "write_burst", 2*cfg.OpenWritesPerSecond,
		"reads_in_flight", cfg.MaxReadsInFlight, "reads_running", readsRunning(cfg), "cache_bytes", cfg.CacheMaxBytes, "cache_entries", cfg.CacheMaxUsers,
		"audit_max_records", cfg.AuditMaxRecords, "audit_refusals_per_second", cfg.AuditRefusalsPerSecond)
}

// readsRunning says AUTH_MAX_READS_RUNNING as it is in force.
func readsRunning(cfg authz.Config) any {
	if cfg.MaxReadsRunning == 0 {
		return "half the CPUs"
	}
	return cfg.MaxReadsRunning
}

// Timeouts of the server: a client that sends its headers or body slowly,
// reads the answer slowly, or holds an idle connection open cannot keep a
// connection (and its goroutine and buffers) for ever. The body limit is
// 64 KiB, so 30 s to read a request is generous; the write timeout leaves
// room for a long list on a slow link. The idle timeout (-idle-timeout,
// 30 s) is short: an idle connection costs a descriptor and memory, and a
// client opens a new one in a round trip.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second

	defaultIdleTimeout = 30 * time.Second
	defaultMaxConns    = 2048 // some 60 MiB of idle connections at most
)

func newServer(h http.Handler, idleTimeout time.Duration) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
	}
}

// fdReserve is what the process keeps of its open-file limit for other
// than client connections: the database pool, the listener, logs.
const fdReserve = 256

// connCapFor is the connection cap: -max-conns, lowered to what the
// open-file limit leaves, so that the cap, not a failing accept, is what
// a flood of connections meets. Go raises the soft limit to the hard one
// at start; a host that needs more raises the hard limit (ulimit -Hn,
// systemd's LimitNOFILE=).
func connCapFor(maxConns int, log *slog.Logger) int {
	limit, ok := openFileLimit()
	if !ok || maxConns <= 0 {
		return maxConns
	}
	room := max(1, int(min(limit, 1<<30))-fdReserve)
	if maxConns > room {
		log.Warn("the open-file limit leaves room for fewer connections than -max-conns: capped at what it leaves",
			"open_file_limit", limit, "max_conns", maxConns, "cap", room)
		return room
	}
	return maxConns
}
