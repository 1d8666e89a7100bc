package authz

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// oapiCodegen is the client generator the spec must satisfy, pinned.
const oapiCodegen = "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.5.1"

// TestOpenAPIWithStandardTools lints every document Mount serves (fully
// configured, bare, under a prefix) with redocly's strictest preset, and
// generates a Go client from each with oapi-codegen and compiles it. It
// needs the Go module proxy and redocly (npm i -g @redocly/cli), so it
// runs when AUTH_TEST_OPENAPI_TOOLS=1 (.ci/run sets it).
func TestOpenAPIWithStandardTools(t *testing.T) {
	if os.Getenv("AUTH_TEST_OPENAPI_TOOLS") != "1" {
		t.Skip("set AUTH_TEST_OPENAPI_TOOLS=1 (needs the Go module proxy and redocly)")
	}
	redocly, err := exec.LookPath("redocly")
	if err != nil {
		t.Fatal("redocly not installed: npm i -g @redocly/cli")
	}
	ruleset, err := filepath.Abs("internal/rest/redocly.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		mod    func(*Config)
		prefix string
	}{
		"everything": {withEverything, ""},
		"bare":       {nil, ""},
		"prefixed":   {func(c *Config) { c.DisableCORS = true }, "/auth"},
	} {
		t.Run(name, func(t *testing.T) {
			az, _ := openREST(t, storagetest.SQLite(t), tc.mod)
			w := performRequest(newTestRouter(t, az, tc.prefix), "GET", tc.prefix+"/openapi.json", "", nil)
			if w.Code != 200 {
				t.Fatalf("GET openapi.json: %d", w.Code)
			}
			dir := t.TempDir()
			spec := filepath.Join(dir, "openapi.json")
			if err := os.WriteFile(spec, w.Body.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			run := func(name string, args ...string) string {
				t.Helper()
				cmd := exec.Command(name, args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "REDOCLY_TELEMETRY=off")
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
				}
				return string(out)
			}
			run(redocly, "lint", spec, "--config", ruleset, "--format", "summary")
			run("go", "mod", "init", "generated")
			run("go", "run", oapiCodegen, "-generate", "types,client", "-package", "main", "-o", "client.go", spec)
			main := "package main\n\nfunc main() { _, _ = NewClientWithResponses(\"http://127.0.0.1:8000\") }\n"
			if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o600); err != nil {
				t.Fatal(err)
			}
			run("go", "mod", "tidy")
			run("go", "build", "./...")
		})
	}
}
