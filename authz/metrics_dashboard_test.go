package authz

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// dashboardPath is the Grafana dashboard built on the metrics.
const dashboardPath = "../examples/grafana/rolegate-dashboard.json"

// checkDashboard fails unless every metric the dashboard's queries name
// is in the scrape (a histogram's _bucket, _sum and _count by its name).
func checkDashboard(t *testing.T, scrape string) {
	t.Helper()
	raw, err := os.ReadFile(dashboardPath)
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
		Templating struct {
			List []struct{ Query any }
		}
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatalf("%s: %v", dashboardPath, err)
	}
	var exprs []string
	for _, p := range dash.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
		}
	}
	for _, v := range dash.Templating.List {
		if q, ok := v.Query.(string); ok {
			exprs = append(exprs, q)
		}
	}
	name := regexp.MustCompile(`rolegate_[a-z_]+`)
	seen := map[string]bool{}
	for _, e := range exprs {
		for _, n := range name.FindAllString(e, -1) {
			family := n
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if f, ok := strings.CutSuffix(n, suffix); ok && strings.Contains(scrape, "# TYPE "+f+" histogram") {
					family = f
				}
			}
			seen[family] = true
			if !strings.Contains(scrape, "# TYPE "+family+" ") {
				t.Errorf("the dashboard queries %s, which is not in the scrape", n)
			}
		}
	}
	for _, n := range metricNames {
		if !seen[n] {
			t.Errorf("the dashboard shows nothing of %s", n)
		}
	}
}
