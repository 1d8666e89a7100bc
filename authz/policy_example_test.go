package authz_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/rolegate/rolegate/authz"
)

// A host app applies the policy it ships with at startup: every replica
// may do it, the first changes the store and the others find it done.
func ExampleClient_ApplyPolicy() {
	dir, _ := os.MkdirTemp("", "rolegate-example")
	defer os.RemoveAll(dir)
	cfg := authz.DefaultConfig()
	cfg.SQLitePath = filepath.Join(dir, "auth.sqlite3")
	cfg.Logger = slog.New(slog.DiscardHandler)
	ctx := context.Background()
	az, err := authz.Open(ctx, cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer az.Close()
	client, err := az.Client("3f1c2a9e-8b7d-4c6e-9f1a-2b3c4d5e6f70")
	if err != nil {
		fmt.Println(err)
		return
	}

	// Usually //go:embed policy.yaml.
	policy, err := authz.ParsePolicy([]byte(`version: 1
roles:
  - name: editor
    description: Writes notes
    permissions: [edit, read]
  - name: viewer
    permissions: [read]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 2 {
		done, err := client.ApplyPolicy(ctx, policy)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(len(done), "changes")
	}
	// Output:
	// 5 changes
	// 0 changes
}
