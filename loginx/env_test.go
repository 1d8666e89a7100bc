package loginx_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/rolegate/rolegate/loginx"
)

func TestProvidersFromEnv(t *testing.T) {
	env := map[string]string{
		"AUTH_OAUTH_PROVIDERS":           "google, my-idp",
		"AUTH_OAUTH_GOOGLE_ISSUER":       "https://accounts.google.com",
		"AUTH_OAUTH_GOOGLE_CLIENT_ID":    "a.apps, b.apps",
		"AUTH_OAUTH_MY_IDP_ISSUER":       "https://idp.example.org/realms/x",
		"AUTH_OAUTH_MY_IDP_CLIENT_ID":    "app",
		"AUTH_OAUTH_MY_IDP_JWKS_URL":     "https://idp.example.org/keys",
		"AUTH_OAUTH_MY_IDP_USERINFO_URL": "https://idp.example.org/me",
		"AUTH_OAUTH_MY_IDP_USER_CLAIM":   "email",
	}
	got, err := loginx.ProvidersFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	want := []loginx.ProviderConfig{
		{Name: "google", Issuer: "https://accounts.google.com", ClientIDs: []string{"a.apps", "b.apps"}},
		{Name: "my-idp", Issuer: "https://idp.example.org/realms/x", ClientIDs: []string{"app"},
			JWKSURL: "https://idp.example.org/keys", UserInfoURL: "https://idp.example.org/me", UserClaim: "email"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	none, err := loginx.ProvidersFromEnv(func(string) string { return "" })
	if err != nil || none != nil {
		t.Fatalf("unset: %v %v", none, err)
	}
	bad := []struct{ name, mention string }{
		{"missing issuer", "AUTH_OAUTH_X_ISSUER"},
		{"bad issuer", "AUTH_OAUTH_X_ISSUER"},
		{"missing client", "AUTH_OAUTH_X_CLIENT_ID"},
		{"bad jwks", "AUTH_OAUTH_X_JWKS_URL"},
		{"clash", "AUTH_OAUTH_X_"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			e := map[string]string{"AUTH_OAUTH_PROVIDERS": "x", "AUTH_OAUTH_X_ISSUER": "https://x.example", "AUTH_OAUTH_X_CLIENT_ID": "c"}
			switch tc.name {
			case "missing issuer":
				delete(e, "AUTH_OAUTH_X_ISSUER")
			case "bad issuer":
				e["AUTH_OAUTH_X_ISSUER"] = "x.example"
			case "missing client":
				e["AUTH_OAUTH_X_CLIENT_ID"] = " , "
			case "bad jwks":
				e["AUTH_OAUTH_X_JWKS_URL"] = "ftp://x"
			case "clash":
				e["AUTH_OAUTH_PROVIDERS"] = "x,X"
			}
			_, err := loginx.ProvidersFromEnv(func(k string) string { return e[k] })
			if err == nil || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("error %v, want one naming %s", err, tc.mention)
			}
		})
	}
}
