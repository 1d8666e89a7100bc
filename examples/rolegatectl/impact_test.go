package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// The universe the random edits draw names from.
var (
	edRoles  = []string{"viewer", "editor", "moderator", "auditor", "admin"}
	edPerms  = []string{"read", "edit", "notes.delete", "audit.read", "export"}
	edUsers  = []string{"alice", "bob", "jack", "dave", "erin"}
	edScopes = []string{"org-7", "org-1", "org-2"}
)

// answers is every who-can answer of the universe: user, permission and
// scope ("" global) that holds.
type answers map[authz.Access]bool

// whoCan reads the who-can answers from the library, globally and in each
// scope of the universe.
func whoCan(t *testing.T, c *authz.Client) answers {
	t.Helper()
	ctx := context.Background()
	out := answers{}
	for _, p := range edPerms {
		users, err := c.WhichUsersCan(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range users {
			out[authz.Access{User: u, Permission: p}] = true
		}
		for _, s := range edScopes {
			in, err := c.WhichUsersCanIn(ctx, s, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range in {
				out[authz.Access{User: u.User, Permission: p, Scope: s}] = true
			}
		}
	}
	return out
}

// expectedImpact is the impact by its definition over answers: every
// change of a global answer, and every change in a scope while the global
// answer of that user and permission stays.
func expectedImpact(before, after answers) authz.Impact {
	out := authz.Impact{Gained: []authz.Access{}, Lost: []authz.Access{}}
	for _, u := range edUsers {
		for _, p := range edPerms {
			g := authz.Access{User: u, Permission: p}
			globalChanged := before[g] != after[g]
			for _, s := range append([]string{""}, edScopes...) {
				a := authz.Access{User: u, Permission: p, Scope: s}
				if before[a] == after[a] || s != "" && globalChanged {
					continue
				}
				if after[a] {
					out.Gained = append(out.Gained, a)
				} else {
					out.Lost = append(out.Lost, a)
				}
			}
		}
	}
	sortAccesses := func(v []authz.Access) {
		slices.SortFunc(v, func(a, b authz.Access) int {
			return strings.Compare(a.User+"\x00"+a.Permission+"\x00"+a.Scope, b.User+"\x00"+b.Permission+"\x00"+b.Scope)
		})
	}
	sortAccesses(out.Gained)
	sortAccesses(out.Lost)
	return out
}

// edit changes a policy at random: grants, inheritance links, roles and
// memberships added and removed; sometimes the file leaves memberships
// alone. The result is valid (an edit that would make a cycle is dropped).
func edit(rng *rand.Rand, p authz.Policy) authz.Policy {
	p.Normalize()
	q := authz.Policy{Version: 1, ManageMemberships: true, Memberships: slices.Clone(p.Memberships)}
	for _, r := range p.Roles {
		q.Roles = append(q.Roles, authz.PolicyRole{Name: r.Name, Description: r.Description, Permissions: slices.Clone(r.Permissions), Inherits: slices.Clone(r.Inherits)})
	}
	pick := func(v []string) string { return v[rng.IntN(len(v))] }
	toggle := func(v []string, x string) []string {
		if i := slices.Index(v, x); i >= 0 {
			return slices.Delete(v, i, i+1)
		}
		return append(v, x)
	}
	for range 1 + rng.IntN(4) {
		prev := q
		prev.Roles = slices.Clone(q.Roles)
		switch k := rng.IntN(10); {
		case k < 3 && len(q.Roles) > 0: // a grant added or removed
			r := &q.Roles[rng.IntN(len(q.Roles))]
			r.Permissions = toggle(slices.Clone(r.Permissions), pick(edPerms))
		case k < 5 && len(q.Roles) > 1: // an inheritance link added or removed
			r := &q.Roles[rng.IntN(len(q.Roles))]
			r.Inherits = toggle(slices.Clone(r.Inherits), q.Roles[rng.IntN(len(q.Roles))].Name)
		case k < 6: // a role added or deleted (with its links and memberships)
			name := pick(edRoles)
			if i := slices.IndexFunc(q.Roles, func(r authz.PolicyRole) bool { return r.Name == name }); i >= 0 {
				q.Roles = slices.Delete(q.Roles, i, i+1)
				for j := range q.Roles {
					q.Roles[j].Inherits = slices.DeleteFunc(slices.Clone(q.Roles[j].Inherits), func(s string) bool { return s == name })
				}
				q.Memberships = slices.DeleteFunc(q.Memberships, func(m authz.PolicyMembership) bool { return m.Role == name })
			} else {
				q.Roles = append(q.Roles, authz.PolicyRole{Name: name, Permissions: []string{pick(edPerms)}})
			}
		case len(q.Roles) > 0: // a membership added or removed, global or scoped
			m := authz.PolicyMembership{User: pick(edUsers), Role: q.Roles[rng.IntN(len(q.Roles))].Name}
			if rng.IntN(2) == 0 {
				m.Scope = pick(edScopes)
			}
			if i := slices.Index(q.Memberships, m); i >= 0 {
				q.Memberships = slices.Delete(q.Memberships, i, i+1)
			} else {
				q.Memberships = append(q.Memberships, m)
			}
		}
		if q.Validate() != nil {
			q = prev // a cycle, or a role inheriting itself
		}
	}
	if rng.IntN(4) == 0 {
		// A file without memberships: the store's are kept, less those
		// of the roles it deletes.
		q.Memberships, q.ManageMemberships = nil, false
	}
	q.Normalize()
	return q
}

func policyFile(t *testing.T, name string, p authz.Policy) string {
	t.Helper()
	b, err := authz.MarshalPolicy(p)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, name, string(b))
}

// TestPolicyImpactMatchesWhoCan: from the example policy, over random
// edits, the impact that policy diff --impact lists (against the server,
// and offline --against the previous file) equals the difference of the
// who-can answers before and after applying the edit, on both stores.
func TestPolicyImpactMatchesWhoCan(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := startServer(t, target)
		k := newKey()
		c, err := s.az.Client(k)
		if err != nil {
			t.Fatal(err)
		}
		example, err := os.ReadFile("example-policy.yaml")
		if err != nil {
			t.Fatal(err)
		}
		must(t, 0, s.url, k, "policy", "apply", "-f", "example-policy.yaml", "--yes")
		state, err := authz.ParsePolicy(example)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(36, uint64(len(target.Name))))
		nonEmpty := 0
		for round := range 30 {
			next := edit(rng, state)
			prevFile, nextFile := policyFile(t, "prev.yaml", state), policyFile(t, "next.yaml", next)
			before := whoCan(t, c)
			var online, offline authz.Impact
			jsonOut(t, s.url, k, &online, "policy", "diff", "-f", nextFile, "--impact")
			jsonOut(t, s.url, k, &offline, "policy", "diff", "-f", nextFile, "--against", prevFile, "--impact")
			code := 0
			if !online.Empty() {
				code = 1
				nonEmpty++
			}
			must(t, code, s.url, k, "policy", "diff", "-f", nextFile, "--impact", "--exit-code")
			must(t, 0, s.url, k, "policy", "apply", "-f", nextFile, "--yes")
			want := expectedImpact(before, whoCan(t, c))
			if !reflect.DeepEqual(online, want) {
				t.Fatalf("round %d: impact\n%+v\nwant (who-can before and after)\n%+v\nprev:\n%s\nnext:\n%s", round, online, want, readFileT(t, prevFile), readFileT(t, nextFile))
			}
			if !reflect.DeepEqual(offline, want) {
				t.Fatalf("round %d: offline impact\n%+v\nwant\n%+v", round, offline, want)
			}
			if state, err = c.ExportPolicy(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if nonEmpty < 10 {
			t.Errorf("only %d of 30 edits changed anyone's access: the edits test too little", nonEmpty)
		}
	})
}

