package middleware

import (
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"
)

// TestDecodePathParams: a path parameter is decoded as a path segment
// whatever the engine's raw-path settings and the escaping of the rest of
// the path. Lower-case hex makes net/url keep RawPath, and gin then
// decoded with QueryUnescape: "john+test" became "john test".
func TestDecodePathParams(t *testing.T) {
	configs := []struct {
		name                 string
		rawPath, unescapeRaw bool
	}{
		{"default", false, true},
		{"UseRawPath+UnescapePathValues", true, true},
		{"UseRawPath", true, false},
	}
	paths := []struct{ path, user, role string }{
		{"/m/john+test/r%c3%b4le", "john+test", "r\u00f4le"},
		{"/m/john+test/r%C3%B4le", "john+test", "r\u00f4le"},
		{"/m/john%2btest/r%c3%b4le", "john+test", "r\u00f4le"},
		{"/m/john%20test/plain", "john test", "plain"},
		{"/m/a%2Fb/r%c3%b4le", "a/b", "r\u00f4le"},
	}
	for _, cfg := range configs {
		t.Run(cfg.name, func(t *testing.T) {
			e := gin.New()
			e.UseRawPath = cfg.rawPath
			e.UnescapePathValues = cfg.unescapeRaw
			e.GET("/m/:user/:role", DecodePathParams(), func(c *gin.Context) {
				c.JSON(http.StatusOK, []string{c.Param("user"), c.Param("role")})
			})
			for _, p := range paths {
				w := performRequest(e, http.MethodGet, p.path, nil)
				if !cfg.rawPath && p.user == "a/b" {
					// Matched on the decoded path, "a/b" is two segments.
					if w.Code != http.StatusNotFound {
						t.Errorf("%s: %d, want 404", p.path, w.Code)
					}
					continue
				}
				want := `["` + p.user + `","` + p.role + `"]`
				if w.Code != http.StatusOK || w.Body.String() != want {
					t.Errorf("%s: %d %s, want %s", p.path, w.Code, w.Body.String(), want)
				}
			}
		})
	}
}
