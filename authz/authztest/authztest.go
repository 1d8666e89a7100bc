package authztest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"

	"github.com/rolegate/rolegate/authz"
	_ "github.com/rolegate/rolegate/authz/sqlite" // its stores are SQLite files
)

// T is what the assertions need of a *testing.T.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Options adjust the store.
type Options struct {
	// Config is the configuration to open with (the zero value: the
	// defaults): the host's resolver, guard refusal writer and so on. Its
	// database settings are replaced by a temporary SQLite file; audit
	// logging is turned off; an empty ClientKey is given a fresh key; a
	// nil Logger discards.
	Config authz.Config
}

// Store is a temporary rolegate with a policy applied.
type Store struct {
	// Authz is open on the temporary store; build the host's router on it
	// to test its guards.
	Authz *authz.Authz
	// Client is the host client (Config.ClientKey), holding the policy.
	Client *authz.Client
	// Policy is the policy as applied.
	Policy authz.Policy
	dir    string
}

// Open opens a rolegate on a new SQLite file in a temporary folder and
// applies p under the host client key. Close removes the folder.
func Open(ctx context.Context, p authz.Policy, opt Options) (*Store, error) {
	dir, err := os.MkdirTemp("", "rolegate-authztest-")
	if err != nil {
		return nil, err
	}
	s, err := open(ctx, dir, p, opt.Config)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

func open(ctx context.Context, dir string, p authz.Policy, cfg authz.Config) (*Store, error) {
	cfg.DatabaseType, cfg.DatabaseURL, cfg.PostgreSQLURL = "sqlite", "", ""
	cfg.SQLitePath = filepath.Join(dir, "auth.sqlite3")
	cfg.DisableAuditLogging = true
	if cfg.ClientKey == "" {
		cfg.ClientKey = uuid.NewString()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	az, err := authz.Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	c, err := az.HostClient()
	if err == nil {
		_, err = c.ApplyPolicy(ctx, p)
	}
	if err != nil {
		az.Close()
		return nil, loadError(p, err)
	}
	return &Store{Authz: az, Client: c, Policy: p, dir: dir}, nil
}

// LoadError is a policy that the store refused to load (past an
// inheritance limit, say), with the operation refused.
type LoadError struct {
	// Op is the operation refused; its Role names the role at fault (a
	// membership's role for add_membership).
	Op  authz.Operation
	Err error
}

func (e *LoadError) Error() string {
	what := fmt.Sprintf("role %q", e.Op.Role)
	if e.Op.User != "" {
		what = fmt.Sprintf("membership of %q in role %q", e.Op.User, e.Op.Role)
	}
	return fmt.Sprintf("the policy does not load: %s (%s): %v", what, e.Op.Op, e.Err)
}

func (e *LoadError) Unwrap() error { return e.Err }

// loadError names the operation of a refused apply: on an empty store
// the plan is the plan from nothing, so the failed index is found in it.
func loadError(p authz.Policy, err error) error {
	var be *authz.BatchError
	if !errors.As(err, &be) {
		return fmt.Errorf("the policy does not load: %w", err)
	}
	p.Normalize()
	ops := authz.PlanPolicy(authz.Policy{}, p)
	if be.Index < 0 || be.Index >= len(ops) {
		return fmt.Errorf("the policy does not load: %w", err)
	}
	return &LoadError{Op: ops[be.Index], Err: be.Err}
}

// Close closes the store and removes its folder.
func (s *Store) Close() error {
	err := s.Authz.Close()
	return errors.Join(err, os.RemoveAll(s.dir))
}

// New is Open for a test: it fails t when the store cannot be opened or
// the policy applied, and closes the store when t ends.
func New(t T, p authz.Policy, opt Options) *Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Open(ctx, p, opt)
	if err != nil {
		t.Fatalf("authztest: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// ReadPolicy reads and parses a policy file, failing t with the file and
// line of what is wrong.
func ReadPolicy(t T, path string) authz.Policy {
	t.Helper()
	return readFile(t, path, authz.ParsePolicy)
}

// ReadCases reads and parses a cases file (see authz.ParsePolicyCases),
// failing t with the file and line of what is wrong. Its memberships are
// added to a policy with AddTo.
func ReadCases(t T, path string) authz.PolicyCases {
	t.Helper()
	return readFile(t, path, authz.ParsePolicyCases)
}

func readFile[V any](t T, path string, parse func([]byte) (V, error)) V {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("authztest: %v", err)
	}
	v, err := parse(b)
	if err != nil {
		t.Fatalf("authztest: %s", FileError(path, err))
	}
	return v
}

// FileError is err of the file at path, as "path:line: message" when
// err names a line.
func FileError(path string, err error) string {
	var fe *authz.PolicyFileError
	if errors.As(err, &fe) && fe.Line > 0 {
		return fmt.Sprintf("%s:%d: %v: %s", path, fe.Line, fe.Err, fe.Msg)
	}
	return fmt.Sprintf("%s: %v", path, err)
}
