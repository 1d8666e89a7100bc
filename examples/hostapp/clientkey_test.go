package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/middleware"
)

// Without AUTH_CLIENT_KEY the example keeps a key of its own beside the
// SQLite file, readable by its owner only, and the same one on every run.
func TestExampleClientKeyKeptBesideTheDatabase(t *testing.T) {
	cfg := authz.Config{SQLitePath: filepath.Join(t.TempDir(), "sub", "auth.sqlite3")}
	k1, path, err := exampleClientKey(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := middleware.ParseClientKey(k1); err != nil {
		t.Fatalf("key %q is not a UUID v4", k1)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 || path != cfg.SQLitePath+".client-key" {
		t.Fatalf("key file %s: %v %v, want 0600 beside the database", path, st.Mode(), err)
	}
	k2, _, err := exampleClientKey(cfg)
	if err != nil || k2 != k1 {
		t.Fatalf("second run: %q %v, want the same key %q", k2, err, k1)
	}
	if err := os.WriteFile(path, []byte("not a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := exampleClientKey(cfg); err == nil {
		t.Fatal("a key file holding garbage was accepted")
	}
	if _, _, err := exampleClientKey(authz.Config{DatabaseType: "postgresql"}); err == nil {
		t.Fatal("on PostgreSQL the example must insist on AUTH_CLIENT_KEY")
	}
}

// TestExampleClientKeyFileOthersCanRead: the key file is the admin key;
// one that others can read (planted, or copied with a loose mode) is
// refused rather than used, and the key is not in the error.
func TestExampleClientKeyFileOthersCanRead(t *testing.T) {
	cfg := authz.Config{SQLitePath: filepath.Join(t.TempDir(), "auth.sqlite3")}
	key := "6f1c2e9a-3b4d-4c5e-9f60-718293a4b5c6"
	path := cfg.SQLitePath + ".client-key"
	if err := os.WriteFile(path, []byte(key+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil { // past the umask
		t.Fatal(err)
	}
	k, _, err := exampleClientKey(cfg)
	if err == nil {
		t.Fatalf("a key file readable by others (0644) was used: %q", k)
	}
	if strings.Contains(err.Error(), key) {
		t.Fatalf("the error shows the key: %v", err)
	}
}
