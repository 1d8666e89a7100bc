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
	flag.Parse()
	if *newKey {
		fmt.Println(uuid.NewString())
		return
	}
	if err := run(*userHeader, *adminUsers, *open); err != nil {
		fmt.Fprintln(os.Stderr, "hostapp:", err)
		os.Exit(1)
	}
}

func run(userHeader string, adminUsers, open bool) error {
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

	if !open && cfg.ClientKey == "" {
		// The guards check under this key; without it they cannot work
		// (registering one panics with authz.ErrNoClientKey).
		key, path, err := exampleClientKey(cfg)
		if err != nil {
			return err
		}
		cfg.ClientKey = key
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
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := newServer(engine)
	log.Info("hostapp listening", "addr", "http://"+ln.Addr().String())
	if az.ConsoleEnabled() {
		with := "an admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS)"
		if cfg.AdminUsers {
			with += ", or the app's own session of a user holding rolegate.admin, rolegate.read or rolegate.members"
		}
		log.Info("admin console", "url", "http://"+ln.Addr().String()+"/console/", "sign_in_with", with)
	}

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
		"reads_in_flight", cfg.MaxReadsInFlight, "cache_bytes", cfg.CacheMaxBytes, "cache_entries", cfg.CacheMaxUsers,
		"audit_max_records", cfg.AuditMaxRecords, "audit_refusals_per_second", cfg.AuditRefusalsPerSecond)
}

// Timeouts of the server: a client that sends its headers or body slowly,
// reads the answer slowly, or holds an idle connection open cannot keep a
// connection (and its goroutine and buffers) for ever. The body limit is
// 64 KiB, so 30 s to read a request is generous; the write timeout leaves
// room for a long list on a slow link.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 120 * time.Second
)

func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
	}
}
