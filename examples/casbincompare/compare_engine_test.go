package casbincompare

// Models with role hierarchies and domains (role inheritance, scoped
// memberships).

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestSameAnswersHierarchy: RBAC with a role hierarchy (g, role, role).
func TestSameAnswersHierarchy(t *testing.T) {
	compare(t, "rbac_with_hierarchy_model.conf", "rbac_with_hierarchy_policy.csv")
}

// TestSameAnswersDomains: RBAC with domains, checked with ?scope=DOMAIN.
// It first makes sure the server documents ?scope= (an older one would
// ignore it and answer as if no scope were given).
func TestSameAnswersDomains(t *testing.T) {
	_, _ = startRolegate(t)
	resp, err := http.Get(srvURL(t) + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(doc["paths"].(map[string]any)["/api/has_permission/{user}/{name}"])
	if !strings.Contains(string(b), `"scope"`) {
		t.Fatal("this rolegate does not document ?scope= on has_permission")
	}
	compare(t, "rbac_with_domains_model.conf", "rbac_with_domains_policy.csv")
}
