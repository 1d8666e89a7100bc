package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun/driver/pgdriver"
)

type spawnConfig struct {
	dbs        []string
	pgURL      string
	keepDB     bool
	hostappBin string
}

// spawnRuns builds hostapp once, then for each database starts it on a free
// loopback port, runs the load (and wrk), and stops it.
func spawnRuns(ctx context.Context, cfg *loadConfig, sc spawnConfig, wrk wrkConfig) (bool, error) {
	dir, err := os.MkdirTemp("", "rolegate-loadtest-")
	if err != nil {
		return false, err
	}
	defer func() {
		if !sc.keepDB {
			os.RemoveAll(dir)
		}
	}()
	bin := sc.hostappBin
	if bin == "" {
		bin = filepath.Join(dir, "hostapp")
		fmt.Printf("building github.com/rolegate/rolegate/examples/hostapp\n")
		// In the library's module, whose go.mod has what the host app
		// needs (this module's has the load generator's).
		// This module's go.mod replaces rolegate with ../.., which it does
		// not require (the load generator talks HTTP only).
		here, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}").Output()
		if err != nil {
			return false, fmt.Errorf("find this module (run from inside examples/loadtest): %w", err)
		}
		root := filepath.Join(strings.TrimSpace(string(here)), "..", "..")
		if mod, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !strings.HasPrefix(string(mod), "module github.com/rolegate/rolegate\n") {
			return false, fmt.Errorf("%s is not the rolegate module (run from inside examples/loadtest of a checkout)", root)
		}
		cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./examples/hostapp")
		cmd.Dir = root
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return false, fmt.Errorf("go build hostapp: %w", err)
		}
	}
	fmt.Printf("machine: %d CPUs (GOMAXPROCS %d), %s/%s; hostapp, load generator and wrk share them\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	allOK := true
	for _, db := range sc.dbs {
		db = strings.TrimSpace(db)
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		fmt.Printf("\n===== %s =====\n", db)
		ok, err := spawnOne(ctx, cfg, sc, wrk, bin, dir, db)
		if err != nil {
			fmt.Printf("%s: %v\n", db, err)
			ok = false
		}
		allOK = allOK && ok
	}
	return allOK, nil
}

var listenRE = regexp.MustCompile(`hostapp listening.*addr=(http://[^ ]+)`)

func spawnOne(ctx context.Context, base *loadConfig, sc spawnConfig, wrk wrkConfig, bin, dir, db string) (bool, error) {
	cfg := *base
	cfg.Prefix = runPrefix()
	cfg.ClientKey = uuid.NewString()
	env := []string{"AUTH_SERVER_HOST=127.0.0.1", "AUTH_SERVER_PORT=0", "AUTH_CLIENT_KEY=" + cfg.ClientKey}
	switch db {
	case "sqlite":
		path := filepath.Join(dir, "loadtest-"+cfg.Prefix+".sqlite3")
		env = append(env, "AUTH_DATABASE_TYPE=sqlite", "AUTH_SQLITE_PATH="+path)
		fmt.Printf("database: SQLite file %s\n", path)
	case "postgresql":
		dbURL, drop, err := createPGDatabase(sc.pgURL, "loadtest_"+cfg.Prefix)
		if err != nil {
			return false, err
		}
		if !sc.keepDB {
			defer drop()
		}
		env = append(env, "AUTH_DATABASE_TYPE=postgresql", "AUTH_POSTGRESQL_URL="+dbURL)
		fmt.Printf("database: PostgreSQL %s\n", redact(dbURL))
	default:
		return false, fmt.Errorf("unknown -db %q (use sqlite or postgresql)", db)
	}

	logPath := filepath.Join(dir, "hostapp-"+db+".log")
	app, err := startHostapp(bin, dir, env, logPath)
	if err != nil {
		return false, err
	}
	defer app.stop()
	fmt.Printf("hostapp: %s (pid %d, log %s)\n", app.url, app.cmd.Process.Pid, logPath)
	cfg.BaseURL = app.url
	ok, err := runAgainst(ctx, &cfg, wrk)
	if err != nil || !ok {
		fmt.Printf("last lines of the hostapp log:\n%s", tail(logPath, 15))
	}
	return ok, err
}

type hostapp struct {
	cmd  *exec.Cmd
	url  string
	done chan struct{}
}

// startHostapp starts bin with the given settings (and none of the parent's
// AUTH_ variables), in dir so that no .env file is read, and waits for its
// "listening" line.
func startHostapp(bin, dir string, env []string, logPath string) (*hostapp, error) {
	cmd := exec.Command(bin, "-user-header", "X-User")
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AUTH_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = logf
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	app := &hostapp{cmd: cmd, done: make(chan struct{})}
	found := make(chan string, 1)
	go func() {
		defer logf.Close()
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(logf, line)
			if m := listenRE.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(logf, stderr)
	}()
	go func() { _ = cmd.Wait(); close(app.done) }()
	select {
	case app.url = <-found:
		return app, nil
	case <-app.done:
		return nil, fmt.Errorf("hostapp exited before listening:\n%s", tail(logPath, 10))
	case <-time.After(60 * time.Second):
		app.stop()
		return nil, errors.New("hostapp did not listen within 60 s")
	}
}

// stop sends SIGTERM (graceful shutdown) and kills after 15 s.
func (h *hostapp) stop() {
	_ = h.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-h.done:
	case <-time.After(15 * time.Second):
		_ = h.cmd.Process.Kill()
		<-h.done
	}
}

// createPGDatabase creates database name through adminURL and returns its
// URL and a function that drops it.
func createPGDatabase(adminURL, name string) (string, func(), error) {
	name = strings.ToLower(name)
	admin := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(adminURL)))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, `CREATE DATABASE "`+name+`"`); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("CREATE DATABASE %s through %s: %w", name, redact(adminURL), err)
	}
	u, err := url.Parse(adminURL)
	if err != nil {
		admin.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	drop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, `DROP DATABASE IF EXISTS "`+name+`" WITH (FORCE)`); err != nil {
			fmt.Printf("DROP DATABASE %s: %v\n", name, err)
		}
		admin.Close()
	}
	return u.String(), drop, nil
}

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error() + "\n"
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n") + "\n"
}
