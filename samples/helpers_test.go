package samples_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/samples"
)

const (
	testUser = "alice"
	testPass = "s3cret:with:colons"
	testKey  = "k-0123456789"
)

func TestMain(m *testing.M) {
	gin.SetMode(gin.TestMode)
	os.Exit(m.Run())
}

func testConfig() samples.Config {
	return samples.Config{Username: testUser, Password: testPass, APIKey: testKey}
}

// newTestRouter returns an engine with the sample routes registered from cfg.
func newTestRouter(t testing.TB, cfg samples.Config) *gin.Engine {
	t.Helper()
	r := gin.New()
	if err := samples.Register(r, cfg); err != nil {
		t.Fatalf("Register: %v", err)
	}
	return r
}

// performRequest sends a GET to path with the given headers.
func performRequest(r http.Handler, path string, headers map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	return w
}

func basic(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

// envelope is the error envelope as a client decodes it.
type envelope struct {
	Success   *bool  `json:"success"`
	Code      int    `json:"code"`
	Message   string `json:"message"`
	Error     string `json:"error"`
	Timestamp string `json:"timestamp"`
}

// assertUnauthorized checks a 401 with the Basic challenge and the envelope,
// and that the body does not echo any secret.
func assertUnauthorized(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	if w.Code != http.StatusUnauthorized {
		t.Fatalf("status = %d, want 401; body %s", w.Code, w.Body)
	}
	if got, want := w.Header().Get("WWW-Authenticate"), `Basic realm="rolegate samples"`; got != want {
		t.Errorf("WWW-Authenticate = %q, want %q", got, want)
	}
	if got, want := w.Header().Get("Content-Type"), "application/json; charset=utf-8"; got != want {
		t.Errorf("Content-Type = %q, want %q", got, want)
	}
	var env envelope
	if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil {
		t.Fatalf("body %s: %v", w.Body, err)
	}
	if env.Success == nil || *env.Success || env.Code != 401 || env.Message != "Unauthorized" || env.Error == "" {
		t.Errorf("envelope = %s", w.Body)
	}
	if _, err := time.Parse("2006-01-02T15:04:05.000000Z", env.Timestamp); err != nil {
		t.Errorf("timestamp %q: %v", env.Timestamp, err)
	}
	for _, secret := range []string{testUser, testPass, testKey} {
		if strings.Contains(w.Body.String(), secret) {
			t.Errorf("body echoes a credential: %s", w.Body)
		}
	}
}
