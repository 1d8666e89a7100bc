package main

import (
	"fmt"
)

// revokeStep is one engine's answers in the correctness demonstration.
type revokeStep struct {
	engine               string
	before, afterRevoke  bool
	revokeErr, checkErrs error
}

// Demonstration names: a role, a permission and a user that the workloads
// do not contain.
const (
	demoUser = "demo-user"
	demoRole = "demo-role"
	demoPerm = "demo-perm"
)

// revokeDemo grants demoPerm to demoRole and puts demoUser in it, checks
// (allow), revokes the grant the way an app that knows nothing about
// caches would (rolegate: DelPermission; Casbin: RemovePolicy on the
// enforcer), and checks again. It reports what each engine answered; it
// asserts nothing.
func revokeDemo(dir string) ([]revokeStep, error) {
	var out []revokeStep

	rg, err := openRolegateEmpty(dir)
	if err != nil {
		return nil, err
	}
	defer rg.Close()
	st := revokeStep{engine: "rolegate"}
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
	_, st.revokeErr = rg.c.DelPermission(bg, demoRole, demoPerm)
	st.afterRevoke, e2 = rg.Check(demoUser, demoPerm)
	st.checkErrs = joinErrs(e1, e2)
	out = append(out, st)

	for _, kind := range engineNames[1:] {
		e, err := newCasbin(kind)
		if err != nil {
			return nil, err
		}
		st := revokeStep{engine: kind}
		if _, err := e.AddPolicy(demoRole, demoPerm); err != nil {
			return nil, err
		}
		if _, err := e.AddGroupingPolicy(demoUser, demoRole); err != nil {
			return nil, err
		}
		st.before, e1 = e.Enforce(demoUser, demoPerm)
		var removed bool
		removed, st.revokeErr = e.RemovePolicy(demoRole, demoPerm)
		if st.revokeErr == nil && !removed {
			st.revokeErr = fmt.Errorf("RemovePolicy removed nothing")
		}
		st.afterRevoke, e2 = e.Enforce(demoUser, demoPerm)
		st.checkErrs = joinErrs(e1, e2)
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
