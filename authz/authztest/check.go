package authztest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rolegate/rolegate/authz"
	"github.com/rolegate/rolegate/middleware"
)

// Result is one case checked.
type Result struct {
	Case authz.PolicyCase
	// Got is the answer the store gave.
	Got bool
	// Why explains the answer (filled for failed cases, and by Explain):
	// the membership and inheritance chain that grants, or what the user
	// holds where and which roles would grant.
	Why string
	// Grant is the path that grants, when Got is true and Why is filled.
	Grant *authz.Grant
}

// Failed reports whether the answer is not the expected one.
func (r Result) Failed() bool { return r.Got != r.Case.Allow }

// String is the result in a few lines: the case, its fields, the expected
// and the given answer, and why.
func (r Result) String() string { return r.Format("") }

// Format is String with where the case is written ("cases.yaml:12")
// after its status.
func (r Result) Format(where string) string {
	var b strings.Builder
	status := "ok"
	if r.Failed() {
		status = "FAIL"
	}
	if where != "" {
		status += " " + where
	}
	fmt.Fprintf(&b, "%s: %s\n", status, r.Case.Title())
	scope := r.Case.Scope
	if scope == "" {
		scope = "(global)"
	}
	fmt.Fprintf(&b, "  user: %s  permission: %s  scope: %s\n", r.Case.User, r.Case.Permission, scope)
	fmt.Fprintf(&b, "  expected: %s  got: %s\n", word(r.Case.Allow), word(r.Got))
	if r.Why != "" {
		fmt.Fprintf(&b, "  why: %s\n", r.Why)
	}
	return b.String()
}

func word(allow bool) string {
	if allow {
		return "allow"
	}
	return "deny"
}

