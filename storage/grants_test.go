package storage_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// rotatingCodec stores names as "new:" + name and knows "old:" + name as
// their other form, as a key rotation does.
type rotatingCodec struct{}

func (rotatingCodec) Encrypt(p string) string { return "new:" + p }
func (rotatingCodec) Decrypt(s string) (string, error) {
	return strings.TrimPrefix(strings.TrimPrefix(s, "new:"), "old:"), nil
}
func (rotatingCodec) Forms(p string) []string { return []string{"new:" + p, "old:" + p} }

// TestGrantsDelete: revokes written together report as one by one would
// (a grant given twice is deleted once; a role that does not exist, or a
// grant it does not hold, is absent), match every stored form of a name,
// and leave other namespaces alone; on both stores, past one statement's
// thousand.
func TestGrantsDelete(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s := storage.Scope{NS: storage.NamespaceOf("k1"), Permissions: rotatingCodec{}}
		other := storage.Scope{NS: storage.NamespaceOf("k2"), Permissions: rotatingCodec{}}
		for _, sc := range []storage.Scope{s, other} {
			if _, err := storage.AddRole(ctx, db, sc, "r", ""); err != nil {
				t.Fatal(err)
			}
			if _, err := (storage.Grants{{Role: "r", Name: "a"}, {Role: "r", Name: "keep"}}).Add(ctx, db, sc); err != nil {
				t.Fatal(err)
			}
		}
		// "b" stored under the previous key's form.
		if _, err := db.NewRaw("INSERT INTO rolegate_permissions (ns, role, name) VALUES (?, 'r', 'old:b')", s.NS).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		revokes := storage.Grants{{Role: "r", Name: "a"}, {Role: "r", Name: "a"}, {Role: "ghost", Name: "a"}, {Role: "r", Name: "b"}, {Role: "r", Name: "none"}}
		for i := range 1500 { // past one statement
			revokes = append(revokes, storage.Grant{Role: "r", Name: "absent-" + strconv.Itoa(i)})
		}
		deleted, err := revokes.Delete(ctx, db, s)
		if err != nil {
			t.Fatal(err)
		}
		if want := []bool{true, false, false, true, false}; !slices.Equal(deleted[:5], want) || slices.Contains(deleted[5:], true) {
			t.Errorf("deleted = %v..., want %v and no other", deleted[:5], want)
		}
		for _, c := range []struct {
			sc   storage.Scope
			want []string
		}{{s, []string{"keep"}}, {other, []string{"a", "keep"}}} {
			perms, err := storage.Names(ctx, db, c.sc, storage.PermissionsOfRole, "r")
			if err != nil || !slices.Equal(perms, c.want) {
				t.Errorf("namespace %.8s: r holds %v (%v), want %v", c.sc.NS, perms, err, c.want)
			}
		}
	})
}
