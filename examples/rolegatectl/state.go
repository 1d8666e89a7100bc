package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/rolegate/rolegate/authz"
)

// stateOptions say what readState reads besides roles and grants.
type stateOptions struct {
	// memberships: read the memberships too, global and scoped, in every
	// scope (GET /api/scoped_memberships). A server that has scopes but
	// not that route is refused, since the state read would miss the
	// scopes nobody named: a backup would be partial, an apply would
	// leave stale memberships.
	memberships bool
	// scopes, for a caller that only adds (import): against a server
	// without GET /api/scoped_memberships, read the memberships of these
	// scopes one scope at a time instead of refusing.
	scopes  []string
	addOnly bool
}

// readState reads a client's state over the REST API as a policy: roles
// with descriptions and grants, inheritance when the server has it, and
// memberships when asked.
func readState(ctx context.Context, a *api, opt stateOptions) (authz.Policy, error) {
	rows, err := a.list(ctx, "/api/roles", "role", nil)
	if err != nil {
		return authz.Policy{}, err
	}
	inherit, err := a.has(ctx, featureInheritance)
	if err != nil {
		return authz.Policy{}, err
	}
	p := authz.Policy{Version: authz.PolicyVersion, Roles: []authz.PolicyRole{}}
	var perScope []string // scopes read per role (older servers, add-only callers)
	if opt.memberships {
		p.ManageMemberships, p.Memberships = true, []authz.PolicyMembership{}
		all, err := readScopedMemberships(ctx, a, opt)
		switch {
		case err != nil:
			return authz.Policy{}, err
		case all == nil:
			perScope = opt.scopes
		default:
			p.Memberships = append(p.Memberships, all...)
		}
	}
	for _, r := range rows {
		name, _ := r["role"].(string)
		desc, _ := r["description"].(string)
		role := authz.PolicyRole{Name: name, Description: desc}
		grants, err := a.list(ctx, "/api/role_permissions/"+seg(name), "name", nil)
		if err != nil {
			return authz.Policy{}, err
		}
		for _, r := range grants {
			perm, _ := r["name"].(string)
			if from, until, err := rowBounds(r); err != nil {
				return authz.Policy{}, err
			} else if !from.IsZero() || !until.IsZero() {
				role.TimedPermissions = append(role.TimedPermissions, authz.PolicyGrant{Name: perm, From: from, Until: until})
			} else {
				role.Permissions = append(role.Permissions, perm)
			}
		}
		if inherit {
			if role.Inherits, err = a.names(ctx, "/api/role/"+seg(name)+"/inherits", "role", nil); err != nil {
				return authz.Policy{}, err
			}
		}
		p.Roles = append(p.Roles, role)
		if !opt.memberships {
			continue
		}
		users, err := a.list(ctx, "/api/members/"+seg(name), "user", nil)
		if err != nil {
			return authz.Policy{}, err
		}
		for _, r := range users {
			u, _ := r["user"].(string)
			from, until, err := rowBounds(r)
			if err != nil {
				return authz.Policy{}, err
			}
			p.Memberships = append(p.Memberships, authz.PolicyMembership{User: u, Role: name, From: from, Until: until})
		}
		for _, s := range perScope {
			ms, err := a.list(ctx, "/api/members/"+seg(name), "user", url.Values{"scope": {s}})
			if err != nil {
				return authz.Policy{}, err
			}
			for _, m := range ms {
				// Global members are listed in every scope; keep the
				// entries held in this scope only.
				if u, _ := m["user"].(string); m["scope"] == s {
					p.Memberships = append(p.Memberships, authz.PolicyMembership{User: u, Role: name, Scope: s})
				}
			}
		}
	}
	p.Normalize()
	return p, nil
}

// rowBounds reads a list entry's starts_at and expires_at (zero when
// absent: a server without time bounds lists none).
func rowBounds(r map[string]any) (from, until time.Time, err error) {
	for _, f := range []struct {
		key string
		to  *time.Time
	}{{"starts_at", &from}, {"expires_at", &until}} {
		s, ok := r[f.key].(string)
		if !ok {
			continue
		}
		if *f.to, err = time.Parse(time.RFC3339Nano, s); err != nil {
			return time.Time{}, time.Time{}, fmt.Errorf("the server listed %s %q: %w", f.key, s, err)
		}
	}
	return from, until, nil
}

