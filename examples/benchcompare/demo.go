package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// revokeStep is one engine's answers in the correctness demonstration.
type revokeStep struct {
	engine               string
	revoke               string // what was revoked: "grant" or "membership"
	before, afterRevoke  bool
	invalidated          bool // Casbin cached enforcers: InvalidateCache was called, and then...
	afterInvalidate      bool // ...this was the answer
	revokeErr, checkErrs error
}

// revokeKinds are the two revokes the demonstration makes: the role's
// grant of the permission, and the user's membership of the role.
var revokeKinds = []string{"grant", "membership"}

// Demonstration names: a role, a permission and a user that the workloads
// do not contain.
const (
	demoUser = "demo-user"
	demoRole = "demo-role"
	demoPerm = "demo-perm"
)

// revokeDemo grants demoPerm to demoRole and puts demoUser in it, checks
// (allow), revokes the grant or the membership the way an app that knows
// nothing about caches would (rolegate: DelPermission or DelMembership;
// Casbin: RemovePolicy or RemoveGroupingPolicy on the same enforcer), and
// checks again; a Casbin cached enforcer is then asked once more after
// InvalidateCache. It reports what each engine answered; it asserts
// nothing.
func revokeDemo(dir string) ([]revokeStep, error) {
	var out []revokeStep
	for i, kind := range revokeKinds {
		steps, err := revokeDemoOne(filepath.Join(dir, fmt.Sprint(i)), kind)
		if err != nil {
			return nil, err
		}
		out = append(out, steps...)
	}
	return out, nil
}

func revokeDemoOne(dir, kind string) ([]revokeStep, error) {
	var out []revokeStep
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	rg, err := openRolegateEmpty(dir)
	if err != nil {
		return nil, err
	}
	defer rg.Close()
	st := revokeStep{engine: "rolegate", revoke: kind}
	if _, err := rg.c.AddRole(bg, demoRole, ""); err != nil {
		return nil, err
	}
	if _, err := rg.c.AddPermission(bg, demoRole, demoPerm); err != nil {
		return nil, err
	}
	if _, err := rg.c.AddMembership(bg, demoUser, demoRole); err != nil {
		return nil, err
	}
	var e1, e2 error
	st.before, e1 = rg.Check(demoUser, demoPerm)
	var deleted bool
	if kind == "grant" {
		deleted, st.revokeErr = rg.c.DelPermission(bg, demoRole, demoPerm)
	} else {
		deleted, st.revokeErr = rg.c.DelMembership(bg, demoUser, demoRole)
	}
	if st.revokeErr == nil && !deleted {
		st.revokeErr = fmt.Errorf("nothing was deleted")
	}
	st.afterRevoke, e2 = rg.Check(demoUser, demoPerm)
	st.checkErrs = joinErrs(e1, e2)
	out = append(out, st)

	for _, name := range engineNames[1:] {
		e, err := newCasbin(name)
		if err != nil {
			return nil, err
		}
		st := revokeStep{engine: name, revoke: kind}
		if _, err := e.AddPolicy(demoRole, demoPerm); err != nil {
			return nil, err
		}
		if _, err := e.AddGroupingPolicy(demoUser, demoRole); err != nil {
			return nil, err
		}
		st.before, e1 = e.Enforce(demoUser, demoPerm)
		var removed bool
		if kind == "grant" {
			removed, st.revokeErr = e.RemovePolicy(demoRole, demoPerm)
		} else {
			removed, st.revokeErr = e.RemoveGroupingPolicy(demoUser, demoRole)
		}
		if st.revokeErr == nil && !removed {
			st.revokeErr = fmt.Errorf("nothing was removed")
		}
		st.afterRevoke, e2 = e.Enforce(demoUser, demoPerm)
		var e3 error
		if inv, ok := e.(interface{ InvalidateCache() error }); ok {
			if e3 = inv.InvalidateCache(); e3 == nil {
				st.invalidated = true
				st.afterInvalidate, e3 = e.Enforce(demoUser, demoPerm)
			}
		}
		st.checkErrs = joinErrs(e1, e2, e3)
		out = append(out, st)
	}
	return out, nil
}

func joinErrs(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
