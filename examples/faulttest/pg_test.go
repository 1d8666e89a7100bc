package faulttest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// pgServer is a throwaway PostgreSQL cluster in a temp folder.
type pgServer struct {
	bin  string // folder holding initdb, pg_ctl, postgres
	dir  string // owned by the server's OS user
	data string
	sock string
	log  string
	port int
	cred *syscall.Credential // nil: run as ourselves
	opts string              // further server options (-c name=value ...)
}

// findPGBin returns the folder of initdb and pg_ctl: PATH first, then the
// newest /usr/lib/postgresql/<version>/bin. Missing binaries skip the
// test, or fail it when CI=true.
func findPGBin(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("initdb"); err == nil {
		dir := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(dir, "pg_ctl")); err == nil {
			return dir
		}
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	sort.Slice(matches, func(i, j int) bool { return pgVersion(matches[i]) > pgVersion(matches[j]) })
	for _, m := range matches {
		dir := filepath.Dir(m)
		if _, err := os.Stat(filepath.Join(dir, "pg_ctl")); err == nil {
			return dir
		}
	}
	skipOrFail(t, "PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or under /usr/lib/postgresql/*/bin; install the postgresql package")
	return ""
}

func pgVersion(initdb string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(filepath.Dir(initdb))), 64)
	return v
}

// skipOrFail skips, except in CI (CI=true) where a missing prerequisite is
// a failure.
func skipOrFail(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true, so this fails instead of skipping)", msg)
	}
	t.Skip(msg)
}

// newPGServer runs initdb into a folder under base. initdb refuses to run
// as root: then the folder is given to the "postgres" OS user and every
// PostgreSQL command runs as that user (setuid through
// SysProcAttr.Credential, which needs no runuser or su), and the folders
// above it are opened for traversal (mode 0711).
func newPGServer(t *testing.T, base string) *pgServer {
	t.Helper()
	bin := findPGBin(t)
	s := &pgServer{bin: bin, dir: filepath.Join(base, "pg")}
	s.data = filepath.Join(s.dir, "data")
	s.sock = filepath.Join(s.dir, "sock")
	s.log = filepath.Join(s.dir, "server.log")
	if err := os.MkdirAll(s.sock, 0o700); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			skipOrFail(t, "running as root, and initdb refuses root, but there is no postgres OS user to run it as: "+err.Error())
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		for _, d := range []string{s.dir, s.sock} {
			if err := os.Chown(d, uid, gid); err != nil {
				t.Fatal(err)
			}
		}
		// t.TempDir and its parent are 0700 root; the server must reach
		// its folder through them.
		for d := base; d != filepath.Dir(d) && d != os.TempDir(); d = filepath.Dir(d) {
			if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o011 != 0o011 {
				if err := os.Chmod(d, fi.Mode().Perm()|0o011); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	out, err := s.run("initdb", "-D", s.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync")
	if err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	return s
}

// run runs one of the server's commands as the server's OS user.
func (s *pgServer) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	cmd.Env = []string{"PATH=" + s.bin + ":/usr/bin:/bin", "LC_ALL=C", "HOME=" + s.dir}
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.Bytes(), err
}

// start starts the server on s.port (a free one on the first start) and
// waits until it accepts connections.
func (s *pgServer) start() error {
	if s.port == 0 {
		p, err := freePort()
		if err != nil {
			return err
		}
		s.port = p
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 %s", s.port, s.sock, s.opts)
	out, err := s.run("pg_ctl", "-D", s.data, "-l", s.log, "-o", opts, "-w", "-t", "30", "start")
	if err != nil {
		return fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, s.tail(20))
	}
	return nil
}

// stop stops the server: mode "immediate" is a crash (no checkpoint;
// recovery replays the WAL on the next start), "fast" a clean shutdown.
func (s *pgServer) stop(mode string) error {
	out, err := s.run("pg_ctl", "-D", s.data, "-m", mode, "-w", "-t", "30", "stop")
	if err != nil {
		return fmt.Errorf("pg_ctl stop -m %s: %v\n%s", mode, err, out)
	}
	return nil
}

func (s *pgServer) running() bool {
	_, err := s.run("pg_ctl", "-D", s.data, "status")
	return err == nil
}

func (s *pgServer) url() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", s.port)
}

func (s *pgServer) tail(n int) string { return tailFile(s.log, n) }

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func tailFile(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
