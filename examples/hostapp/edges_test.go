package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz"
)

// gin trusts every peer's X-Forwarded-For unless told otherwise; hostapp
// believes forwarded headers only from AUTH_TRUSTED_PROXIES.
func TestHostappForwardedHeaderSpoof(t *testing.T) {
	gin.SetMode(gin.TestMode)
	cfg := authz.DefaultConfig()
	cfg.SQLitePath = filepath.Join(t.TempDir(), "auth.sqlite3")
	cfg.ClientKey = "3f2b8c1e-9d4a-4e7b-8c2d-1a5f6e7d8c9b" // hostapp's guards need the host client
	az, err := authz.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer az.Close()
	for _, tc := range []struct {
		name    string
		proxies []string
		want    string
	}{
		{"none trusted", nil, "192.0.2.1"},
		{"peer trusted", []string{"192.0.2.0/24"}, "198.51.100.7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := newEngine(az, tc.proxies, false)
			if err != nil {
				t.Fatal(err)
			}
			e.GET("/whoami", func(c *gin.Context) { c.String(http.StatusOK, c.ClientIP()) })
			req := httptest.NewRequest(http.MethodGet, "/whoami", nil) // from 192.0.2.1
			req.Header.Set("X-Forwarded-For", "198.51.100.7")
			req.Header.Set("X-Real-IP", "6.6.6.6")
			w := httptest.NewRecorder()
			e.ServeHTTP(w, req)
			if got := w.Body.String(); got != tc.want {
				t.Errorf("ClientIP = %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := newEngine(az, []string{"not an address"}, false); err == nil {
		t.Error("a bad trusted proxy was accepted")
	}
}

// Slow or idle clients cannot hold a connection for ever.
func TestHostappServerTimeouts(t *testing.T) {
	s := newServer(http.NotFoundHandler(), defaultIdleTimeout)
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 {
		t.Fatalf("timeouts: header %v, read %v, write %v, idle %v; want all set",
			s.ReadHeaderTimeout, s.ReadTimeout, s.WriteTimeout, s.IdleTimeout)
	}
	if s.ReadHeaderTimeout > s.ReadTimeout || s.ReadTimeout > s.WriteTimeout {
		t.Errorf("header %v, read %v, write %v: each should allow for the one before",
			s.ReadHeaderTimeout, s.ReadTimeout, s.WriteTimeout)
	}
}
