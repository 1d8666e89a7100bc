package cache

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// threadCPU is the CPU time the calling OS thread has used.
func threadCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuLoop runs fn b.N times on one locked OS thread and reports, beside
// ns/op (wall time, which on a loaded machine counts the time the thread
// waited for a core), cpu-ns/op: the CPU time the loop itself used. The
// rusage clock ticks in microseconds or coarser, so b.N must be large.
func cpuLoop(b *testing.B, fn func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	start := threadCPU(b)
	for i := 0; i < b.N; i++ {
		fn()
	}
	used := threadCPU(b) - start
	b.StopTimer()
	b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
}
