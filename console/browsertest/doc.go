// Package browsertest drives the admin console in headless Chromium
// (chromedp) against a host app with rolegate mounted. It is a module of
// its own, so that the library's go.mod does not require chromedp:
//
//	cd console/browsertest && go test ./...
//
// The tests skip when no Chromium is installed (AUTH_TEST_CHROMIUM names
// one elsewhere) and fail when CI is set.
package browsertest
