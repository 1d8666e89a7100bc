package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxExtraBytes is what rolegate may add to a bare Gin app of the same
// Gin version: the SQLite and PostgreSQL drivers, bun, and rolegate.
const maxExtraBytes = 12_000_000

// maxExtraBytesLatest is the same bound at the newest versions of
// rolegate's requirements (.ci/latest sets AUTH_TEST_WEIGHT_AT=latest):
// their sizes are their authors' to choose (modernc.org/sqlite grew by
// about 0.5 MB between the floor and v1.62), so the floor's 12 MB is
// asserted at the floors and this looser bound catches a jump at latest.
const maxExtraBytesLatest = 13_000_000

// maxExtraModules is how many modules rolegate may add to a bare Gin app
// at the floors go.mod states (counted from go version -m).
const maxExtraModules = 25

// loginModules are what the login (loginx) links: a host that does not
// set Config.Login links none of them.
var loginModules = []string{"github.com/coreos/go-oidc", "github.com/go-jose/go-jose", "golang.org/x/oauth2", "github.com/golang-jwt/jwt"}

// sqliteDrivers are SQLite drivers' modules.
var sqliteDrivers = []string{"modernc.org/sqlite", "modernc.org/libc", "github.com/mattn/go-sqlite3", "github.com/ncruces/go-sqlite3", "github.com/glebarez/go-sqlite"}

// A host that mounts rolegate and guards routes links no metrics, no
// tracing SDK, no CLI, load or browser test, and no login it did not ask
// for, and weighs at most 12 MB and 25 modules more than a bare Gin app.
func TestMinimalWeight(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, heavy := range []string{"prometheus", "go.opentelemetry.io/otel/sdk", "spf13/cobra", "chromedp", "hdrhistogram"} {
			if strings.Contains(dep, heavy) {
				t.Errorf("examples/minimal links %s", dep)
			}
		}
		if dep == "github.com/rolegate/rolegate/loginx" {
			t.Errorf("examples/minimal imports loginx without setting Config.Login")
		}
	}

	dir := t.TempDir()
	minimal, bare := build(t, dir, "minimal", "."), build(t, dir, "baregin", "./testdata/baregin")
	t.Logf("examples/minimal %d bytes, %d modules; bare Gin %d bytes, %d modules: +%d bytes, +%d modules",
		minimal.size, len(minimal.modules), bare.size, len(bare.modules), minimal.size-bare.size, len(minimal.modules)-len(bare.modules))
	limit := maxExtraBytes
	if os.Getenv("AUTH_TEST_WEIGHT_AT") == "latest" {
		limit = maxExtraBytesLatest
	}
	if minimal.size-bare.size > int64(limit) {
		t.Errorf("examples/minimal is %d bytes larger than a bare Gin app; at most %d", minimal.size-bare.size, limit)
	}
	if extra := len(minimal.modules) - len(bare.modules); extra > maxExtraModules {
		t.Errorf("examples/minimal links %d modules more than a bare Gin app; at most %d:\n%s", extra, maxExtraModules, strings.Join(minimal.modules, "\n"))
	}
	for _, m := range minimal.modules {
		for _, login := range loginModules {
			if strings.HasPrefix(m, login) {
				t.Errorf("examples/minimal links %s without setting Config.Login", m)
			}
		}
	}
}

// A host that opens rolegate on its own PostgreSQL handle (authz.OpenDB)
// links no SQLite driver: the embedded one comes with package authz/sqlite,
// which only the SQLite default needs.
func TestOpenDBHostLinksNoSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	host := build(t, t.TempDir(), "opendbpg", "./testdata/opendbpg")
	for _, m := range host.modules {
		for _, drv := range append(sqliteDrivers, loginModules...) {
			if strings.HasPrefix(m, drv) {
				t.Errorf("a PostgreSQL host on OpenDB links %s", m)
			}
		}
	}
	t.Logf("a PostgreSQL host on OpenDB: %d bytes, %d modules", host.size, len(host.modules))
}

type binary struct {
	size    int64
	modules []string // path and version of each module go version -m names, the main one aside
}

// build builds pkg into dir and reads its size and modules.
func build(t *testing.T, dir, name, pkg string) binary {
	t.Helper()
	bin := filepath.Join(dir, name)
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	fi, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	b := binary{size: fi.Size()}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "dep" {
			b.modules = append(b.modules, f[1]+" "+f[2])
		}
	}
	return b
}
