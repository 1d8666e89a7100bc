package middleware

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
)

func TestRequestID(t *testing.T) {
	long64 := strings.Repeat("a", 64)
	tests := []struct {
		name     string
		incoming []string // X-Request-ID values sent
		want     string   // the client's id kept apart; "" means dropped
	}{
		{"none", nil, ""},
		{"sane kept apart", []string{"abc-123_x.y"}, "abc-123_x.y"},
		{"uuid kept apart", []string{validKey}, validKey},
		{"64 chars kept apart", []string{long64}, long64},
		{"65 chars replaced", []string{long64 + "a"}, ""},
		{"empty replaced", []string{""}, ""},
		{"space replaced", []string{"a b"}, ""},
		{"markup replaced", []string{"<script>"}, ""},
		{"quote replaced", []string{`a"b`}, ""},
		{"non ascii replaced", []string{"zoë"}, ""},
		{"slash replaced", []string{"a/b"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var seen, theirs string
			r := gin.New()
			r.Use(RequestID())
			r.GET("/id", func(c *gin.Context) {
				seen = RequestIDFrom(c)
				theirs = ClientRequestIDFrom(c)
				c.Status(http.StatusNoContent)
			})
			var headers []string
			for _, v := range tt.incoming {
				headers = append(headers, HeaderRequestID, v)
			}
			w := performRequest(r, http.MethodGet, "/id", nil, headers...)
			got := w.Header().Get(HeaderRequestID)
			if got != seen {
				t.Errorf("response header %q != RequestIDFrom %q", got, seen)
			}
			if theirs != tt.want {
				t.Errorf("ClientRequestIDFrom = %q, want %q", theirs, tt.want)
			}
			// Ours is always a fresh UUID, whatever the client sent: a
			// client never chooses our request id.
			if len(tt.incoming) > 0 && got == tt.incoming[0] {
				t.Errorf("the client's id %q was taken as ours", got)
			}
			if u, err := uuid.Parse(got); err != nil || u.String() != got || u.Version() != 4 || u.Variant() != uuid.RFC4122 {
				t.Errorf("generated id %q is not a random (version 4) UUID", got)
			}
		})
	}
}

func TestRequestIDUnique(t *testing.T) {
	r := newTestRouter(RequestID())
	seen := map[string]bool{}
	for range 100 {
		id := performRequest(r, http.MethodGet, "/ok", nil).Header().Get(HeaderRequestID)
		if seen[id] {
			t.Fatalf("id %q repeated", id)
		}
		seen[id] = true
	}
}

// Ids drawn at once from many goroutines (each generator of the pool
// seeded on its own) never repeat.
func TestRequestIDUniqueConcurrently(t *testing.T) {
	ids := make(chan string, 64*200)
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				ids <- newRequestID()
			}
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		if seen[id] {
			t.Fatalf("id %q repeated", id)
		}
		seen[id] = true
	}
}

func TestRequestIDFromWithoutMiddleware(t *testing.T) {
	r := gin.New()
	r.GET("/id", func(c *gin.Context) {
		if id := RequestIDFrom(c); id != "" {
			t.Errorf("RequestIDFrom = %q without RequestID", id)
		}
		c.Status(http.StatusNoContent)
	})
	performRequest(r, http.MethodGet, "/id", nil)
}
