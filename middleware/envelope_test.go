package middleware

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

func TestTimestamp(t *testing.T) {
	tests := []struct {
		name string
		in   time.Time
		want string
	}{
		{"utc whole second", time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), "2025-01-02T03:04:05.000000Z"},
		{"microseconds kept", time.Date(2025, 1, 2, 3, 4, 5, 123456789, time.UTC), "2025-01-02T03:04:05.123456Z"},
		{"trailing zeros kept", time.Date(2025, 1, 2, 3, 4, 5, 100000000, time.UTC), "2025-01-02T03:04:05.100000Z"},
		{"converted to utc", time.Date(2025, 1, 2, 5, 4, 5, 0, time.FixedZone("x", 2*3600)), "2025-01-02T03:04:05.000000Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Timestamp(tt.in); got != tt.want {
				t.Errorf("Timestamp = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRespond(t *testing.T) {
	r := gin.New()
	r.POST("/r", func(c *gin.Context) {
		Respond(c, http.StatusCreated, "created", gin.H{"role": "editor"})
	})
	w := performRequest(r, http.MethodPost, "/r", nil)
	if w.Code != http.StatusCreated {
		t.Fatalf("status = %d", w.Code)
	}
	var b struct {
		SuccessBody
		Data map[string]string `json:"data"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	if !b.Success || b.Code != http.StatusCreated || b.Message != "created" || b.Data["role"] != "editor" {
		t.Errorf("envelope = %s", w.Body)
	}
	assertTimestamp(t, b.Timestamp)
	for _, k := range []string{`"success"`, `"code"`, `"message"`, `"data"`, `"timestamp"`} {
		if !bytes.Contains(w.Body.Bytes(), []byte(k)) {
			t.Errorf("body lacks %s: %s", k, w.Body)
		}
	}
}

func TestFail(t *testing.T) {
	tests := []struct {
		name          string
		status        int
		message       string
		preset        string // WWW-Authenticate set before Fail
		wantMessage   string
		wantChallenge string
	}{
		{"401 gets bearer challenge", http.StatusUnauthorized, "Unauthorized", "", "Unauthorized", "Bearer"},
		{"401 keeps basic challenge", http.StatusUnauthorized, "Unauthorized", `Basic realm="x"`, "Unauthorized", `Basic realm="x"`},
		{"404 no challenge", http.StatusNotFound, "Not Found", "", "Not Found", ""},
		{"empty message from status", http.StatusBadRequest, "", "", "Bad Request", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ranAfter := false
			r := gin.New()
			r.GET("/f", func(c *gin.Context) {
				if tt.preset != "" {
					c.Header("WWW-Authenticate", tt.preset)
				}
				Fail(c, tt.status, tt.message, "the detail")
			}, func(c *gin.Context) { ranAfter = true })
			w := performRequest(r, http.MethodGet, "/f", nil)
			assertError(t, w, tt.status, tt.wantMessage, "the detail")
			if got := w.Header().Get("WWW-Authenticate"); got != tt.wantChallenge {
				t.Errorf("WWW-Authenticate = %q, want %q", got, tt.wantChallenge)
			}
			if ranAfter {
				t.Error("Fail did not abort the chain")
			}
		})
	}
}
