//go:build !linux

package authz

import "time"

// threadCPU is not known here: the benchmarks report ns/op only.
func threadCPU() (time.Duration, bool) { return 0, false }

// processCPU is not known here either.
func processCPU() time.Duration { return 0 }
