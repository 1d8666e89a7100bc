package storage_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestReencodeRewritesAsOneByOne: a pass gives the rows it rewrites
// together the answer it gave one by one: a value rewritten, a row whose
// new form exists already (its twin) deleted, of two old forms of one
// name in the same batch the first rewritten and the second deleted, and
// rows of another column (descriptions, not part of the key) rewritten in
// place; other namespaces and values already done left alone. On both
// stores, with batches smaller and larger than the rows.
func TestReencodeRewritesAsOneByOne(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		for _, batch := range []int{3, 1000} {
			t.Run(fmt.Sprint("batch ", batch), func(t *testing.T) {
				ctx := context.Background()
				s := storage.Scope{NS: storage.NamespaceOf(fmt.Sprint("k", batch))}
				other := storage.Scope{NS: storage.NamespaceOf(fmt.Sprint("other", batch))}
				for _, sc := range []storage.Scope{s, other} {
					for _, role := range []string{"r", "q"} {
						if _, err := storage.AddRole(ctx, db, sc, role, ""); err != nil {
							t.Fatal(err)
						}
					}
				}
				if _, err := storage.SetRoleDescription(ctx, db, s, "q", "o1:about q"); err != nil {
					t.Fatal(err)
				}
				stored := map[string][]string{
					"r": {"new:done", "new:twin", "o1:a", "o1:b", "o1:twin", "o2:a", "o2:c"},
					"q": {"o1:a", "o2:a", "o2:b"},
				}
				for _, sc := range []storage.Scope{s, other} {
					for role, names := range stored {
						for _, n := range names {
							if _, err := db.NewRaw("INSERT INTO rolegate_permissions (ns, role, name) VALUES (?, ?, ?)", sc.NS, role, n).Exec(ctx); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
				// Only s is re-encoded: another client's rows stay as they are.
				_, err := storage.Reencode(ctx, db, storage.ReencodeOptions{
					Task: "test", Done: "new:", Batch: batch,
					Recode: func(owner, kind, v string) (string, bool, error) {
						if owner != s.NS || strings.HasPrefix(v, "new:") {
							return v, false, nil
						}
						return "new:" + v[strings.IndexByte(v, ':')+1:], true, nil
					},
				})
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range []struct {
					sc   storage.Scope
					role string
					want []string
				}{
					{s, "r", []string{"new:a", "new:b", "new:c", "new:done", "new:twin"}},
					{s, "q", []string{"new:a", "new:b"}},
					{other, "r", stored["r"]},
					{other, "q", stored["q"]},
				} {
					var got []string
					if err := db.NewRaw("SELECT name FROM rolegate_permissions WHERE ns = ? AND role = ? ORDER BY name", c.sc.NS, c.role).Scan(ctx, &got); err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, c.want) {
						t.Errorf("namespace %.8s, role %s holds %q, want %q", c.sc.NS, c.role, got, c.want)
					}
				}
				var about string
				if err := db.NewRaw("SELECT description FROM rolegate_roles WHERE ns = ? AND name = 'q'", s.NS).Scan(ctx, &about); err != nil || about != "new:about q" {
					t.Errorf("q's description is %q (%v), want new:about q", about, err)
				}
			})
		}
	})
}
