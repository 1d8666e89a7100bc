package storage_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/cipher"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// countNames are names at the edges of byte order: case, accents, a
// character with no successor (U+10FFFF) and one whose successor is a
// surrogate (U+D7FF).
var countNames = []string{"b", "B", "a", "Z", "é", "e", "ä", "日", "e-1", "e1", "e\U0010FFFF", "e\U0010FFFFx",
	"\U0010FFFF", "\U0010FFFFa", "x\uD7FF", "x\uD7FFa", "x\uE000", "f"}

// countPrefixes are the prefixes TestListCount asks for.
var countPrefixes = []string{"", "e", "e-", "é", "e\U0010FFFF", "\U0010FFFF", "x\uD7FF", "x", "B", "日", "zz", "s"}

// TestListCount: List.Count counts what the list holds, narrowed by a
// prefix exactly as strings.HasPrefix would, for roles and for users
// (global and scoped memberships, each user once), plain and encrypted,
// and never another namespace's rows.
func TestListCount(t *testing.T) {
	c, err := cipher.New("list count test passphrase")
	if err != nil {
		t.Fatal(err)
	}
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		if storage.IsPostgres(db) {
			if storage.SortsAsBytes(ctx, db) {
				storage.SetBytewise(db, true)
				checkCounts(t, db, c, "own collation")
			}
			storage.SetBytewise(db, false)
			checkCounts(t, db, c, "collate C")
			return
		}
		checkCounts(t, db, c, "")
	})
}

func checkCounts(t *testing.T, db *bun.DB, c *cipher.Cipher, mode string) {
	t.Helper()
	ctx := context.Background()
	must := func(_ bool, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	enc := func(name string) storage.Scope {
		return storage.Scope{NS: storage.NamespaceOf(name + mode), Users: c.ForColumn([]byte(name), cipher.ColumnUser, 2),
			Permissions: c.ForColumn([]byte(name), cipher.ColumnPermission, 2)}
	}
	for _, pair := range [][2]storage.Scope{
		{{NS: storage.NamespaceOf("plain" + mode)}, {NS: storage.NamespaceOf("plain other" + mode)}},
		{enc("enc"), enc("enc other")},
	} {
		s, other := pair[0], pair[1]
		// The other namespace holds names under every prefix asked for.
		for _, p := range countPrefixes {
			must(storage.AddRole(ctx, db, other, p+"other", ""))
			must(storage.AddMembership(ctx, db, other, "", p+"other", p+"other"))
			must(storage.AddMembership(ctx, db, other, "org", p+"scoped other", p+"other"))
		}
		must(storage.AddRole(ctx, db, s, "r", ""))
		must(storage.AddRole(ctx, db, s, "s", ""))
		for i, n := range countNames {
			must(storage.AddRole(ctx, db, s, n, ""))
			must(storage.AddMembership(ctx, db, s, "", n, "r"))
			if i%3 == 0 { // also a member of another role, and in a scope
				must(storage.AddMembership(ctx, db, s, "", n, "s"))
				must(storage.AddMembership(ctx, db, s, "org", n, "r"))
			}
		}
		must(storage.AddMembership(ctx, db, s, "org", "scoped only", "r"))
		must(storage.AddMembership(ctx, db, s, "org-2", "scoped only", "s"))
		must(storage.AddMembership(ctx, db, s, "org", "e scoped only", "r"))
		roles := append([]string{"r", "s"}, countNames...)
		users := append([]string{"scoped only", "e scoped only"}, countNames...)
		model := func(names []string, p string) int {
			n := 0
			for _, v := range names {
				if strings.HasPrefix(v, p) {
					n++
				}
			}
			return n
		}
		for _, p := range countPrefixes {
			for _, l := range []struct {
				list  storage.List
				names []string
			}{{storage.Roles, roles}, {storage.UsersWithMembership, users}} {
				got, err := l.list.Count(ctx, db, s, p)
				if want := model(l.names, p); err != nil || got != want {
					t.Errorf("%s (encrypted %v, %s): Count(%v, %q) = %d, %v; want %d",
						db.Dialect().Name(), s.Users != nil, mode, l.list, p, got, err, want)
				}
			}
		}
		// The list itself agrees, with no prefix.
		all, err := storage.Names(ctx, db, s, storage.UsersWithMembership, "")
		if n, cerr := storage.UsersWithMembership.Count(ctx, db, s, ""); err != nil || cerr != nil || n != len(all) {
			t.Errorf("users: Count %d, %v; the list holds %d (%v)", n, cerr, len(all), err)
		}
		if n, err := storage.Roles.Count(ctx, db, s, "\xff"); err != nil || n != 0 {
			t.Errorf("Count with an invalid prefix = %d, %v; want 0", n, err)
		}
	}
	if _, err := storage.MembersOfRole.Count(ctx, db, storage.Scope{NS: storage.NamespaceOf("plain" + mode)}, ""); err == nil {
		t.Error("Count of a role's members: no error")
	}
}

// TestPrefixEnd: the end of a prefix's range is above every string that
// starts with it and at or below every greater string that does not.
func TestPrefixEnd(t *testing.T) {
	for _, c := range []struct {
		p, end string
		ok     bool
	}{
		{"", "", false},
		{"a", "b", true},
		{"ab", "ac", true},
		{"a\U0010FFFF", "b", true},
		{"a\U0010FFFF\U0010FFFF", "b", true},
		{"\U0010FFFF", "", false},
		{"x\uD7FF", "x\uE000", true},
		{"é", "ê", true},
		{"\u007F", "\u0080", true},
	} {
		end, ok := storage.PrefixEnd(c.p)
		if end != c.end || ok != c.ok {
			t.Errorf("PrefixEnd(%q) = %q, %v; want %q, %v", c.p, end, ok, c.end, c.ok)
		}
		if ok && !utf8.ValidString(end) {
			t.Errorf("PrefixEnd(%q) = %q: not valid UTF-8", c.p, end)
		}
	}
	// Against a sorted sample: the strings in [p, end) are exactly those
	// that start with p.
	sample := append(slices.Clone(countNames), "e0", "e.", "d\U0010FFFF", "ea", "e-", "x\uD7FE", "x\uFFFF", "y")
	slices.Sort(sample)
	for _, p := range countPrefixes[1:] {
		end, ok := storage.PrefixEnd(p)
		for _, v := range sample {
			in := v >= p && (!ok || v < end)
			if in != strings.HasPrefix(v, p) {
				t.Errorf("prefix %q, end %q: %q in range %v", p, end, v, in)
			}
		}
	}
}
