package middleware

import (
	"errors"
	"net/http"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestHeaderResolver(t *testing.T) {
	tests := []struct {
		name     string
		header   string
		headers  []string
		wantUser string
		wantErr  error
	}{
		{"present", "X-User-Id", []string{"X-User-Id", "sara"}, "sara", nil},
		{"name canonicalised", "x-user-id", []string{"X-USER-ID", "sara"}, "sara", nil},
		{"unicode user", "X-User-Id", []string{"X-User-Id", "zoë"}, "zoë", nil},
		{"missing", "X-User-Id", nil, "", ErrNoUser},
		{"empty", "X-User-Id", []string{"X-User-Id", ""}, "", ErrNoUser},
		{"repeated is ambiguous", "X-User-Id", []string{"X-User-Id", "sara", "X-User-Id", "jack"}, "", ErrNoUser},
		{"other header", "X-User-Id", []string{"X-User", "sara"}, "", ErrNoUser},
		{"empty header name", "", []string{"X-User-Id", "sara"}, "", ErrNoUser},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := HeaderResolver(tt.header)
			r := gin.New()
			r.GET("/h", func(c *gin.Context) {
				user, err := res(c)
				if user != tt.wantUser || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
					t.Errorf("resolver = %q, %v; want %q, %v", user, err, tt.wantUser, tt.wantErr)
				}
				c.Status(http.StatusNoContent)
			})
			performRequest(r, http.MethodGet, "/h", nil, tt.headers...)
		})
	}
}
