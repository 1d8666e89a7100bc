// Package console serves rolegate's admin console: a single-page web app,
// built from web/ (Preact and htm, bundled by esbuild) into dist/ and
// embedded in the binary, so that serving it needs neither Node nor the
// network. authz.Mount serves it under <mount>/console/ when enabled.
//
// The console holds no secret and no privilege of its own: it signs in
// with a client key that it keeps in the tab's sessionStorage and sends as
// "Authorization: Bearer" to rolegate's public REST API, like any client.
// Every response carries a strict Content-Security-Policy (no inline
// script or style, no other origin), so a script injected into a page of
// the console would not run.
//
// Rebuild the assets with `go generate ./console/` (npm ci and the build,
// in web/); the built dist/ is committed.
package console