// readScopedMemberships reads every scoped membership of the namespace
// through GET /api/scoped_memberships, paged with its scope/user/role
// cursor. It answers an empty, non-nil list when the server has no scopes
// (no scoped membership can exist), nil when an add-only caller may fall
// back to per-scope reads, and refuses (exit 1) otherwise.
func readScopedMemberships(ctx context.Context, a *api, opt stateOptions) ([]authz.PolicyMembership, error) {
	if ok, err := a.has(ctx, featureScopes); err != nil || !ok {
		return []authz.PolicyMembership{}, err
	}
	if ok, err := a.has(ctx, featureScopedList); err != nil {
		return nil, err
	} else if !ok {
		if opt.addOnly {
			return nil, nil
		}
		return nil, a.requireFeature(ctx, featureScopedList)
	}
	out := []authz.PolicyMembership{}
	after := ""
	for {
		q := url.Values{"limit": {fmt.Sprint(pageSize)}}
		if after != "" {
			q.Set("after", after)
		}
		var page []authz.PolicyMembership
		if err := a.get(ctx, "/api/scoped_memberships", q, &page); err != nil {
			return nil, err
		}
		out = append(out, page...)
		if len(page) < pageSize {
			return out, nil
		}
		last := page[len(page)-1]
		next := last.Scope + "/" + last.User + "/" + last.Role
		if last.Scope == "" || next == after {
			return out, nil // a server that does not page: stop rather than loop
		}
		after = next
	}
}

// batch runs operations through POST /api/batch, in one transaction on
// the server.
func (a *api) batch(ctx context.Context, ops []authz.Operation) ([]authz.OpResult, error) {
	var out struct {
		Results []authz.OpResult `json:"results"`
	}
	_, err := a.send(ctx, http.MethodPost, "/api/batch", nil, map[string]any{"operations": ops}, &out)
	return out.Results, err
}

// batchStream runs operations through POST /api/batch/stream, one JSON
// object a line, encoded as they are sent: in one transaction on the
// server, past what one POST /api/batch holds.
func (a *api) batchStream(ctx context.Context, ops []authz.Operation) error {
	pr, pw := io.Pipe()
	go func() {
		bw := bufio.NewWriterSize(pw, 64<<10)
		enc := json.NewEncoder(bw)
		for _, op := range ops {
			if err := enc.Encode(op); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(bw.Flush())
	}()
	defer pr.Close()
	_, err := a.send(ctx, http.MethodPost, "/api/batch/stream", nil, rawBody{r: pr, contentType: "application/x-ndjson"}, nil)
	return err
}

// checkPlanFeatures makes sure the server can run every operation of a
// plan before any is sent.
func checkPlanFeatures(ctx context.Context, a *api, ops []authz.Operation) error {
	if err := a.requireFeature(ctx, featureBatch); err != nil {
		return err
	}
	for _, op := range ops {
		switch {
		case op.Op == "add_inheritance" || op.Op == "del_inheritance":
			if err := a.requireFeature(ctx, featureInheritance); err != nil {
				return err
			}
		case op.Scope != "":
			if err := a.requireFeature(ctx, featureScopes); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyPlan sends the plan in one batch (or reports there is nothing to
// do) and checks that every operation changed what it was meant to.
func applyPlan(ctx context.Context, a *api, ops []authz.Operation) error {
	if len(ops) == 0 {
		return nil
	}
	if len(ops) > authz.MaxStreamOperations {
		return usageErr("%d changes: more than one streamed batch holds (%d)", len(ops), authz.MaxStreamOperations)
	}
	if err := checkPlanFeatures(ctx, a, ops); err != nil {
		return err
	}
	if len(ops) > authz.MaxBatchOperations {
		// Past one batch: streamed, still one transaction (all or nothing).
		if err := a.requireFeature(ctx, featureBatchStream); err != nil {
			return err
		}
		return a.batchStream(ctx, ops)
	}
	_, err := a.batch(ctx, ops)
	return err
}

// scopesOf lists the scopes a policy's memberships name.
func scopesOf(p authz.Policy) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range p.Memberships {
		if m.Scope != "" && !seen[m.Scope] {
			seen[m.Scope] = true
			out = append(out, m.Scope)
		}
	}
	return out
}
