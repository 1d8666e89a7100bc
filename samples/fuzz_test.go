package samples_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"
)

// exactCredentials is the oracle: the header is the Basic scheme (any letter
// case) followed by standard base64 of exactly "user:pass".
func exactCredentials(header string) bool {
	const prefix = "Basic "
	if len(header) < len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return false
	}
	b, err := base64.StdEncoding.DecodeString(header[len(prefix):])
	return err == nil && string(b) == testUser+":"+testPass
}

func FuzzBasicAuth(f *testing.F) {
	b64 := base64.StdEncoding.EncodeToString
	for _, seed := range []string{
		basic(testUser, testPass),
		"basic " + b64([]byte(testUser+":"+testPass)),
		basic(testUser, testPass+"x"),
		basic(testUser, ""),
		basic("", testPass),
		"Basic " + b64([]byte(testUser+testPass)),
		"Basic " + b64([]byte(":")),
		"Basic ",
		"Basic",
		"",
		"Basic !!!",
		"Bearer abc",
		"Basic  " + b64([]byte(testUser+":"+testPass)),
		"Basic " + b64([]byte(testUser+":"+testPass)) + " ",
		"Basic " + b64([]byte(testUser + ":" + testPass))[:8],
	} {
		f.Add(seed)
	}
	r := newTestRouter(f, testConfig())
	f.Fuzz(func(t *testing.T, header string) {
		w := performRequest(r, "/api/ping", map[string]string{"Authorization": header})
		want := exactCredentials(header)
		switch {
		case want && w.Code != http.StatusOK:
			t.Fatalf("exact credentials %q got %d", header, w.Code)
		case !want && w.Code != http.StatusUnauthorized:
			t.Fatalf("header %q got %d, want 401", header, w.Code)
		}
	})
}
