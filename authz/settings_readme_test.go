package authz

import (
	"flag"
	"os"
	"strings"
	"testing"
)

func init() {
	// -update also rewrites the REST golden files where those tests
	// define it; defined here when they do not.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite generated files (the README's settings table)")
	}
}

const (
	settingsBegin = "<!-- settings:begin -->\n"
	settingsEnd   = "<!-- settings:end -->"
)

// TestREADMESettings keeps the README's configuration table equal to the
// settings table; -update (or go generate ./authz) rewrites it.
func TestREADMESettings(t *testing.T) {
	const readme = "../README.md"
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, settingsBegin)
	j := strings.Index(doc, settingsEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q block", readme, strings.TrimSpace(settingsBegin), settingsEnd)
	}
	i += len(settingsBegin)
	want := settingsTable()
	if doc[i:j] == want {
		return
	}
	if flag.Lookup("update").Value.(flag.Getter).Get().(bool) {
		if err := os.WriteFile(readme, []byte(doc[:i]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: settings table rewritten", readme)
		return
	}
	t.Errorf("the README's settings table differs from the settings table (authz/envvars.go); run go generate ./authz\nwant:\n%s", want)
}

// Every row of the settings table is a named, documented AUTH_ variable,
// named once; every default the table fills is what DefaultConfig says.
func TestSettingsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range settings {
		if !strings.HasPrefix(s.name, "AUTH_") || s.doc == "" || strings.Contains(s.doc, "|") || strings.Contains(s.doc, "\n") {
			t.Errorf("setting %q: name or doc unfit for the table", s.name)
		}
		for _, k := range s.names() {
			if seen[k] {
				t.Errorf("%s named twice", k)
			}
			seen[k] = true
			if !knownVariable(strings.ReplaceAll(k, "*", "X")) {
				t.Errorf("%s is not known", k)
			}
		}
	}
	c := Config{}.withDefaults()
	d := DefaultConfig()
	if c.DecisionLog != d.DecisionLog || c.DecisionLogSample != d.DecisionLogSample || c.AuditRetention != d.AuditRetention ||
		c.MaxClients != d.MaxClients || strings.Join(c.CORSOrigins, ",") != strings.Join(d.CORSOrigins, ",") {
		t.Errorf("Config{} means %+v, DefaultConfig %+v", c, d)
	}
	d.CORSOrigins[0] = "changed"
	if DefaultConfig().CORSOrigins[0] != "*" {
		t.Error("DefaultConfig shares its CORSOrigins")
	}
}
