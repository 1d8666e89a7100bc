package middleware

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

const validKey = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"

func TestParseClientKey(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // "" means rejected
	}{
		{"v4 lower", validKey, validKey},
		{"v4 upper normalised", strings.ToUpper(validKey), validKey},
		{"v4 mixed normalised", "3F2504e0-4f89-41D3-9A0c-0305E82c3301", validKey},
		{"variant 8", "3f2504e0-4f89-41d3-8a0c-0305e82c3301", "3f2504e0-4f89-41d3-8a0c-0305e82c3301"},
		{"variant b upper", "3f2504e0-4f89-41d3-BA0c-0305e82c3301", "3f2504e0-4f89-41d3-ba0c-0305e82c3301"},
		{"v1", "3f2504e0-4f89-11d3-9a0c-0305e82c3301", ""},
		{"v3", "3f2504e0-4f89-31d3-9a0c-0305e82c3301", ""},
		{"v5", "3f2504e0-4f89-51d3-9a0c-0305e82c3301", ""},
		{"v7", "3f2504e0-4f89-71d3-9a0c-0305e82c3301", ""},
		{"nil uuid", "00000000-0000-0000-0000-000000000000", ""},
		{"max uuid", "ffffffff-ffff-ffff-ffff-ffffffffffff", ""},
		{"no hyphens", "3f2504e04f8941d39a0c0305e82c3301", ""},
		{"hyphens moved", "3f2504e04-f89-41d3-9a0c-0305e82c3301", ""},
		{"braces", "{" + validKey + "}", ""},
		{"urn prefix", "urn:uuid:" + validKey, ""},
		{"trailing junk", validKey + "x", ""},
		{"leading space", " " + validKey, ""},
		{"trailing space", validKey + " ", ""},
		{"empty", "", ""},
		{"35 chars", validKey[:35], ""},
		{"37 chars", validKey + "0", ""},
		{"non hex", "3f2504e0-4f89-41d3-9a0c-0305e82c330g", ""},
		{"variant 0 (NCS)", "3f2504e0-4f89-41d3-1a0c-0305e82c3301", ""},
		{"variant c (Microsoft)", "3f2504e0-4f89-41d3-ca0c-0305e82c3301", ""},
		{"variant e (reserved)", "3f2504e0-4f89-41d3-ea0c-0305e82c3301", ""},
		{"non ascii same length", "3f2504e0-4f89-41d3-9a0c-0305e82c33é", ""},
		{"nul byte", "3f2504e0-4f89-41d3-9a0c-0305e82c330\x00", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseClientKey(tt.in)
			if tt.want == "" {
				if !errors.Is(err, ErrInvalidClientKey) || got != "" {
					t.Errorf("ParseClientKey(%q) = %q, %v; want rejection", tt.in, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseClientKey(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseClientKeyNoAllocs(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := ParseClientKey(validKey); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseClientKey("not a key"); err == nil {
			t.Fatal("accepted junk")
		}
	})
	if allocs != 0 {
		t.Errorf("ParseClientKey allocates %v times for lower-case or junk input", allocs)
	}
}

func TestClientKeyAuth(t *testing.T) {
	tests := []struct {
		name       string
		headers    []string
		wantStatus int
		wantDetail string
		wantReason string
		wantKey    string
	}{
		{"valid", []string{"Authorization", "Bearer " + validKey}, 200, "", "", validKey},
		{"scheme lower case", []string{"Authorization", "bearer " + validKey}, 200, "", "", validKey},
		{"scheme upper case", []string{"Authorization", "BEARER " + validKey}, 200, "", "", validKey},
		{"extra spaces", []string{"Authorization", "Bearer    " + validKey}, 200, "", "", validKey},
		{"upper key normalised", []string{"Authorization", "Bearer " + strings.ToUpper(validKey)}, 200, "", "", validKey},
		{"missing", nil, 401, "missing bearer client key", ReasonMissingKey, ""},
		{"empty header", []string{"Authorization", ""}, 401, "missing bearer client key", ReasonMissingKey, ""},
		{"bearer without key", []string{"Authorization", "Bearer"}, 401, "missing bearer client key", ReasonMissingKey, ""},
		{"bearer and spaces", []string{"Authorization", "Bearer   "}, 401, "missing bearer client key", ReasonMissingKey, ""},
		{"basic scheme", []string{"Authorization", "Basic dXNlcjpwYXNz"}, 401, "authorization scheme must be Bearer", ReasonWrongScheme, ""},
		{"key without scheme", []string{"Authorization", validKey}, 401, "authorization scheme must be Bearer", ReasonWrongScheme, ""},
		{"bearerx scheme", []string{"Authorization", "Bearerx " + validKey}, 401, "authorization scheme must be Bearer", ReasonWrongScheme, ""},
		{"v1 key", []string{"Authorization", "Bearer 3f2504e0-4f89-11d3-9a0c-0305e82c3301"}, 401, "client key must be a UUID version 4", ReasonMalformedKey, ""},
		{"key and junk", []string{"Authorization", "Bearer " + validKey + " extra"}, 401, "client key must be a UUID version 4", ReasonMalformedKey, ""},
		{"braced key", []string{"Authorization", "Bearer {" + validKey + "}"}, 401, "client key must be a UUID version 4", ReasonMalformedKey, ""},
		{"two headers", []string{"Authorization", "Bearer " + validKey, "Authorization", "Bearer " + validKey}, 401, "client key must be a UUID version 4", ReasonMalformedKey, ""},
		{"key in other header only", []string{"X-API-KEY", validKey}, 401, "missing bearer client key", ReasonMissingKey, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gotReason string
			calls := 0
			mw := ClientKeyAuth(ClientKeyConfig{OnRefused: func(c *gin.Context, reason string) {
				calls++
				gotReason = reason
				if !c.IsAborted() {
					t.Error("OnRefused called before the chain was aborted")
				}
			}})
			r := gin.New()
			r.GET("/k", mw, func(c *gin.Context) {
				key, ok := ClientKeyFrom(c)
				if !ok {
					t.Error("ClientKeyFrom reports no key after ClientKeyAuth")
				}
				c.String(http.StatusOK, key)
			})
			w := performRequest(r, http.MethodGet, "/k", nil, tt.headers...)
			if tt.wantStatus == http.StatusOK {
				if w.Code != http.StatusOK || w.Body.String() != tt.wantKey {
					t.Fatalf("got %d %q, want 200 %q", w.Code, w.Body, tt.wantKey)
				}
				if calls != 0 {
					t.Errorf("OnRefused called %d times on success", calls)
				}
				return
			}
			assertError(t, w, http.StatusUnauthorized, "Unauthorized", tt.wantDetail)
			if got := w.Header().Get("WWW-Authenticate"); got != "Bearer" {
				t.Errorf("WWW-Authenticate = %q", got)
			}
			if calls != 1 || gotReason != tt.wantReason {
				t.Errorf("OnRefused calls=%d reason=%q, want 1 %q", calls, gotReason, tt.wantReason)
			}
			lower := strings.ToLower(w.Body.String())
			if strings.Contains(lower, validKey) || strings.Contains(lower, "3f2504e0") {
				t.Errorf("response echoes the key: %s", w.Body)
			}
		})
	}
}

func TestClientKeyAuthNilOnRefused(t *testing.T) {
	r := newTestRouter(ClientKeyAuth(ClientKeyConfig{}))
	w := performRequest(r, http.MethodGet, "/ok", nil)
	assertError(t, w, http.StatusUnauthorized, "Unauthorized", "missing bearer client key")
}

func TestClientKeyFromWithoutMiddleware(t *testing.T) {
	r := gin.New()
	r.GET("/k", func(c *gin.Context) {
		c.Set("clientKey", validKey) // a string key must not be mistaken for ours
		if key, ok := ClientKeyFrom(c); ok || key != "" {
			t.Errorf("ClientKeyFrom = %q, %v without ClientKeyAuth", key, ok)
		}
		c.Status(http.StatusNoContent)
	})
	if w := performRequest(r, http.MethodGet, "/k", nil); w.Code != http.StatusNoContent {
		t.Fatalf("status %d", w.Code)
	}
}
