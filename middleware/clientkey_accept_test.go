package middleware

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

// With Accept, a well-formed key it refuses gets the same 401 as a
// malformed one, with ReasonUnknownKey, and the handler never runs; an
// accepted key passes in lower case.
func TestClientKeyAuthAccept(t *testing.T) {
	admin := strings.ToLower(validKey)
	var reasons []string
	mw := ClientKeyAuth(ClientKeyConfig{
		Accept:    func(key string) bool { return key == admin },
		OnRefused: func(_ *gin.Context, reason string) { reasons = append(reasons, reason) },
	})
	r := gin.New()
	ran := 0
	r.GET("/k", mw, func(c *gin.Context) { ran++; c.Status(http.StatusNoContent) })

	stranger := "6a2c7a1e-0b3f-4f6e-9d7c-2e1f0a9b8c7d"
	w := performRequest(r, http.MethodGet, "/k", nil, "Authorization", "Bearer "+stranger)
	if w.Code != http.StatusUnauthorized || w.Header().Get("WWW-Authenticate") != "Bearer" {
		t.Fatalf("stranger: %d, WWW-Authenticate %q; want 401 Bearer", w.Code, w.Header().Get("WWW-Authenticate"))
	}
	if strings.Contains(w.Body.String(), stranger) || !strings.Contains(w.Body.String(), `"success":false`) {
		t.Errorf("stranger body %s", w.Body)
	}
	for _, k := range []string{admin, strings.ToUpper(admin)} {
		if w := performRequest(r, http.MethodGet, "/k", nil, "Authorization", "Bearer "+k); w.Code != http.StatusNoContent {
			t.Errorf("admin key %q: %d", k, w.Code)
		}
	}
	if ran != 2 || len(reasons) != 1 || reasons[0] != ReasonUnknownKey {
		t.Errorf("handler ran %d times, refusals %v; want 2 and [%s]", ran, reasons, ReasonUnknownKey)
	}
}
