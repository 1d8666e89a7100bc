package main

import (
	"fmt"
	"io"
	"strings"
)

// printNextSteps tells whoever just ran the app what to do next, as
// examples/minimal does: how to get the admin key into the shell (the
// file the example keeps it in, when AUTH_CLIENT_KEY was not set), one
// curl line that uses it, and where the console is.
func printNextSteps(w io.Writer, base, keyFile, userHeader string, open, console bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "hostapp listening on %s; next:\n", base)
	switch {
	case open:
		b.WriteString("  export AUTH_CLIENT_KEY=$(go run ./examples/hostapp -new-client-key)   # open mode: any UUID v4 is a namespace of its own\n")
	case keyFile != "":
		fmt.Fprintf(&b, "  export AUTH_CLIENT_KEY=$(cat %s)   # the admin key this example made\n", shellQuote(keyFile))
	default:
		b.WriteString("  # AUTH_CLIENT_KEY is set: it is the admin key\n")
	}
	fmt.Fprintf(&b, "  curl -s -w ' %%{http_code}\\n' -H \"Authorization: Bearer $AUTH_CLIENT_KEY\" %s/api/roles   # the roles, then 200\n", base)
	if console {
		fmt.Fprintf(&b, "  admin console: %s/console/ (sign in with $AUTH_CLIENT_KEY)\n", base)
	}
	if !open && userHeader == "" {
		b.WriteString("  (the README's walkthrough starts the app with -user-header X-User to try its guarded /notes)\n")
	}
	io.WriteString(w, b.String())
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
