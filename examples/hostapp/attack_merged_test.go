package main

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// mergedLayout is issue 33's first attack: role a with 3,000 permissions
// of 126 characters, role b with one, users m0..m3496 members of both
// (10,000 rows, about 1 MB of batch); users holds the users.
func mergedLayout() (ops, users []string) {
	ops = []string{`{"op":"add_role","role":"a"}`, `{"op":"add_role","role":"b"}`,
		`{"op":"add_permission","role":"b","permission":"b-only"}`}
	for i := range 3000 {
		ops = append(ops, fmt.Sprintf(`{"op":"add_permission","role":"a","permission":"%s"}`, fanOutPerm(i)))
	}
	for i := range 3497 {
		u := fmt.Sprint("m", i)
		users = append(users, u)
		ops = append(ops, fmt.Sprintf(`{"op":"add_membership","user":"%s","role":"a"}`, u),
			fmt.Sprintf(`{"op":"add_membership","user":"%s","role":"b"}`, u))
	}
	return ops, users
}

// pairsLayout is the same attack with a different combination of roles
// per user: role a as above, 60 roles s0..s59 of 16 permissions each (as
// many as a user's entry merges), and a user for each pair of them,
// member of a and of both (9,331 rows): no two users share their roles.
func pairsLayout() (ops, users []string) {
	ops = []string{`{"op":"add_role","role":"a"}`}
	for i := range 3000 {
		ops = append(ops, fmt.Sprintf(`{"op":"add_permission","role":"a","permission":"%s"}`, fanOutPerm(i)))
	}
	for i := range 60 {
		ops = append(ops, fmt.Sprintf(`{"op":"add_role","role":"s%d"}`, i))
		for j := range 16 {
			ops = append(ops, fmt.Sprintf(`{"op":"add_permission","role":"s%d","permission":"s%02d-%02d-%s"}`, i, i, j, strings.Repeat("x", 118)))
		}
	}
	for i := range 60 {
		for j := i + 1; j < 60; j++ {
			u := fmt.Sprintf("p%d-%d", i, j)
			users = append(users, u)
			ops = append(ops, fmt.Sprintf(`{"op":"add_membership","user":"%s","role":"a"}`, u),
				fmt.Sprintf(`{"op":"add_membership","user":"%s","role":"s%d"}`, u, i),
				fmt.Sprintf(`{"op":"add_membership","user":"%s","role":"s%d"}`, u, j))
		}
	}
	return ops, users
}

// inheritLayout is the same attack through inheritance: role big with
// 5,000 permissions of 126 characters, roles f0..f1239 each inheriting big
// and granted one permission of its own, user u<i> a member of f<i>
// (9,961 rows): no two roles have the same effective set.
func inheritLayout() (ops, users []string) {
	ops = []string{`{"op":"add_role","role":"big"}`}
	for i := range 5000 {
		ops = append(ops, fmt.Sprintf(`{"op":"add_permission","role":"big","permission":"%s"}`, fanOutPerm(i)))
	}
	for i := range 1240 {
		users = append(users, fmt.Sprint("u", i))
		ops = append(ops, fmt.Sprintf(`{"op":"add_role","role":"f%d"}`, i),
			fmt.Sprintf(`{"op":"add_inheritance","role":"f%d","parent":"big"}`, i),
			fmt.Sprintf(`{"op":"add_permission","role":"f%d","permission":"g%d"}`, i, i),
			fmt.Sprintf(`{"op":"add_membership","user":"u%d","role":"f%d"}`, i, i))
	}
	return ops, users
}

// Attack 1 of issue 33, memory by merged sets: one batch of a layout in
// which every user's permissions, or every role's, are the union of a
// large set and another, then one check of every user (4 at a time, the
// reads in flight a client may have). The process's live heap after a
// full GC, and its resident set, grow by at most 64 MiB (the resident set
// grew by about 380 MiB when each user's check looked in a copy of its
// roles' sets merged, and each role with inheritance kept a copy of its
// ancestors' sets), and the checks answer right.
func TestOpenModeAttackMergedSetsMemory(t *testing.T) {
	needAttacks(t)
	bin, _ := hostappBinary(t)
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, l := range []struct {
			name   string
			layout func() ([]string, []string)
			holds  string // a permission every user holds besides a's
		}{
			{"3,497 users in a and b", mergedLayout, "b-only"},
			{"1,770 users in a and a pair of 60 small roles", pairsLayout, ""},
			{"1,240 roles inheriting big, each granted one", inheritLayout, ""},
		} {
			t.Run(l.name, func(t *testing.T) {
				app := startOpen(t, bin, target, "GODEBUG=gctrace=1")
				other := uuid.NewString()
				app.must(t, http.MethodPost, "/api/role/r", other, nil, http.StatusCreated)
				app.must(t, http.MethodGet, "/api/has_permission/u/p", other, nil, http.StatusOK)
				ops, users := l.layout()
				body := batchBody(ops)
				liveBefore, rssBefore := app.liveHeap(t), app.rss()
				key := uuid.NewString()
				start := time.Now()
				app.must(t, http.MethodPost, "/api/batch", key, body, http.StatusCreated)
				wrote := time.Since(start)
				start = time.Now()
				var wrong atomic.Int32
				var next atomic.Int64
				var wg sync.WaitGroup
				for range 4 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := int(next.Add(1) - 1); i < len(users); i = int(next.Add(1) - 1) {
							code, b, _, err := app.send(http.MethodGet, "/api/has_permission/"+users[i]+"/nope", key, nil)
							if err != nil || code != http.StatusOK || !jsonResult(b, false) {
								wrong.Add(1)
							}
						}
					}()
				}
				wg.Wait()
				checked := time.Since(start)
				rssAfter := app.rss()
				liveAfter := app.liveHeap(t)
				if wrong.Load() > 0 {
					t.Fatalf("%d of %d checks answered wrong", wrong.Load(), len(users))
				}
				for _, u := range []string{users[0], users[len(users)-1]} {
					if !result(t, app.must(t, http.MethodGet, "/api/has_permission/"+u+"/"+fanOutPerm(2999), key, nil, http.StatusOK)) {
						t.Fatalf("%s does not hold a's permission", u)
					}
					if l.holds != "" && !result(t, app.must(t, http.MethodGet, "/api/has_permission/"+u+"/"+l.holds, key, nil, http.StatusOK)) {
						t.Fatalf("%s does not hold %s", u, l.holds)
					}
				}
				t.Logf("%s: %s: batch of %d operations (%.0f KB) in %v; %d checks in %v; live heap after a full GC %d -> %d MiB (%+d MiB); RSS %s -> %s (%+.1f MiB)",
					target.Name, l.name, len(ops), float64(len(body))/1024, wrote.Round(time.Millisecond), len(users), checked.Round(time.Millisecond),
					liveBefore, liveAfter, liveAfter-liveBefore, mib(rssBefore), mib(rssAfter), float64(rssAfter-rssBefore)/(1<<20))
				if grew := liveAfter - liveBefore; grew > 64 {
					t.Errorf("the live heap grew by %d MiB; want at most 64", grew)
				}
				if grew := rssAfter - rssBefore; grew > 64<<20 {
					t.Errorf("RSS grew by %s; want at most 64 MiB", mib(grew))
				}
			})
		}
	})
}

// jsonResult reports whether an envelope's body answers result want.
func jsonResult(b []byte, want bool) bool {
	return bytes.Contains(b, []byte(fmt.Sprintf(`"result":%t`, want)))
}
