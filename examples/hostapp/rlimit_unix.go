//go:build unix

package main

import "syscall"

// openFileLimit is the process's soft limit of open files. Go raises it
// to the hard limit when the program starts (since Go 1.19, on Linux and
// the BSDs), so this is the most the process may hold.
func openFileLimit() (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0, false
	}
	return r.Cur, true
}
