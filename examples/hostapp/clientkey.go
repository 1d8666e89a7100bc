package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/google/uuid"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/middleware"
)

// exampleClientKey gives the example its host client key when
// AUTH_CLIENT_KEY is unset, so that `go run ./examples/hostapp` works on a
// fresh machine: a key kept beside the SQLite file in "<file>.client-key"
// (created 0600 on first run, read afterwards). The key is a bearer
// secret, so it is never logged: the log names the file. A real app sets
// AUTH_CLIENT_KEY; on PostgreSQL the example insists on it.
func exampleClientKey(cfg authz.Config) (key, path string, err error) {
	if cfg.DatabaseURL != "" || (cfg.DatabaseType != "" && cfg.DatabaseType != "sqlite") {
		return "", "", errors.New("AUTH_CLIENT_KEY is not set; get a key with: go run ./examples/hostapp -new-client-key")
	}
	path = cfg.SQLitePath
	if path == "" {
		path = authz.DefaultConfig().SQLitePath
	}
	if path == "~" || strings.HasPrefix(path, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", "", err
		}
		path = filepath.Join(home, strings.TrimPrefix(path, "~"))
	}
	path += ".client-key"
	if b, err := os.ReadFile(path); err == nil {
		// The file is the admin key: one that others could read (planted
		// in a shared folder, or copied with a loose mode) is not ours to
		// trust. (Windows reports no such modes.)
		if st, err := os.Stat(path); err != nil || runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
			return "", "", fmt.Errorf("%s can be read by other users; delete it (a new key is made) or chmod 600 it, or set AUTH_CLIENT_KEY", path)
		}
		k, err := middleware.ParseClientKey(strings.TrimSpace(string(b)))
		if err != nil {
			return "", "", fmt.Errorf("%s does not hold a UUID v4 client key; delete it or set AUTH_CLIENT_KEY", path)
		}
		return k, path, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", "", err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", "", err
	}
	key = uuid.NewString()
	if _, err := fmt.Fprintln(f, key); err != nil {
		f.Close()
		return "", "", err
	}
	return key, path, f.Close()
}
