package main

import (
	"errors"
	"fmt"
)

// Exit codes that scripts can rely on.
const (
	exitOK          = 0
	exitDenied      = 1 // denied, not found, refused
	exitUsage       = 2 // bad flags or arguments, invalid names, bad files
	exitUnreachable = 3 // server unreachable, or its store unavailable (503)
)

// exitError carries the exit code of a failed command.
type exitError struct {
	code int
	err  error // nil: exit with code and print nothing (a plain "denied")
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...)}
}

func deniedErr(format string, a ...any) error {
	return &exitError{code: exitDenied, err: fmt.Errorf(format, a...)}
}

// silentExit ends the command with code and no message.
func silentExit(code int) error { return &exitError{code: code} }

// exitCode is the code for err: its own, or usage for the errors cobra
// produces itself (unknown command or flag, wrong argument count).
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return exitUsage
}
