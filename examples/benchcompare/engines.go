package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/casbin/casbin/v2"
	"github.com/casbin/casbin/v2/model"

	"github.com/rolegate/rolegate/authz"
	_ "github.com/rolegate/rolegate/authz/sqlite" // the default store: a SQLite file
)

// engine is one authorization library loaded with a workload.
type engine interface {
	Check(user, perm string) (bool, error)
	Close() error
}

// engineNames are the engines compared, in table order.
var engineNames = []string{"rolegate", "casbin", "casbin-cached", "casbin-synced-cached"}

// loaded is an engine with what it cost to load: the wall time of the load
// itself, and the Go heap it holds after the load and one pass of the 512
// checks (runtime.ReadMemStats after runtime.GC, minus the same before).
type loaded struct {
	engine
	name     string
	load     time.Duration
	heap     uint64
	diskSize int64 // rolegate: the SQLite file and its WAL; 0 for casbin
}

// open loads workload w into the named engine, times the load, runs the
// 512 checks once (a warm-up that also verifies every answer), and
// measures the heap it holds.
func open(name string, w *workload, dir string) (*loaded, error) {
	before := heapAfterGC()
	l := &loaded{name: name}
	var err error
	start := time.Now()
	switch name {
	case "rolegate":
		var rg *rolegateEngine
		rg, err = openRolegate(w, dir)
		l.load = time.Since(start)
		if err == nil {
			l.engine = rg
			// The bulk load bumped the client's revision; let the revision
			// watcher see it now, so that it does not flush the cache in
			// the middle of a measurement.
			time.Sleep(2*authz.DefaultConfig().RevisionCheckInterval + 100*time.Millisecond)
			l.diskSize = dirSize(dir)
		}
	case "casbin", "casbin-cached", "casbin-synced-cached":
		l.engine, err = openCasbin(name, w)
		l.load = time.Since(start)
	default:
		return nil, fmt.Errorf("unknown engine %q", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, ck := range w.checks {
		got, err := l.Check(ck.user, ck.perm)
		if err != nil || got != ck.want {
			l.Close()
			return nil, fmt.Errorf("%s: %s %s = %v, %v; want %v", name, ck.user, ck.perm, got, err, ck.want)
		}
	}
	if after := heapAfterGC(); after > before {
		l.heap = after - before
	}
	return l, nil
}

func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// clientKey is the client the workloads are loaded under.
const clientKey = "6f1c2e9a-3b4d-4c5e-9f60-718293a4b5c6"

var bg = context.Background()

type rolegateEngine struct {
	az *authz.Authz
	c  *authz.Client
}

func (e *rolegateEngine) Check(user, perm string) (bool, error) {
	return e.c.UserHasPermission(bg, user, perm)
}

func (e *rolegateEngine) Close() error { return e.az.Close() }

// openRolegateEmpty opens rolegate on a fresh SQLite file in dir, with the
// default configuration (audit on, 1 s revision check) and logs discarded.
func openRolegateEmpty(dir string) (*rolegateEngine, error) {
	cfg := authz.DefaultConfig()
	cfg.SQLitePath = filepath.Join(dir, "rolegate.sqlite3")
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	// Open mode (no admin keys) bounds each client's writes and reads in
	// flight against strangers; this client is the test's own and faster.
	cfg.OpenWritesPerSecond, cfg.MaxReadsInFlight = 1_000_000, 1<<20
	az, err := authz.Open(bg, cfg)
	if err != nil {
		return nil, err
	}
	c, err := az.Client(clientKey)
	if err != nil {
		az.Close()
		return nil, err
	}
	return &rolegateEngine{az: az, c: c}, nil
}

// openRolegate opens rolegate and bulk-loads w through Client.Batch, in
// batches of up to authz.MaxBatchOperations operations: one transaction
// and one revision bump per batch (one audit record per operation), where
// loadRolegateAPI pays one transaction per write.
func openRolegate(w *workload, dir string) (*rolegateEngine, error) {
	e, err := openRolegateEmpty(dir)
	if err != nil {
		return nil, err
	}
	ops := make([]authz.Operation, 0, authz.MaxBatchOperations)
	flush := func() error {
		if len(ops) == 0 {
			return nil
		}
		_, err := e.c.Batch(bg, ops)
		ops = ops[:0]
		return err
	}
	add := func(op authz.Operation) error {
		ops = append(ops, op)
		if len(ops) == authz.MaxBatchOperations {
			return flush()
		}
		return nil
	}
	err = func() error {
		for r, perms := range w.rolePerms {
			role := roleName(r)
			if err := add(authz.Operation{Op: "add_role", Role: role}); err != nil {
				return err
			}
			for _, p := range perms {
				if err := add(authz.Operation{Op: "add_permission", Role: role, Permission: permName(p)}); err != nil {
					return err
				}
			}
		}
		for u, roles := range w.userRoles {
			for _, r := range roles {
				if err := add(authz.Operation{Op: "add_membership", User: userName(u), Role: roleName(r)}); err != nil {
					return err
				}
			}
		}
		return flush()
	}()
	if err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// loadRolegateAPI loads w through the public library API, one call (one
// transaction, one audit record) per role, grant and membership: what an
// app that only uses the library API pays.
func loadRolegateAPI(w *workload, dir string) (*rolegateEngine, time.Duration, error) {
	e, err := openRolegateEmpty(dir)
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	for r, perms := range w.rolePerms {
		role := roleName(r)
		if _, err := e.c.AddRole(bg, role, ""); err != nil {
			e.Close()
			return nil, 0, err
		}
		for _, p := range perms {
			if _, err := e.c.AddPermission(bg, role, permName(p)); err != nil {
				e.Close()
				return nil, 0, err
			}
		}
	}
	for u, roles := range w.userRoles {
		for _, r := range roles {
			if _, err := e.c.AddMembership(bg, userName(u), roleName(r)); err != nil {
				e.Close()
				return nil, 0, err
			}
		}
	}
	return e, time.Since(start), nil
}

// casbinModel is the simplest RBAC model for "does user U hold permission
// P": a policy grants an action to a role, a grouping puts a user in a
// role.
const casbinModel = `
[request_definition]
r = sub, act

[policy_definition]
p = sub, act

[role_definition]
g = _, _

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = g(r.sub, p.sub) && r.act == p.act
`

// casbinEnforcer is what the three Casbin enforcers have in common here.
type casbinEnforcer interface {
	Enforce(rvals ...interface{}) (bool, error)
	AddPolicies(rules [][]string) (bool, error)
	AddGroupingPolicies(rules [][]string) (bool, error)
	AddPolicy(params ...interface{}) (bool, error)
	AddGroupingPolicy(params ...interface{}) (bool, error)
	RemovePolicy(params ...interface{}) (bool, error)
	RemoveGroupingPolicy(params ...interface{}) (bool, error)
}

type casbinEngine struct{ e casbinEnforcer }

func (c *casbinEngine) Check(user, perm string) (bool, error) { return c.e.Enforce(user, perm) }
func (c *casbinEngine) Close() error                          { return nil }

// newCasbin makes an empty enforcer of the given kind, policies in memory
// (no adapter).
func newCasbin(kind string) (casbinEnforcer, error) {
	m, err := model.NewModelFromString(casbinModel)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "casbin":
		return casbin.NewEnforcer(m)
	case "casbin-cached":
		return casbin.NewCachedEnforcer(m)
	case "casbin-synced-cached":
		return casbin.NewSyncedCachedEnforcer(m)
	}
	return nil, fmt.Errorf("unknown casbin kind %q", kind)
}

// openCasbin loads w into a new enforcer with AddPolicies (role, permission)
// and AddGroupingPolicies (user, role).
func openCasbin(kind string, w *workload) (*casbinEngine, error) {
	e, err := newCasbin(kind)
	if err != nil {
		return nil, err
	}
	var p, g [][]string
	for r, perms := range w.rolePerms {
		for _, pm := range perms {
			p = append(p, []string{roleName(r), permName(pm)})
		}
	}
	for u, roles := range w.userRoles {
		for _, r := range roles {
			g = append(g, []string{userName(u), roleName(r)})
		}
	}
	if ok, err := e.AddPolicies(p); err != nil || !ok {
		return nil, fmt.Errorf("AddPolicies: %v, %v", ok, err)
	}
	if ok, err := e.AddGroupingPolicies(g); err != nil || !ok {
		return nil, fmt.Errorf("AddGroupingPolicies: %v, %v", ok, err)
	}
	return &casbinEngine{e: e}, nil
}
