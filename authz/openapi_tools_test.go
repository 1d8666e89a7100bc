package authz

import (
	"net/http/httptest"
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
// configured, bare, under a prefix) with redocly's strictest preset,
// generates a Go client from each with oapi-codegen and compiles it, and
// runs a conformance program built on that client against the live server
// (where_can and check, see conformanceMain). It
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
			router := newTestRouter(t, az, tc.prefix)
			w := performRequest(router, "GET", tc.prefix+"/openapi.json", "", nil)
			if w.Code != 200 {
				t.Fatalf("GET openapi.json: %d", w.Code)
			}
			dir := t.TempDir()
			spec := filepath.Join(dir, "openapi.json")
			if err := os.WriteFile(spec, w.Body.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			// The generated client calls a live server: the conformance
			// program (conformanceMain) checks what it decodes.
			srv := httptest.NewServer(router)
			t.Cleanup(srv.Close)
			key := newKey()
			whereSetup(t, mustClient(t, az, key))
			run := func(name string, args ...string) string {
				t.Helper()
				cmd := exec.Command(name, args...)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "REDOCLY_TELEMETRY=off",
					"ROLEGATE_URL="+srv.URL+tc.prefix, "ROLEGATE_KEY="+key)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
				}
				return string(out)
			}
			run(redocly, "lint", spec, "--config", ruleset, "--format", "summary")
			run("go", "mod", "init", "generated")
			run("go", "run", oapiCodegen, "-generate", "types,client", "-package", "main", "-o", "client.go", spec)
			if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(conformanceMain), 0o600); err != nil {
				t.Fatal(err)
			}
			run("go", "mod", "tidy")
			run("go", "build", "./...")
			t.Log(run("go", "run", "."))
		})
	}
}

// conformanceMain is the program built with the generated client: it asks
// the live server (ROLEGATE_URL, ROLEGATE_KEY, set up by whereSetup)
// through the client's own methods and types, and fails unless they decode
// what the document promises: where-can paged with its total, checks in
// order, a refusal naming the check.
const conformanceMain = `package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"strings"
)

func main() {
	if err := conform(); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
	fmt.Println("conformance: where_can and check decode as documented")
}

func conform() error {
	ctx := context.Background()
	key := os.Getenv("ROLEGATE_KEY")
	c, err := NewClientWithResponses(os.Getenv("ROLEGATE_URL"), WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+key)
		return nil
	}))
	if err != nil {
		return err
	}
	limit := 2
	w, err := c.WhereCanWithResponse(ctx, "alice", "read", &WhereCanParams{Limit: &limit})
	if err != nil {
		return err
	}
	if w.JSON200 == nil || w.JSON200.Data.Global || !reflect.DeepEqual(w.JSON200.Data.Scopes, []string{"org-1", "org-2"}) || w.HTTPResponse.Header.Get("X-Total-Count") != "3" {
		return fmt.Errorf("where_can alice read, limit 2: %d %s", w.StatusCode(), w.Body)
	}
	after := "org-2"
	w, err = c.WhereCanWithResponse(ctx, "alice", "read", &WhereCanParams{After: &after})
	if err != nil || w.JSON200 == nil || !reflect.DeepEqual(w.JSON200.Data.Scopes, []string{"org-3"}) {
		return fmt.Errorf("where_can alice read after org-2: %v %s", err, w.Body)
	}
	w, err = c.WhereCanWithResponse(ctx, "bob", "read", nil)
	if err != nil || w.JSON200 == nil || !w.JSON200.Data.Global || len(w.JSON200.Data.Scopes) != 0 {
		return fmt.Errorf("where_can bob read: %v %s", err, w.Body)
	}
	org2 := "org-2"
	ck, err := c.CheckWithResponse(ctx, nil, CheckJSONRequestBody{Checks: []Check{
		{User: "alice", Permission: "edit", Scope: &org2}, {User: "alice", Permission: "edit"}, {User: "bob", Permission: "read"},
	}})
	if err != nil || ck.JSON200 == nil || !reflect.DeepEqual(ck.JSON200.Data.Results, []bool{true, false, true}) {
		return fmt.Errorf("check: %v %s", err, ck.Body)
	}
	ck, err = c.CheckWithResponse(ctx, nil, CheckJSONRequestBody{Checks: []Check{{User: "alice", Permission: "edit"}, {User: " bob", Permission: "read"}}})
	if err != nil || ck.JSON400 == nil || !strings.Contains(ck.JSON400.Error, "check 1") {
		return fmt.Errorf("check with a bad name: %v %s", err, ck.Body)
	}
	return nil
}
`
