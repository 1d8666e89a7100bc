package cache

import (
	"runtime"
	"testing"
)

// cpuLoop runs fn b.N times on one locked OS thread and reports, beside
// ns/op (wall time, which on a loaded machine counts the time the thread
// waited for a core), cpu-ns/op: the CPU time the loop itself used, where
// the system tells a thread's CPU time (Linux; elsewhere only ns/op). The
// rusage clock ticks in microseconds or coarser, so b.N must be large.
func cpuLoop(b *testing.B, fn func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	start, ok := threadCPU()
	for i := 0; i < b.N; i++ {
		fn()
	}
	end, _ := threadCPU()
	b.StopTimer()
	if ok {
		b.ReportMetric(float64((end-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
