package rest

import (
	"encoding/json"
	"regexp"
	"testing"
)

// Every client-key route documents the 429 that open mode answers it with,
// Retry-After included: a write the write rate's (WriteRateLimited), a read
// the reads in flight's (ReadsInFlight).
func TestOpenAPIDocumentsTooManyRequests(t *testing.T) {
	var doc struct {
		Paths      map[string]map[string]map[string]any `json:"paths"`
		Components struct {
			Responses map[string]struct {
				Headers map[string]any `json:"headers"`
			} `json:"responses"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPISource, &doc); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"WriteRateLimited", "ReadsInFlight"} {
		if _, ok := doc.Components.Responses[name].Headers["Retry-After"]; !ok {
			t.Errorf("response %s has no Retry-After header", name)
		}
	}
	param := regexp.MustCompile(`:([A-Za-z_]+)`)
	for _, rt := range append(routes(), batchRoute) {
		want := "#/components/responses/ReadsInFlight"
		if rt.write {
			want = "#/components/responses/WriteRateLimited"
		}
		path := param.ReplaceAllString(rt.path, "{$1}")
		op, ok := doc.Paths[path][map[string]string{"GET": "get", "POST": "post", "PUT": "put", "DELETE": "delete"}[rt.method]]
		if !ok {
			t.Errorf("%s %s is not documented", rt.method, path)
			continue
		}
		responses, _ := op["responses"].(map[string]any)
		got, _ := responses["429"].(map[string]any)
		if got["$ref"] != want {
			t.Errorf("%s %s: 429 is %v, want %s", rt.method, path, got, want)
		}
	}
}
