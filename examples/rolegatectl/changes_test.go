package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// randomWriter makes random writes of every kind, renames and batches
// included, on a small namespace so that they meet: adds of what exists,
// deletes of what is gone, cycles refused, renames onto a name in use.
type randomWriter struct {
	c   *authz.Client
	rnd *rand.Rand
}

func (w *randomWriter) pick(prefix string, n int) string {
	return fmt.Sprintf("%s%d", prefix, w.rnd.IntN(n))
}

// op is one random batch operation.
func (w *randomWriter) op() authz.Operation {
	role, user, perm, scope := w.pick("role", 25), w.pick("user", 40), w.pick("perm", 15), w.pick("scope", 4)
	switch w.rnd.IntN(11) {
	case 0:
		return authz.Operation{Op: "add_role", Role: role, Description: w.pick("about ", 3)}
	case 1:
		return authz.Operation{Op: "set_description", Role: role, Description: w.pick("desc ", 5)}
	case 2:
		return authz.Operation{Op: "del_role", Role: role}
	case 3, 4:
		return authz.Operation{Op: "add_permission", Role: role, Permission: perm}
	case 5:
		return authz.Operation{Op: "del_permission", Role: role, Permission: perm}
	case 6:
		return authz.Operation{Op: "add_membership", User: user, Role: role}
	case 7:
		return authz.Operation{Op: "add_membership", User: user, Role: role, Scope: scope}
	case 8:
		return authz.Operation{Op: "del_membership", User: user, Role: role, Scope: []string{"", scope}[w.rnd.IntN(2)]}
	case 9:
		return authz.Operation{Op: "add_inheritance", Role: role, Parent: w.pick("role", 25)}
	default:
		return authz.Operation{Op: "del_inheritance", Role: role, Parent: w.pick("role", 25)}
	}
}

// write makes one random write: a single operation through its library
// method, a rename, or a batch. Refusals (role not found, a cycle, a
// rename onto a name in use, a batch that fails) are expected.
func (w *randomWriter) write(ctx context.Context) error {
	var err error
	switch k := w.rnd.IntN(20); {
	case k == 0:
		_, err = w.c.RenameUser(ctx, w.pick("user", 40), w.pick("user", 40), w.rnd.IntN(2) == 0)
	case k == 1:
		ops := make([]authz.Operation, 2+w.rnd.IntN(8))
		for i := range ops {
			ops[i] = w.op()
		}
		_, err = w.c.Batch(ctx, ops)
	case k < 4:
		// Roles come first more often, so that grants and memberships
		// find theirs.
		_, err = w.c.AddRole(ctx, w.pick("role", 25), "")
	default:
		err = applyOne(ctx, w.c, w.op())
	}
	if err != nil && !errors.Is(err, authz.ErrRoleNotFound) && !errors.Is(err, authz.ErrCycle) &&
		!errors.Is(err, authz.ErrUserExists) && !errors.Is(err, authz.ErrShapeLimit) {
		var be *authz.BatchError
		if !errors.As(err, &be) {
			return err
		}
	}
	return nil
}

// applyOne runs one operation through the library method of its name.
func applyOne(ctx context.Context, c *authz.Client, op authz.Operation) error {
	var err error
	switch op.Op {
	case "add_role":
		_, err = c.AddRole(ctx, op.Role, op.Description)
	case "set_description":
		_, err = c.SetRoleDescription(ctx, op.Role, op.Description)
	case "del_role":
		_, err = c.DelRole(ctx, op.Role)
	case "add_permission":
		_, err = c.AddPermission(ctx, op.Role, op.Permission)
	case "del_permission":
		_, err = c.DelPermission(ctx, op.Role, op.Permission)
	case "add_membership":
		if op.Scope != "" {
			_, err = c.AddMembershipIn(ctx, op.Scope, op.User, op.Role)
		} else {
			_, err = c.AddMembership(ctx, op.User, op.Role)
		}
	case "del_membership":
		if op.Scope != "" {
			_, err = c.DelMembershipIn(ctx, op.Scope, op.User, op.Role)
		} else {
			_, err = c.DelMembership(ctx, op.User, op.Role)
		}
	case "add_inheritance":
		_, err = c.AddInheritance(ctx, op.Role, op.Parent)
	case "del_inheritance":
		_, err = c.DelInheritance(ctx, op.Role, op.Parent)
	default:
		return fmt.Errorf("unknown op %q", op.Op)
	}
	return err
}

