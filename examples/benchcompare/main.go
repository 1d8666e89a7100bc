// Command benchcompare measures rolegate against Casbin's plain, cached and
// synced cached enforcers on the workloads of issue 4, and shows what each
// answers after a revoke. It prints Markdown.
//
//	cd examples/benchcompare && go run .                       # small, medium
//	cd examples/benchcompare && go run . -sizes small,medium,large
//
// For each size and engine it reports the load time, the Go heap held after
// the load (runtime.ReadMemStats after runtime.GC), and the check time and
// allocations per check over the 512 fixed checks (testing.Benchmark).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func main() {
	testing.Init() // testing.Benchmark reads the testing package's flags
	sizesFlag := flag.String("sizes", "small,medium", "comma-separated workloads: small, medium, large")
	enginesFlag := flag.String("engines", strings.Join(engineNames, ","), "comma-separated engines")
	benchtime := flag.String("benchtime", "1s", "time (or Nx iterations) per check benchmark")
	slowBenchtime := flag.String("casbin-large-benchtime", "32x", "benchtime for Casbin's plain enforcer at the large size, whose checks take tens to hundreds of ms: a cap on its run (32x: the first 32 of the 512 checks, half allowed, half denied)")
	apiLoad := flag.String("api-load", "small", "comma-separated workloads to also load through rolegate's library API (one transaction per write); empty for none")
	flag.Parse()

	var run []size
	for _, n := range splitComma(*sizesFlag) {
		s, ok := sizeByName(n)
		if !ok {
			fail(fmt.Errorf("unknown size %q (small, medium, large)", n))
		}
		run = append(run, s)
	}
	engines := splitComma(*enginesFlag)

	fmt.Printf("# rolegate vs Casbin\n\n")
	fmt.Printf("%s, %s %s/%s, GOMAXPROCS=%d, benchtime %s (Casbin plain enforcer at large: %s)\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.Version(), runtime.GOOS, runtime.GOARCH,
		runtime.GOMAXPROCS(0), *benchtime, *slowBenchtime)

	fmt.Println("| size | engine | load | Go heap after load (MiB) | check ns/op | B/op | allocs/op | iterations |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	var notes []string
	for _, s := range run {
		w := makeWorkload(s)
		for _, name := range engines {
			dir, err := os.MkdirTemp("", "benchcompare-")
			if err != nil {
				fail(err)
			}
			l, err := open(name, w, dir)
			if err != nil {
				os.RemoveAll(dir)
				fail(err)
			}
			bt := *benchtime
			if name == "casbin" && s.name == "large" {
				bt = *slowBenchtime
			}
			if err := flag.Set("test.benchtime", bt); err != nil {
				fail(err)
			}
			r := testing.Benchmark(func(b *testing.B) { benchChecks(b, l.engine, w) })
			fmt.Printf("| %s | %s | %s | %.1f | %s | %d | %d | %d |\n", s.name, name, round(l.load),
				float64(l.heap)/(1<<20), nsPerOp(r), r.AllocedBytesPerOp(), r.AllocsPerOp(), r.N)
			if l.diskSize > 0 {
				notes = append(notes, fmt.Sprintf("rolegate %s: SQLite file %.1f MiB on disk", s.name, float64(l.diskSize)/(1<<20)))
			}
			if r.N < len(w.checks) {
				notes = append(notes, fmt.Sprintf("%s %s: %d iterations cover only the first %d of the 512 checks", name, s.name, r.N, r.N))
			}
			l.Close()
			os.RemoveAll(dir)
		}
	}
	fmt.Println()
	fmt.Println("Load: rolegate writes the workload into a fresh SQLite file in one transaction through the exported storage functions (the rows the library API writes, without its per-write transaction and audit record); Casbin takes it in memory through AddPolicies and AddGroupingPolicies. Heap: Go heap (HeapAlloc after GC) held after the load and one warm-up pass of the 512 checks, minus the same before; SQLite's own page cache (modernc.org/sqlite allocates outside the Go heap) and the file are not in it.")
	for _, n := range notes {
		fmt.Println("-", n)
	}

	if apis := splitComma(*apiLoad); len(apis) > 0 {
		fmt.Printf("\n## rolegate loaded through the library API\n\nOne AddRole, AddPermission or AddMembership call per row: one transaction and one audit record each.\n\n")
		fmt.Println("| size | writes | load | per write |")
		fmt.Println("|---|---:|---:|---:|")
		for _, n := range apis {
			s, ok := sizeByName(n)
			if !ok {
				fail(fmt.Errorf("unknown size %q", n))
			}
			w := makeWorkload(s)
			dir, err := os.MkdirTemp("", "benchcompare-")
			if err != nil {
				fail(err)
			}
			e, d, err := loadRolegateAPI(w, dir)
			if err != nil {
				os.RemoveAll(dir)
				fail(err)
			}
			writes := s.roles + 10*s.roles + 2*s.users
			fmt.Printf("| %s | %d | %s | %s |\n", s.name, writes, round(d), round(d/time.Duration(writes)))
			e.Close()
			os.RemoveAll(dir)
		}
	}

	fmt.Printf("\n## After a revoke\n\n")
	fmt.Printf("Grant %s to %s, put %s in it, check (allow), revoke the way an app that does not know about caches would (grant: rolegate DelPermission, Casbin RemovePolicy; membership: rolegate DelMembership, Casbin RemoveGroupingPolicy; on the same enforcer), check again. Casbin's cached enforcers are then asked once more after an explicit InvalidateCache.\n\n", demoPerm, demoRole, demoUser)
	dir, err := os.MkdirTemp("", "benchcompare-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	steps, err := revokeDemo(dir)
	if err != nil {
		fail(err)
	}
	fmt.Println("| revoked | engine | before revoke | after revoke | right? | after InvalidateCache |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, st := range steps {
		right := "yes"
		if st.afterRevoke || !st.before {
			right = "**no**"
		}
		if st.revokeErr != nil || st.checkErrs != nil {
			right = fmt.Sprintf("error: %v %v", st.revokeErr, st.checkErrs)
		}
		inv := "n/a"
		if st.invalidated {
			inv = allow(st.afterInvalidate)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s |\n", st.revoke, st.engine, allow(st.before), allow(st.afterRevoke), right, inv)
	}
}

// benchChecks cycles through the 512 checks (already warmed by open).
func benchChecks(b *testing.B, e engine, w *workload) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ck := &w.checks[i&511]
		if ok, err := e.Check(ck.user, ck.perm); err != nil || ok != ck.want {
			b.Fatalf("%s %s = %v, %v; want %v", ck.user, ck.perm, ok, err, ck.want)
		}
		i++
	}
}

func allow(b bool) string {
	if b {
		return "allow"
	}
	return "deny"
}

func nsPerOp(r testing.BenchmarkResult) string {
	if r.N == 0 {
		return "n/a"
	}
	ns := float64(r.T.Nanoseconds()) / float64(r.N)
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.0f (%.1f ms)", ns, ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.0f (%.1f µs)", ns, ns/1e3)
	}
	return fmt.Sprintf("%.1f", ns)
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

func splitComma(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchcompare:", err)
	os.Exit(1)
}