// TestPolicyApplyMaxLost: apply prints who gains and loses access, and
// refuses (exit 1, nothing changed) to take away more than --max-lost
// accesses without --yes.
func TestPolicyApplyMaxLost(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		s := startServer(t, target)
		k := newKey()
		var members strings.Builder
		for i := range 12 {
			fmt.Fprintf(&members, "  - {user: user%02d, role: editor}\n", i)
		}
		base := "version: 1\nroles:\n  - {name: editor, permissions: [edit, read]}\nmemberships:\n" + members.String()
		must(t, 0, s.url, k, "policy", "apply", "-f", writeFile(t, "p.yaml", base))
		// Taking edit from 12 users: 12 lost, past the default of 10.
		less := writeFile(t, "less.yaml", strings.Replace(base, "[edit, read]", "[read, export]", 1))
		r := must(t, 1, s.url, k, "policy", "apply", "-f", less)
		for _, want := range []string{"impact: 12 lost, 12 gained", "lost    user00  edit        (global)", "gained  user00  export      (global)"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("summary lacks %q:\n%s", want, r.stdout)
			}
		}
		if !strings.Contains(r.stderr, "12 access(es) would be lost, more than --max-lost 10") || !strings.Contains(r.stderr, "--yes") {
			t.Errorf("refusal: %q", r.stderr)
		}
		must(t, 0, s.url, k, "check", "user03", "edit") // nothing changed
		must(t, 0, s.url, k, "policy", "apply", "-f", less, "--max-lost", "12")
		must(t, 1, s.url, k, "check", "user03", "edit")
		more := writeFile(t, "more.yaml", strings.Replace(base, "[edit, read]", "[edit, read, export]", 1))
		must(t, 0, s.url, k, "policy", "apply", "-f", more, "--max-lost", "0") // gains only
		must(t, 0, s.url, k, "check", "user03", "edit")
		var out struct {
			Applied []authz.Operation `json:"applied"`
			Impact  authz.Impact      `json:"impact"`
		}
		jsonOut(t, s.url, k, &out, "policy", "apply", "-f", less, "--yes")
		if len(out.Applied) != 1 || len(out.Impact.Gained) != 0 || len(out.Impact.Lost) != 12 {
			t.Errorf("apply -o json: %+v", out)
		}
		var dry struct {
			Plan   []authz.Operation `json:"plan"`
			Impact authz.Impact      `json:"impact"`
		}
		jsonOut(t, s.url, k, &dry, "policy", "apply", "-f", writeFile(t, "p.yaml", base), "--dry-run")
		if len(dry.Plan) != 2 || len(dry.Impact.Lost) != 12 {
			t.Errorf("apply --dry-run -o json: %+v", dry)
		}
		b, _ := json.Marshal(dry.Impact.Lost[0])
		if string(b) != `{"user":"user00","permission":"export"}` {
			t.Errorf("an entry in JSON: %s", b)
		}
	})
}
