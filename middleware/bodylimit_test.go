package middleware

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

// decodeHandler maps body errors as rolegate's handlers do: too large is
// 413, anything else 400.
func decodeHandler(c *gin.Context) {
	var v map[string]any
	if err := json.NewDecoder(c.Request.Body).Decode(&v); err != nil && !errors.Is(err, io.EOF) {
		if IsBodyTooLarge(err) {
			Fail(c, http.StatusRequestEntityTooLarge, "", "request body too large")
			return
		}
		Fail(c, http.StatusBadRequest, "", "malformed body")
		return
	}
	c.String(http.StatusOK, "ok")
}

func TestBodyLimit(t *testing.T) {
	const limit = 32
	fits := `{"description":"0123456789abc"}` // 31 bytes
	exact := `{"description":"0123456789abcd"}`
	over := `{"description":"` + strings.Repeat("x", 100) + `"}`
	tests := []struct {
		name       string
		body       string
		chunked    bool // no Content-Length
		wantStatus int
		wantDetail string
	}{
		{"no body", "", false, 200, ""},
		{"fits", fits, false, 200, ""},
		{"exactly the limit", exact, false, 200, ""},
		{"declared too large", over, false, 413, "request body exceeds 32 bytes"},
		{"chunked fits", fits, true, 200, ""},
		{"chunked too large", over, true, 413, "request body too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(exact) != limit {
				t.Fatalf("exact body is %d bytes", len(exact))
			}
			ran := false
			r := gin.New()
			r.POST("/b", BodyLimit(limit), func(c *gin.Context) { ran = true; decodeHandler(c) })
			req := httptest.NewRequest(http.MethodPost, "/b", strings.NewReader(tt.body))
			if tt.chunked {
				req.ContentLength = -1
				req.Body = io.NopCloser(strings.NewReader(tt.body))
			}
			w := httptest.NewRecorder()
			r.ServeHTTP(w, req)
			if tt.wantStatus == http.StatusOK {
				if w.Code != http.StatusOK {
					t.Fatalf("status %d: %s", w.Code, w.Body)
				}
				return
			}
			assertError(t, w, http.StatusRequestEntityTooLarge, "Request Entity Too Large", tt.wantDetail)
			if !tt.chunked && ran {
				t.Error("handler ran although Content-Length was over the limit")
			}
		})
	}
}

func TestBodyLimitNegative(t *testing.T) {
	r := newTestRouter(BodyLimit(-5))
	w := performRequest(r, http.MethodPost, "/ok", strings.NewReader("x"))
	assertError(t, w, http.StatusRequestEntityTooLarge, "Request Entity Too Large", "request body exceeds 0 bytes")
}

func TestIsBodyTooLarge(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"max bytes error", &http.MaxBytesError{Limit: 1}, true},
		{"wrapped", fmt.Errorf("decode: %w", &http.MaxBytesError{Limit: 1}), true},
		{"other", io.ErrUnexpectedEOF, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsBodyTooLarge(tt.err); got != tt.want {
				t.Errorf("IsBodyTooLarge(%v) = %v", tt.err, got)
			}
		})
	}
}
