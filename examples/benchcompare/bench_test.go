package main

import (
	"testing"
)

// BenchmarkCheck measures one check, cycling through the 512 fixed checks
// of each workload, for every engine:
//
//	go test -run '^$' -bench Check -benchmem -count 3
//
// Each sub-benchmark loads its engine once (not timed) and reports, beside
// ns/op and allocs/op, the load's wall time (load-ms) and the Go heap held
// after the load and one warm-up pass (heap-MiB). The large size is
// included; Casbin's plain enforcer takes tens to hundreds of ms per check
// there, and the time-based ramp can overshoot -benchtime by far (30 s per
// run was seen), so select sizes with -bench 'Check/.*/(small|medium)$' or
// run it alone with a count: -bench 'Check/casbin$/' -benchtime 32x (note
// the $: 'Check/casbin/' also matches casbin-cached).
func BenchmarkCheck(b *testing.B) {
	for _, name := range engineNames {
		b.Run(name, func(b *testing.B) {
			for _, s := range sizes {
				w := makeWorkload(s)
				var l *loaded
				b.Run(s.name, func(b *testing.B) {
					if l == nil { // once per sub-benchmark, however many times testing calls it
						var err error
						if l, err = open(name, w, b.TempDir()); err != nil {
							b.Fatal(err)
						}
					}
					benchChecks(b, l.engine, w)
					// After the loop: b.Loop resets the timer, which drops
					// metrics reported before it.
					b.ReportMetric(float64(l.load.Microseconds())/1e3, "load-ms")
					b.ReportMetric(float64(l.heap)/(1<<20), "heap-MiB")
				})
				if l != nil {
					l.Close()
				}
			}
		})
	}
}
