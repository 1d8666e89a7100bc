package authz

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// openTraced opens rolegate on target with an in-memory span recorder as
// its tracer provider.
func openTraced(t *testing.T, target storagetest.Target, userNames bool) (*Authz, *tracetest.SpanRecorder) {
	t.Helper()
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	az, _ := openREST(t, target, func(c *Config) {
		c.TracerProvider = tp
		c.TraceUserNames = userNames
	})
	return az, sr
}

// spansNamed returns the ended spans called name.
func spansNamed(sr *tracetest.SpanRecorder, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range sr.Ended() {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

func attr(s sdktrace.ReadOnlySpan, key attribute.Key) (attribute.Value, bool) {
	for _, kv := range s.Attributes() {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

// childrenOf returns the ended spans whose parent is p.
func childrenOf(sr *tracetest.SpanRecorder, p sdktrace.ReadOnlySpan) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range sr.Ended() {
		if s.Parent().SpanID() == p.SpanContext().SpanID() {
			out = append(out, s)
		}
	}
	return out
}

// storeSpans returns the store round trips among spans.
func storeSpans(spans []sdktrace.ReadOnlySpan) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if _, ok := attr(s, "db.system.name"); ok {
			out = append(out, s)
		}
	}
	return out
}

// secretsIn lists the spans whose name or attributes hold any of words.
func secretsIn(sr *tracetest.SpanRecorder, words ...string) []string {
	var out []string
	for _, s := range sr.Ended() {
		texts := []string{s.Name()}
		for _, kv := range s.Attributes() {
			texts = append(texts, kv.Value.Emit())
		}
		for _, txt := range texts {
			for _, w := range words {
				if strings.Contains(txt, w) {
					out = append(out, s.Name()+": "+txt)
				}
			}
		}
	}
	return out
}

// TestTraceREST: a REST request is a server span named by method and route
// template, with its status and the client's fingerprint, and the write
// and the store round trips inside it; no span holds the client key or a
// name unless user names are opted in, and then only the user's.
func TestTraceREST(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, optIn := range []bool{false, true} {
			name := "default"
			if optIn {
				name = "user names opted in"
			}
			t.Run(name, func(t *testing.T) {
				az, sr := openTraced(t, target, optIn)
				e := newTestRouter(t, az, "/auth")
				key := newKey()
				for _, rq := range []struct {
					method, path string
					want         int
				}{
					{"POST", "/auth/api/role/editor-role", 201},
					{"POST", "/auth/api/permission/editor-role/edit-perm", 201},
					{"POST", "/auth/api/membership/alice-user/editor-role", 201},
					{"GET", "/auth/api/has_permission/alice-user/edit-perm", 200},
				} {
					if w := performRequest(e, rq.method, rq.path, key, nil); w.Code != rq.want {
						t.Fatalf("%s %s = %d %s", rq.method, rq.path, w.Code, w.Body.String())
					}
				}
				spans := spansNamed(sr, "POST /auth/api/membership/:user/:group")
				if len(spans) != 1 {
					t.Fatalf("%d spans for the membership POST; have %d spans", len(spans), len(sr.Ended()))
				}
				rest := spans[0]
				if rest.SpanKind() != trace.SpanKindServer {
					t.Errorf("kind %v", rest.SpanKind())
				}
				for k, want := range map[attribute.Key]string{
					"http.request.method": "POST", "http.route": "/auth/api/membership/:user/:group",
					"http.response.status_code": "201",
				} {
					if v, _ := attr(rest, k); v.Emit() != want {
						t.Errorf("%s = %q, want %q", k, v.Emit(), want)
					}
				}
				cl := mustClient(t, az, key)
				if v, _ := attr(rest, attrClient); v.AsString() != cl.fingerprint {
					t.Errorf("rolegate.client = %q, want the fingerprint %q", v.AsString(), cl.fingerprint)
				}
				// The write inside the request, the store inside the write.
				var write sdktrace.ReadOnlySpan
				for _, s := range childrenOf(sr, rest) {
					if s.Name() == "rolegate.write add_membership" {
						write = s
					}
				}
				if write == nil {
					t.Fatalf("no write span under the request; children: %v", names(childrenOf(sr, rest)))
				}
				if v, _ := attr(write, attrChanged); !v.AsBool() {
					t.Errorf("write span: changed = %v", v.Emit())
				}
				db := storeSpans(childrenOf(sr, write))
				if len(db) < 3 { // BEGIN, the insert, COMMIT at least
					t.Errorf("store spans under the write: %v", names(db))
				}
				for _, s := range db {
					if s.SpanKind() != trace.SpanKindClient {
						t.Errorf("store span %s kind %v", s.Name(), s.SpanKind())
					}
					if _, ok := attr(s, "db.operation.name"); !ok {
						t.Errorf("store span %s without db.operation.name", s.Name())
					}
				}
				// Background queries (the revision check) make no root spans.
				for _, s := range storeSpans(sr.Ended()) {
					if !s.Parent().IsValid() {
						t.Errorf("store span %s without a parent", s.Name())
					}
				}
				words := []string{key, strings.ToUpper(key), "editor-role", "edit-perm"}
				if !optIn {
					words = append(words, "alice-user")
				}
				if leaks := secretsIn(sr, words...); len(leaks) > 0 {
					t.Errorf("spans hold a key or a name: %v", leaks)
				}
				if optIn {
					for _, s := range []sdktrace.ReadOnlySpan{rest, write} {
						if v, _ := attr(s, attrUser); v.AsString() != "alice-user" {
							t.Errorf("%s: rolegate.user = %q with user names opted in", s.Name(), v.AsString())
						}
					}
				}
			})
		}
	})
}

