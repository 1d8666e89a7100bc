package authz

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

func init() {
	// -update also rewrites the REST golden files where those tests
	// define it; defined here when they do not.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite generated files (the settings table of docs/configuration.md, the methods of docs/library.md)")
	}
}

const (
	settingsBegin = "<!-- settings:begin -->\n"
	settingsEnd   = "<!-- settings:end -->"
)

// TestSettingsDoc keeps the table of docs/configuration.md equal to the
// settings table; -update (or go generate ./authz) rewrites it.
func TestSettingsDoc(t *testing.T) {
	const page = "../docs/configuration.md"
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, settingsBegin)
	j := strings.Index(doc, settingsEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q block", page, strings.TrimSpace(settingsBegin), settingsEnd)
	}
	i += len(settingsBegin)
	want := settingsTable()
	if doc[i:j] == want {
		return
	}
	if flag.Lookup("update").Value.(flag.Getter).Get().(bool) {
		if err := os.WriteFile(page, []byte(doc[:i]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: settings table rewritten", page)
		return
	}
	t.Errorf("the table of %s differs from the settings table (authz/envvars.go); run go generate ./authz\nwant:\n%s", page, want)
}

// TestREADMENamesKnownSettings: every AUTH_ variable the README names is
// one that a setting reads (the README names a few; the table has all).
func TestREADMENamesKnownSettings(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// A family's member is written AUTH_OAUTH_<NAME>_ISSUER.
	names := regexp.MustCompile(`AUTH_(?:[A-Z0-9_]|<[A-Z]+>)*[A-Z0-9>]`).FindAllString(string(b), -1)
	if len(names) == 0 {
		t.Fatal("the README names no AUTH_ variable")
	}
	for _, name := range names {
		if !knownVariable(regexp.MustCompile(`<[A-Z]+>`).ReplaceAllString(name, "X")) {
			t.Errorf("the README names %s, which no setting reads", name)
		}
	}
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
