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
// included; Casbin's plain enforcer takes tens of ms per check there, so
// pass -benchtime to bound it, or select sizes with -bench
// 'Check/.*/(small|medium)$'.
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
					b.ReportMetric(float64(l.load.Microseconds())/1e3, "load-ms")
					b.ReportMetric(float64(l.heap)/(1<<20), "heap-MiB")
					benchChecks(b, l.engine, w)
				})
				if l != nil {
					l.Close()
				}
			}
		})
	}
}