// replay applies one change of the feed, as a reader in another language
// would: each operation by its library method, with the time bounds the
// change carries.
func replay(ctx context.Context, c *authz.Client, ch authz.Change) error {
	var opts []authz.AddOption
	if ch.StartsAt != nil {
		opts = append(opts, authz.StartsAt(*ch.StartsAt))
	}
	if ch.ExpiresAt != nil {
		opts = append(opts, authz.ExpiresAt(*ch.ExpiresAt))
	}
	var err error
	switch ch.Op {
	case "rename_user":
		_, err = c.RenameUser(ctx, ch.User, ch.NewUser, ch.Merge)
	case "add_permission":
		_, err = c.AddPermission(ctx, ch.Role, ch.Permission, opts...)
	case "add_membership":
		if ch.Scope != "" {
			_, err = c.AddMembershipIn(ctx, ch.Scope, ch.User, ch.Role, opts...)
		} else {
			_, err = c.AddMembership(ctx, ch.User, ch.Role, opts...)
		}
	case "expire_permission":
		_, err = c.DelPermission(ctx, ch.Role, ch.Permission)
	case "expire_membership":
		return applyOne(ctx, c, authz.Operation{Op: "del_membership", User: ch.User, Role: ch.Role, Scope: ch.Scope})
	default:
		return applyOne(ctx, c, authz.Operation{Op: ch.Op, Role: ch.Role, Permission: ch.Permission, User: ch.User,
			Scope: ch.Scope, Parent: ch.Parent, Description: ch.Description})
	}
	return err
}

// backupState is a backup file without what differs between two takes of
// the same state (when, of which namespace, at which revision).
func backupState(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b backupFile
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatal(err)
	}
	b.Created, b.Namespace, b.Revision = time.Time{}, "", ""
	out, _ := json.Marshal(b)
	return string(out)
}

// TestChangesReplayOntoBackup is the change feed's "done when": after
// 10,000 random writes, renames and batches included, replaying GET
// /api/changes from a backup's revision onto that backup gives a store
// whose backup equals the source's. The backup is taken a third of the
// way through; the feed after it is read with rolegatectl changes and
// applied to the restored copy (another namespace) one change at a time.
func TestChangesReplayOntoBackup(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 writes")
	}
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		start := time.Now()
		srv := startServer(t, target)
		ctx := context.Background()
		key, copyKey := newKey(), newKey()
		src, err := srv.az.Client(key)
		if err != nil {
			t.Fatal(err)
		}
		dst, err := srv.az.Client(copyKey)
		if err != nil {
			t.Fatal(err)
		}
		const writes = 10_000
		// PostgreSQL takes writers side by side (the feed's order is the
		// order they commit in); SQLite one at a time.
		writers := 1
		if target.Name == "postgresql" {
			writers = 4
		}
		var deadlocks atomic.Int64
		run := func(n int, seed uint64) {
			t.Helper()
			var wg sync.WaitGroup
			errs := make(chan error, writers)
			for i := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					w := &randomWriter{c: src, rnd: rand.New(rand.NewPCG(seed, uint64(i)))}
					for range n / writers {
						err := w.write(ctx)
						if err != nil && strings.Contains(err.Error(), "deadlock detected") {
							// Two transactions that locked rows in opposite
							// orders (batches, renames side by side): PostgreSQL
							// rolled one back, whole, so nothing of it is in the
							// store or the feed; counted, and the writer moves on.
							deadlocks.Add(1)
							continue
						}
						if err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
		}
		run(writes/3, 1)
		dir := t.TempDir()
		backup := filepath.Join(dir, "backup.json")
		must(t, 0, srv.url, key, "backup", "-f", backup)
		var b backupFile
		raw, _ := os.ReadFile(backup)
		if err := json.Unmarshal(raw, &b); err != nil || b.Revision == "" {
			t.Fatalf("the backup records no revision (%v): %.200s", err, raw)
		}
		run(writes-writes/3, 2)
		wrote := time.Since(start)

		// The copy: the backup restored, then the feed after its revision.
		must(t, 0, srv.url, copyKey, "restore", "-f", backup, "--yes")
		r := must(t, 0, srv.url, key, "changes", "--after", b.Revision)
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		ops := map[string]int{}
		// Runs of batch operations go as one batch each (in order, in one
		// transaction: what applying them one by one does, faster); a
		// rename, or an add with time bounds, alone.
		var pending []authz.Operation
		flush := func() {
			if len(pending) > 0 {
				if _, err := dst.Batch(ctx, pending); err != nil {
					t.Fatalf("replaying a run of %d changes: %v", len(pending), err)
				}
				pending = pending[:0]
			}
		}
		for _, line := range lines {
			var ch authz.Change
			if err := json.Unmarshal([]byte(line), &ch); err != nil {
				t.Fatalf("not a change: %q", line)
			}
			ops[ch.Op]++
			if ch.Op == "rename_user" || strings.HasPrefix(ch.Op, "expire_") || ch.StartsAt != nil || ch.ExpiresAt != nil || len(pending) == 500 {
				flush()
			}
			if ch.Op == "rename_user" || strings.HasPrefix(ch.Op, "expire_") || ch.StartsAt != nil || ch.ExpiresAt != nil {
				if err := replay(ctx, dst, ch); err != nil {
					t.Fatalf("replaying %s: %v", line, err)
				}
				continue
			}
			pending = append(pending, authz.Operation{Op: ch.Op, Role: ch.Role, Permission: ch.Permission, User: ch.User,
				Scope: ch.Scope, Parent: ch.Parent, Description: ch.Description})
		}
		flush()
		if ops["rename_user"] == 0 || ops["del_role"] == 0 || ops["add_inheritance"] == 0 {
			t.Fatalf("the writes made too few kinds of change: %v", ops)
		}
		want, got := filepath.Join(dir, "source.json"), filepath.Join(dir, "copy.json")
		must(t, 0, srv.url, key, "backup", "-f", want)
		must(t, 0, srv.url, copyKey, "backup", "-f", got)
		if a, b := backupState(t, want), backupState(t, got); a != b {
			t.Fatalf("the replayed copy differs from the source:\nsource %.2000s\ncopy   %.2000s", a, b)
		}
		t.Logf("%s: %d writes (%d refused as deadlocks) in %v; %d changes after the backup's revision %s replayed (%v); %v in all",
			target.Name, writes, deadlocks.Load(), wrote.Round(time.Millisecond), len(lines), b.Revision, ops, time.Since(start).Round(time.Millisecond))
	})
}