// Check answers every case from the store, in order, and explains the
// ones that fail. An error means the store could not answer.
func (s *Store) Check(ctx context.Context, cases []authz.PolicyCase) ([]Result, error) {
	out := make([]Result, len(cases))
	for i, tc := range cases {
		got, err := s.answer(ctx, tc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tc.Title(), err)
		}
		out[i] = Result{Case: tc, Got: got}
		if out[i].Failed() {
			if out[i], err = s.Explain(ctx, tc); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func (s *Store) answer(ctx context.Context, tc authz.PolicyCase) (bool, error) {
	user, perm := middleware.NormalizeName(tc.User), middleware.NormalizeName(tc.Permission)
	if tc.Scope == "" {
		return s.Client.UserHasPermission(ctx, user, perm)
	}
	return s.Client.UserHasPermissionIn(ctx, middleware.NormalizeName(tc.Scope), user, perm)
}

// Explain answers one case and says why.
func (s *Store) Explain(ctx context.Context, tc authz.PolicyCase) (Result, error) {
	got, err := s.answer(ctx, tc)
	if err != nil {
		return Result{}, err
	}
	r := Result{Case: tc, Got: got}
	user, perm, scope := middleware.NormalizeName(tc.User), middleware.NormalizeName(tc.Permission), middleware.NormalizeName(tc.Scope)
	if got {
		if scope == "" {
			r.Grant, err = s.Client.ExplainPermission(ctx, user, perm)
		} else {
			r.Grant, err = s.Client.ExplainPermissionIn(ctx, scope, user, perm)
		}
		if err != nil {
			return Result{}, err
		}
		r.Why = grantWhy(user, perm, r.Grant)
		return r, nil
	}
	r.Why, err = s.denyWhy(ctx, user, perm, scope)
	return r, err
}

// grantWhy is the chain that grants, as a sentence.
func grantWhy(user, perm string, g *authz.Grant) string {
	if g == nil {
		return "allowed, with no path found (a change between the answer and its explanation?)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s is a member of %s %s", user, g.Membership, where(g.Scope))
	for _, r := range g.Chain[1:] {
		fmt.Fprintf(&b, ", which inherits %s", r)
	}
	fmt.Fprintf(&b, ", which is granted %s", perm)
	return b.String()
}

func where(scope string) string {
	if scope == "" {
		return "(global)"
	}
	return "in " + scope
}

// denyWhy says what the user holds where the check looked, which roles
// would grant, and where else the user holds the permission.
func (s *Store) denyWhy(ctx context.Context, user, perm, scope string) (string, error) {
	var held []string
	if scope == "" {
		roles, err := s.Client.GetUserRoles(ctx, user)
		if err != nil {
			return "", err
		}
		for _, r := range roles {
			held = append(held, r+" (global)")
		}
	} else {
		roles, err := s.Client.GetUserRolesIn(ctx, scope, user)
		if err != nil {
			return "", err
		}
		for _, r := range roles {
			held = append(held, r.Role+" "+where(r.Scope))
		}
	}
	granting, err := s.Client.WhichRolesCan(ctx, perm)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	switch {
	case len(held) == 0 && scope == "":
		fmt.Fprintf(&b, "%s holds no global membership", user)
	case len(held) == 0:
		fmt.Fprintf(&b, "%s holds no membership that counts in %s (global or in %s)", user, scope, scope)
	default:
		fmt.Fprintf(&b, "%s is a member of %s; none of these roles holds %s", user, strings.Join(held, ", "), perm)
	}
	if len(granting) == 0 {
		fmt.Fprintf(&b, "; no role holds %s", perm)
	} else {
		fmt.Fprintf(&b, "; roles holding %s: %s", perm, list(granting, 10))
	}
	if elsewhere := s.elsewhere(user, scope, granting); len(elsewhere) > 0 {
		fmt.Fprintf(&b, "; %s holds it %s", user, strings.Join(elsewhere, ", "))
	}
	return b.String(), nil
}

// elsewhere lists the scoped memberships of the policy through which the
// user holds the permission in another scope than the one asked.
func (s *Store) elsewhere(user, scope string, granting []string) []string {
	var out []string
	for _, m := range s.Policy.Memberships {
		if m.User == user && m.Scope != "" && m.Scope != scope {
			if _, ok := slices.BinarySearch(granting, m.Role); ok {
				out = append(out, "in "+m.Scope+" (through "+m.Role+")")
			}
		}
	}
	if len(out) > 10 {
		out = append(out[:10], fmt.Sprintf("and %d more scopes", len(out)-10))
	}
	return out
}

func list(v []string, max int) string {
	if len(v) <= max {
		return strings.Join(v, ", ")
	}
	return strings.Join(v[:max], ", ") + fmt.Sprintf(" and %d more", len(v)-max)
}

// Cases checks every case and reports each that fails on t, with why.
func (s *Store) Cases(t T, cases []authz.PolicyCase) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	results, err := s.Check(ctx, cases)
	if err != nil {
		t.Fatalf("authztest: %v", err)
	}
	for _, r := range results {
		if r.Failed() {
			t.Errorf("%s", caseReport(r))
		}
	}
}

func caseReport(r Result) string {
	if r.Case.Line > 0 {
		return r.Format(fmt.Sprintf("line %d", r.Case.Line))
	}
	return r.String()
}

// Allow asserts that user holds permission globally.
func (s *Store) Allow(t T, user, permission string) {
	t.Helper()
	s.assert(t, authz.PolicyCase{User: user, Permission: permission, Allow: true})
}

// Deny asserts that user does not hold permission globally.
func (s *Store) Deny(t T, user, permission string) {
	t.Helper()
	s.assert(t, authz.PolicyCase{User: user, Permission: permission})
}

// AllowIn asserts that user holds permission in scope.
func (s *Store) AllowIn(t T, scope, user, permission string) {
	t.Helper()
	s.assert(t, authz.PolicyCase{User: user, Permission: permission, Scope: scope, Allow: true})
}

// DenyIn asserts that user does not hold permission in scope.
func (s *Store) DenyIn(t T, scope, user, permission string) {
	t.Helper()
	s.assert(t, authz.PolicyCase{User: user, Permission: permission, Scope: scope})
}

func (s *Store) assert(t T, tc authz.PolicyCase) {
	t.Helper()
	s.Cases(t, []authz.PolicyCase{tc})
}
