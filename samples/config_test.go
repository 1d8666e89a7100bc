package samples_test

import (
	"strings"
	"testing"

	"github.com/rolegate/rolegate/samples"
)

func TestConfigFromEnv(t *testing.T) {
	env := map[string]string{
		"AUTH_SAMPLES_USERNAME": "u",
		"AUTH_SAMPLES_PASSWORD": "p",
		"AUTH_SAMPLES_API_KEY":  "k",
		"AUTH_SAMPLES_NAME":     "N",
		"AUTH_SAMPLES_EMAIL":    "e@x",
	}
	got := samples.ConfigFromEnv(func(k string) string { return env[k] })
	want := samples.Config{Username: "u", Password: "p", APIKey: "k", Name: "N", Email: "e@x"}
	if got.Username != want.Username || got.Password != want.Password || got.APIKey != want.APIKey ||
		got.Name != want.Name || got.Email != want.Email || got.Now != nil {
		t.Errorf("ConfigFromEnv = %+v, want %+v", got, want)
	}
	if !got.Enabled() {
		t.Error("Enabled() = false with all three credentials set")
	}
	if empty := samples.ConfigFromEnv(func(string) string { return "" }); empty.Enabled() {
		t.Error("Enabled() = true with nothing set")
	}
}

func TestDisabledHint(t *testing.T) {
	for _, v := range []string{"AUTH_SAMPLES_USERNAME", "AUTH_SAMPLES_PASSWORD", "AUTH_SAMPLES_API_KEY"} {
		if !strings.Contains(samples.DisabledHint, v) {
			t.Errorf("DisabledHint does not mention %s", v)
		}
	}
	if strings.Contains(samples.DisabledHint, "\n") {
		t.Error("DisabledHint spans several lines")
	}
}
