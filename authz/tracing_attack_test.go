package authz

import (
	"net/http"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// With user names opted in, a user from the request path that could never
// be a name (64 KiB of it) becomes its length in rolegate.user, not a 64
// KiB attribute; nothing else of it reaches any span.
func TestTraceHostileUserBounded(t *testing.T) {
	az, sr := openTraced(t, storagetest.SQLite(t), true)
	e := newTestRouter(t, az, "")
	long := strings.Repeat("u", 64<<10)
	if w := performRequest(e, http.MethodGet, "/api/user_roles/"+long, newKey(), nil); w.Code != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", w.Code)
	}
	spans := spansNamed(sr, "GET /api/user_roles/:user")
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	if v, ok := attr(spans[0], attrUser); !ok || v.AsString() != "(not a valid name: 65536 bytes)" {
		t.Errorf("rolegate.user = %.80q", v.AsString())
	}
	if found := secretsIn(sr, strings.Repeat("u", 200)); len(found) > 0 {
		t.Errorf("the long user reached a span: %.200q", found)
	}
}
