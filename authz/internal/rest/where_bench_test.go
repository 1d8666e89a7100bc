package rest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkReadChecks decodes a body of 100 checks, half of them scoped,
// names checked: ns/op, and cpu-ns/op the CPU time of the loop's thread.
func BenchmarkReadChecks(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"checks":[`)
	for i := range 100 {
		if i > 0 {
			sb.WriteByte(',')
		}
		if i%2 == 1 {
			fmt.Fprintf(&sb, `{"user":"user-%d","permission":"perm-%d","scope":"org-%d"}`, i, i, i)
		} else {
			fmt.Fprintf(&sb, `{"user":"user-%d","permission":"perm-%d"}`, i, i)
		}
	}
	sb.WriteString(`]}`)
	body := []byte(sb.String())
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	start, ok := threadCPU()
	for i := 0; i < b.N; i++ {
		if cs, err := parseChecks(body); err != nil || len(cs) != 100 {
			b.Fatal(len(cs), err)
		}
	}
	end, _ := threadCPU()
	b.StopTimer()
	if ok {
		b.ReportMetric(float64((end-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
