package console_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/rolegate/rolegate/console"
)

// authz.Mount serves the console under <mount>/console/ by itself. A host
// that serves it elsewhere strips the prefix before the handler, and must
// serve rolegate's REST API at ../api/ beside it (the page calls
// <prefix without "console/">api/...).
func ExampleHandler() {
	mux := http.NewServeMux()
	mux.Handle("/console/", http.StripPrefix("/console", console.Handler()))

	w := httptest.NewRecorder()
	mux.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/console/", nil))
	fmt.Println(w.Code, w.Header().Get("Content-Type"))
	fmt.Println(w.Header().Get("Content-Security-Policy") == console.ContentSecurityPolicy)
	// Output:
	// 200 text/html; charset=utf-8
	// true
}
