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

// A host that mounts rolegate and guards routes links no metrics, no
// tracing SDK, no CLI, load or browser test, and no login it did not ask
// for, and weighs at most 12 MB more than a bare Gin app.
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
	}

	dir := t.TempDir()
	size := func(name, pkg string) int64 {
		bin := filepath.Join(dir, name)
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
		fi, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	minimal, bare := size("minimal", "."), size("baregin", "./testdata/baregin")
	t.Logf("examples/minimal %d bytes, bare Gin %d bytes: +%d", minimal, bare, minimal-bare)
	if minimal-bare > maxExtraBytes {
		t.Errorf("examples/minimal is %d bytes larger than a bare Gin app; at most %d", minimal-bare, maxExtraBytes)
	}

	// The login is linked only through Config.Login = loginx.Start.
	syms, err := exec.Command("go", "tool", "nm", filepath.Join(dir, "minimal")).Output()
	if err != nil {
		t.Fatal(err)
	}
	// (Package initialisers stay: the import is there, the code is not.)
	for _, fn := range []string{
		"github.com/rolegate/rolegate/loginx.(*Service).handleLogin",
		"github.com/coreos/go-oidc/v3/oidc.(*IDTokenVerifier).Verify",
		"github.com/go-jose/go-jose/v4.ParseSigned",
	} {
		if strings.Contains(string(syms), " "+fn+"\n") {
			t.Errorf("examples/minimal links %s without setting Config.Login", fn)
		}
	}
}
