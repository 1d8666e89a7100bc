package authz

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// openAPISource is the OpenAPI 3 document of every route Mount registers,
// written by hand. A test compares it with the routes of a mounted engine,
// so a route added without documentation fails the build.
//
//go:embed openapi.json
var openAPISource []byte

// openAPIDocument is the document as served under basePath: its server URL
// is the prefix Mount was given, so that clients generated from it call
// the right paths.
func openAPIDocument(basePath string) ([]byte, error) {
	if basePath == "" || basePath == "/" {
		return openAPISource, nil
	}
	var doc map[string]any
	if err := json.Unmarshal(openAPISource, &doc); err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	doc["servers"] = []map[string]string{{"url": basePath}}
	return json.Marshal(doc)
}