// TestTraceRESTStatus: a request the handler refuses, and one that fails
// in the store, carry their status; a 5xx marks the span as an error.
func TestTraceRESTStatus(t *testing.T) {
	az, sr := openTraced(t, storagetest.SQLite(t), false)
	e := newTestRouter(t, az, "")
	if w := performRequest(e, "POST", "/api/permission/nope/edit", newKey(), nil); w.Code != http.StatusNotFound {
		t.Fatalf("grant to a missing role = %d", w.Code)
	}
	s := spansNamed(sr, "POST /api/permission/:group/:name")
	if len(s) != 1 {
		t.Fatalf("%d spans", len(s))
	}
	if v, _ := attr(s[0], "http.response.status_code"); v.AsInt64() != 404 {
		t.Errorf("status %v", v.Emit())
	}
	az.db.Close()
	if w := performRequest(e, "GET", "/api/roles", newKey(), nil); w.Code != http.StatusServiceUnavailable {
		t.Fatalf("GET /api/roles on a closed store = %d", w.Code)
	}
	s = spansNamed(sr, "GET /api/roles")
	if len(s) != 1 || s[0].Status().Code.String() != "Error" {
		t.Fatalf("spans %d, status %v", len(s), s[0].Status())
	}
	if v, _ := attr(s[0], "error.type"); v.AsString() != "503" {
		t.Errorf("error.type %q", v.AsString())
	}
}

// TestTraceChecks: a cold check is a span with the store inside; a warm
// check makes no span at all. User names appear only when opted in.
func TestTraceChecks(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		for _, optIn := range []bool{false, true} {
			az, sr := openTraced(t, target, optIn)
			ctx := context.Background()
			c := mustClient(t, az, newKey())
			if _, err := c.AddRole(ctx, "editor-role", ""); err != nil {
				t.Fatal(err)
			}
			if _, err := c.AddPermission(ctx, "editor-role", "edit-perm"); err != nil {
				t.Fatal(err)
			}
			if _, err := c.AddMembership(ctx, "alice-user", "editor-role"); err != nil {
				t.Fatal(err)
			}
			if n := len(spansNamed(sr, "rolegate.write add_role")); n != 1 {
				t.Errorf("%d add_role write spans", n)
			}
			ok, err := c.UserHasPermission(ctx, "alice-user", "edit-perm")
			assertBool(t, "cold check", ok, err, true)
			cold := spansNamed(sr, "rolegate.check.cold")
			if len(cold) != 1 {
				t.Fatalf("%d cold check spans", len(cold))
			}
			if v, _ := attr(cold[0], attrAllowed); !v.AsBool() {
				t.Errorf("rolegate.allowed = %v", v.Emit())
			}
			if db := storeSpans(childrenOf(sr, cold[0])); len(db) == 0 {
				t.Errorf("no store spans under the cold check")
			}
			before := len(sr.Ended())
			for range 3 {
				ok, err = c.UserHasPermission(ctx, "alice-user", "edit-perm")
				assertBool(t, "warm check", ok, err, true)
				ok, err = c.UserHasRole(ctx, "alice-user", "editor-role")
				assertBool(t, "warm role check", ok, err, true)
			}
			if after := len(sr.Ended()); after != before {
				t.Errorf("warm checks made %d spans", after-before)
			}
			// AllocsPerRun counts the whole process's allocations: over 1,000
			// runs the background goroutines' (the revision poll, the span
			// exporter) stay below one a run on a loaded machine.
			if n := testing.AllocsPerRun(1000, func() { _, _ = c.UserHasPermission(ctx, "alice-user", "edit-perm") }); n != 0 {
				t.Errorf("a warm check with tracing on allocates %v times", n)
			}
			v, has := attr(cold[0], attrUser)
			switch {
			case optIn && v.AsString() != "alice-user":
				t.Errorf("opted in: rolegate.user = %q", v.AsString())
			case !optIn && has:
				t.Errorf("rolegate.user set by default")
			case !optIn:
				if leaks := secretsIn(sr, "alice-user", "editor-role", "edit-perm"); len(leaks) > 0 {
					t.Errorf("spans hold names: %v", leaks)
				}
			}
		}
	})
}

// TestTraceOff: without a TracerProvider the store handle has no hook and
// Mount adds no middleware.
func TestTraceOff(t *testing.T) {
	az, _ := openREST(t, storagetest.SQLite(t), nil)
	if az.tracing != nil || az.traceRequests() != nil {
		t.Fatal("tracing set up without a TracerProvider")
	}
	if n := len(az.ownChain(nil)); n != 4 {
		t.Errorf("chain of %d handlers", n)
	}
}

func names(spans []sdktrace.ReadOnlySpan) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name())
	}
	return out
}