// TestChangesFollowKilledResumes: rolegatectl changes --follow --out,
// killed (SIGKILL) at random moments while writes go on and started again
// each time, ends with every change in its file once, in order: no loss,
// no duplicate.
func TestChangesFollowKilledResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds rolegatectl")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "rolegatectl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		srv := startServer(t, target)
		ctx := context.Background()
		key := newKey()
		c, err := srv.az.Client(key)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "changes.jsonl")
		follower := func() *exec.Cmd {
			cmd := exec.Command(bin, "--url", srv.url, "changes", "--follow", "--out", out, "--limit", "7")
			cmd.Env = append(os.Environ(), "ROLEGATE_KEY="+key)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			return cmd
		}
		done := make(chan error, 1)
		go func() {
			w := &randomWriter{c: c, rnd: rand.New(rand.NewPCG(3, 3))}
			for range 600 {
				if err := w.write(ctx); err != nil {
					done <- err
					return
				}
				time.Sleep(time.Millisecond)
			}
			done <- nil
		}()
		rnd := rand.New(rand.NewPCG(4, 4))
		kills := 0
		for writing := true; writing; {
			cmd := follower()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				writing = false
			case <-time.After(time.Duration(50+rnd.IntN(300)) * time.Millisecond):
			}
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			kills++
		}
		// A last follower catches up.
		var all []authz.Change
		for next := "r0"; ; {
			p, err := c.Changes(ctx, next, authz.MaxChangesLimit)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Changes) == 0 {
				break
			}
			all, next = append(all, p.Changes...), p.Next
		}
		cmd := follower()
		defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
		var got []authz.Change
		deadline := time.Now().Add(30 * time.Second)
		for {
			got = readChanges(t, out)
			if len(got) >= len(all) || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if len(got) != len(all) {
			t.Fatalf("the file holds %d changes, the feed %d", len(got), len(all))
		}
		for i := range all {
			a, _ := json.Marshal(all[i])
			g, _ := json.Marshal(got[i])
			if string(a) != string(g) {
				t.Fatalf("change %d: file %s, feed %s", i, g, a)
			}
		}
		t.Logf("%s: %d changes, follower killed %d times", target.Name, len(all), kills)
	})
}

// readChanges reads the complete lines of a --out file.
func readChanges(t *testing.T, path string) []authz.Change {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []authz.Change
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var ch authz.Change
		if err := json.Unmarshal(sc.Bytes(), &ch); err != nil {
			break // a line being written
		}
		out = append(out, ch)
	}
	return out
}
