package main

// feature is something newer servers have, found in their OpenAPI
// document. Role inheritance and scoped memberships come with rolegate's
// decision engine v2; the batch route with the same release as this tool.
type feature struct {
	what    string
	present func(doc map[string]any) bool
}

var (
	featureInheritance = feature{what: "role inheritance", present: func(doc map[string]any) bool {
		return docPath(doc, "/api/role/{role}/inherits/{parent}") != nil && docPath(doc, "/api/role/{role}/inherits") != nil
	}}
	featureScopes = feature{what: "scoped memberships (?scope=)", present: func(doc map[string]any) bool {
		return docHasQuery(doc, "/api/membership/{user}/{group}", "post", "scope") &&
			docHasQuery(doc, "/api/membership/{user}/{group}", "delete", "scope")
	}}
	featureScopedList = feature{what: "listing every scoped membership (GET /api/scoped_memberships)", present: func(doc map[string]any) bool {
		return docPath(doc, "/api/scoped_memberships") != nil
	}}
	featureBatchStream = feature{what: "streamed batch writes past 50,000 operations (POST /api/batch/stream)", present: func(doc map[string]any) bool {
		return docPath(doc, "/api/batch/stream") != nil
	}}
	featureBatch = feature{what: "batch writes (POST /api/batch)", present: func(doc map[string]any) bool {
		return docPath(doc, "/api/batch") != nil
	}}
)

func docPath(doc map[string]any, path string) map[string]any {
	paths, _ := doc["paths"].(map[string]any)
	p, _ := paths[path].(map[string]any)
	return p
}

// docHasQuery reports whether the operation documents the query parameter,
// on the operation or on its path.
func docHasQuery(doc map[string]any, path, method, name string) bool {
	p := docPath(doc, path)
	if p == nil {
		return false
	}
	op, _ := p[method].(map[string]any)
	for _, params := range []any{op["parameters"], p["parameters"]} {
		list, _ := params.([]any)
		for _, x := range list {
			m, _ := x.(map[string]any)
			if m["name"] == name && m["in"] == "query" {
				return true
			}
			if ref, _ := m["$ref"].(string); ref != "" && refName(doc, ref) == name {
				return true
			}
		}
	}
	return false
}

// refName resolves a "#/components/parameters/X" reference to its name.
func refName(doc map[string]any, ref string) string {
	const prefix = "#/components/parameters/"
	if len(ref) <= len(prefix) || ref[:len(prefix)] != prefix {
		return ""
	}
	comps, _ := doc["components"].(map[string]any)
	params, _ := comps["parameters"].(map[string]any)
	p, _ := params[ref[len(prefix):]].(map[string]any)
	if p["in"] != "query" {
		return ""
	}
	name, _ := p["name"].(string)
	return name
}
