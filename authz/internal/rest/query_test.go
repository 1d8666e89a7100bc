package rest

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// TestQueryParametersDocumented holds each route's accepted query
// parameters to those the OpenAPI document gives it, so that a parameter
// cannot be documented and refused, or read and undocumented.
func TestQueryParametersDocumented(t *testing.T) {
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Parameters map[string]struct {
				Name string `json:"name"`
				In   string `json:"in"`
			} `json:"parameters"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPISource, &doc); err != nil {
		t.Fatal(err)
	}
	type parameter struct {
		Ref  string `json:"$ref"`
		Name string `json:"name"`
		In   string `json:"in"`
	}
	query := func(raw json.RawMessage) []string {
		var ps []parameter
		if raw != nil {
			var op struct {
				Parameters []parameter `json:"parameters"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				_ = json.Unmarshal(raw, &ps) // a path item's own "parameters"
			} else {
				ps = op.Parameters
			}
		}
		var out []string
		for _, p := range ps {
			if p.Ref != "" {
				c := doc.Components.Parameters[strings.TrimPrefix(p.Ref, "#/components/parameters/")]
				p.Name, p.In = c.Name, c.In
			}
			if p.In == "query" {
				out = append(out, p.Name)
			}
		}
		return out
	}
	for _, rt := range Table() {
		path := rt.Path
		for _, p := range rt.Params {
			path = strings.Replace(path, ":"+p.Name, "{"+p.Name+"}", 1)
		}
		item, ok := doc.Paths[path]
		if !ok {
			t.Errorf("%s %s: not in openapi.json", rt.Method, path)
			continue
		}
		op, ok := item[strings.ToLower(rt.Method)]
		if !ok {
			t.Errorf("%s %s: not in openapi.json", rt.Method, path)
			continue
		}
		documented := append(query(item["parameters"]), query(op)...)
		slices.Sort(documented)
		if !slices.Equal(documented, rt.Query) {
			t.Errorf("%s %s accepts %v, openapi.json documents %v", rt.Method, path, rt.Query, documented)
		}
	}
}

// TestCheckQuery: a parameter the route does not read is refused, named
// with the ones it accepts, whatever its case or spelling.
func TestCheckQuery(t *testing.T) {
	membership := route{path: "/api/membership/:user/:group", query: []string{"scope"}}
	list := route{path: "/api/members/:role", query: []string{"scope"}, list: true}
	none := route{path: "/api/role/:role"}
	for _, tc := range []struct {
		name  string
		rt    route
		query string
		want  string // "" when accepted; else what the error must say
	}{
		{"no query", membership, "", ""},
		{"scope", membership, "scope=org-1", ""},
		{"misspelt", membership, "scpoe=org-1", `unknown query parameter "scpoe": this route accepts scope`},
		{"other case", membership, "Scope=org-1", `unknown query parameter "Scope": this route accepts scope`},
		{"valid and unknown", membership, "scope=org-1&x=1", `"x"`},
		{"list", list, "limit=2&after=a&scope=s", ""},
		{"list unknown", list, "offset=2", `unknown query parameter "offset": this route accepts after, limit, scope`},
		{"no parameters", none, "description=x", `unknown query parameter "description": this route takes no query parameters`},
		{"empty name", none, "=x", `unknown query parameter ""`},
		{"control characters escaped", none, "a%0Ab=1", `unknown query parameter "a\nb"`},
		{"long name cut", none, strings.Repeat("n", 100) + "=1", `"` + strings.Repeat("n", maxParamEcho) + `…"`},
		{"semicolon", membership, "scope=a;x=1", "malformed query string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := gin.CreateTestContext(httptest.NewRecorder())
			c.Request = httptest.NewRequest("GET", "/x?"+tc.query, nil)
			err := checkQuery(c, tc.rt)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "":
			case err == nil:
				t.Fatalf("accepted; want %q", tc.want)
			case !errors.Is(err, rbac.ErrBadRequest) || !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %q; want %q (a bad request)", err, tc.want)
			}
			if status, _ := StatusOf(err); err != nil && status != 400 {
				t.Fatalf("status %d", status)
			}
		})
	}
}
