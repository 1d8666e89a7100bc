package rest

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// openAPISource is the OpenAPI 3 document of every route Mount registers,
// written by hand. A test compares it with the routes of a mounted engine,
// so a route added without documentation fails the build.
//
//go:embed openapi.json
var openAPISource []byte

// OpenAPIDocument is the document as served by one Mount: only the routes
// it mounted (omit lists the paths of the optional routes it did not
// mount: the login routes without providers, the sample routes without
// their credentials, /metrics without a gatherer; with cors false, no
// OPTIONS operations), and its server URL is the prefix Mount was given,
// so that clients generated from it call the right paths.
func OpenAPIDocument(basePath string, omit []string, cors bool) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(openAPISource, &doc); err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	paths, _ := doc["paths"].(map[string]any)
	for _, p := range omit {
		delete(paths, p)
	}
	if !cors {
		for _, item := range paths {
			if ops, ok := item.(map[string]any); ok {
				delete(ops, "options")
			}
		}
	}
	keepUsedTags(doc, paths)
	keepUsedComponents(doc)
	if basePath != "" && basePath != "/" {
		doc["servers"] = []map[string]string{{"url": basePath}}
	}
	return json.MarshalIndent(doc, "", "  ")
}

// keepUsedTags drops the tags that no remaining operation uses (a strict
// linter flags them).
func keepUsedTags(doc map[string]any, paths map[string]any) {
	used := map[string]bool{}
	for _, item := range paths {
		ops, _ := item.(map[string]any)
		for _, op := range ops {
			o, _ := op.(map[string]any)
			tags, _ := o["tags"].([]any)
			for _, t := range tags {
				if s, ok := t.(string); ok {
					used[s] = true
				}
			}
		}
	}
	tags, _ := doc["tags"].([]any)
	kept := make([]any, 0, len(tags))
	for _, t := range tags {
		if m, ok := t.(map[string]any); ok && used[fmt.Sprint(m["name"])] {
			kept = append(kept, t)
		}
	}
	doc["tags"] = kept
}

// keepUsedComponents drops the schemas and responses that nothing left in
// the document refers to, directly or through other components (the
// login routes' schemas when login is not mounted, for example).
func keepUsedComponents(doc map[string]any) {
	comps, _ := doc["components"].(map[string]any)
	used := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if ref, ok := x.(string); ok && k == "$ref" && !used[ref] {
					used[ref] = true
					// "#/components/<kind>/<name>"
					parts := strings.Split(strings.TrimPrefix(ref, "#/components/"), "/")
					if len(parts) == 2 {
						if kind, ok := comps[parts[0]].(map[string]any); ok {
							walk(kind[parts[1]])
						}
					}
					continue
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc["paths"])
	// Security schemes are referred to by name, from security requirements.
	var schemes func(v any)
	schemes = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "security" {
					reqs, _ := x.([]any)
					for _, r := range reqs {
						m, _ := r.(map[string]any)
						for name := range m {
							used["#/components/securitySchemes/"+name] = true
						}
					}
					continue
				}
				schemes(x)
			}
		case []any:
			for _, x := range v {
				schemes(x)
			}
		}
	}
	schemes(map[string]any{"paths": doc["paths"], "security": doc["security"]})
	for kindName, kind := range comps {
		entries, _ := kind.(map[string]any)
		for name := range entries {
			if !used["#/components/"+kindName+"/"+name] {
				delete(entries, name)
			}
		}
	}
}
