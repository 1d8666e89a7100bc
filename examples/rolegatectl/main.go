// Command rolegatectl administers a running rolegate over its REST API:
// roles, grants, memberships (with scopes), inheritance, checks, audit,
// policy files (export, diff, apply), import from Casbin, and backup and
// restore. It needs no database credentials, only the server's URL and a
// client key.
//
// Install it with
//
//	cd examples/rolegatectl && go install .
//
// The client key comes from --key-file or the ROLEGATE_KEY environment
// variable, never from a plain flag (which would land in shell history and
// in the process list).
//
// Exit codes: 0 ok (or allowed), 1 denied or not found, 2 usage or bad
// input, 3 server or store unreachable.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}))
}
