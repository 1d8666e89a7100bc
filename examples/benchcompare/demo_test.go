package main

import (
	"testing"
)

// TestRevokeDemo asserts rolegate's side of the demonstration: allow before
// the revoke, deny right after it. Casbin's answers are logged, not
// asserted: they are what the demonstration reports.
func TestRevokeDemo(t *testing.T) {
	steps, err := revokeDemo(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != len(engineNames)*len(revokeKinds) {
		t.Fatalf("got %d steps, want %d", len(steps), len(engineNames)*len(revokeKinds))
	}
	for _, st := range steps {
		if st.revokeErr != nil || st.checkErrs != nil {
			t.Errorf("%s: revoke %v, checks %v", st.engine, st.revokeErr, st.checkErrs)
		}
		t.Logf("%s revoked, %s: before revoke %v, after revoke %v (invalidated %v: %v)", st.revoke, st.engine, st.before, st.afterRevoke, st.invalidated, st.afterInvalidate)
		if st.engine == "rolegate" && (!st.before || st.afterRevoke) {
			t.Errorf("rolegate, %s revoked: before %v, after revoke %v; want allow then deny", st.revoke, st.before, st.afterRevoke)
		}
	}
	if steps[0].engine != "rolegate" || steps[len(engineNames)].engine != "rolegate" {
		t.Errorf("rolegate missing from the demonstration")
	}
}

// TestWorkloadSmall loads the small workload into every engine; open
// verifies all 512 answers, so the engines agree with the workload's
// expectations and with each other.
func TestWorkloadSmall(t *testing.T) {
	w := makeWorkload(sizes[0])
	if len(w.checks) != 512 {
		t.Fatalf("%d checks, want 512", len(w.checks))
	}
	for i, ck := range w.checks {
		if ck.want != (i%2 == 0) {
			t.Fatalf("check %d want %v: not alternating", i, ck.want)
		}
	}
	for _, name := range engineNames {
		l, err := open(name, w, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
	}
}
