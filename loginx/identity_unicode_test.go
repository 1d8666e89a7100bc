package loginx_test

import (
	"net/http"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestLoginClaimNamesUnicode: a claim-derived name is the claim itself.
// A decomposed "jose\u0301@..." is refused rather than read as the
// composed "jos\u00e9@...", which another provider's user then logs in
// as; a second login with the composed address at another provider is the
// 409 of a taken name, not a second account holding the same identity.
// And lower-casing must not turn a different address into someone else's:
// strings.ToLower folds the dotted capital I (U+0130) to an ASCII "i", so a
// verified "adm\u0130n@example.org" became "admin@example.org" and got
// admin's grants.
func TestLoginClaimNamesUnicode(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e, idp2, _ := twoProviders(t, db, "email", "email", map[string][]string{
			"admin@example.org": {"admin"}, "jos\u00e9@example.org": {"editor"},
		})
		me := e.meAt(e.idp, service, loginxtest.User{Subject: "dotted-i", Email: "adm\u0130n@example.org", EmailVerified: true})
		if me["username"] == "admin@example.org" {
			t.Errorf("a verified adm\\u0130n@example.org logged in as admin@example.org with roles %v", me["roles"])
		}

		code, body := e.loginAt(e.idp, service, loginxtest.User{Subject: "jose-nfd", Email: "jose\u0301@example.org", EmailVerified: true})
		wantError(t, code, body, http.StatusForbidden, "user-claim-refused")
		me = e.meAt(idp2, other, loginxtest.User{Subject: "jose-nfc", Email: "jos\u00e9@example.org", EmailVerified: true})
		if me["username"] != "jos\u00e9@example.org" {
			t.Errorf("the composed e-mail logged in as %q", me["username"])
		}
		code, body = e.loginAt(e.idp, service, loginxtest.User{Subject: "jose-2", Email: "jos\u00e9@example.org", EmailVerified: true})
		wantError(t, code, body, http.StatusConflict, "username-taken")
	})
}

// TestLoginLookalikeCannotTakeName: with the e-mail as the user name, a
// verified full-width "\uff42\uff4f\uff42@example.com" logging in first
// became "bob@example.com" with what was granted to bob in advance, and
// the real bob then got 409. A claim that a fold would change is now
// refused (403), and so is one mixing scripts in a part (a Cyrillic a in
// "\u0430lice@..."); bob and alice then log in under their names with
// their grants. An address wholly in Cyrillic is a name of its own.
func TestLoginLookalikeCannotTakeName(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e, _, _ := twoProviders(t, db, "email", "email", map[string][]string{
			"bob@example.com": {"admin"}, "alice@example.com": {"editor"},
		})
		for _, u := range []loginxtest.User{
			{Subject: "fullwidth", Email: "\uff42\uff4f\uff42@example.com", EmailVerified: true},
			{Subject: "halfwidth-domain", Email: "bob@\uff45xample.com", EmailVerified: true},
			{Subject: "cyrillic-a", Email: "\u0430lice@example.com", EmailVerified: true},
		} {
			code, body := e.loginAt(e.idp, service, u)
			if code == http.StatusOK {
				me := body["data"].(map[string]any)["me"].(map[string]any)
				t.Errorf("a verified %q logged in as %v with roles %v", u.Email, me["username"], me["roles"])
				continue
			}
			wantError(t, code, body, http.StatusForbidden, "user-claim-refused")
		}
		for _, real := range []struct{ sub, email, role string }{{"bob", "bob@example.com", "admin"}, {"alice", "alice@example.com", "editor"}} {
			me := e.meAt(e.idp, service, loginxtest.User{Subject: real.sub, Email: real.email, EmailVerified: true})
			if me["username"] != real.email || len(me["roles"].([]any)) != 1 || me["roles"].([]any)[0] != real.role {
				t.Errorf("%s logged in as %v with roles %v", real.email, me["username"], me["roles"])
			}
		}
		me := e.meAt(e.idp, service, loginxtest.User{Subject: "cyrillic", Email: "\u0430\u0440\u0435@example.com", EmailVerified: true})
		if me["username"] != "\u0430\u0440\u0435@example.com" || len(me["roles"].([]any)) != 0 {
			t.Errorf("an all-Cyrillic address logged in as %v with roles %v", me["username"], me["roles"])
		}
	})
}

// TestLoginClaimNameCannotBeDerivedName: a claim-derived name never takes
// the shape of another provider's default name "<provider>:<subject>",
// which an admin grants before that user's first login. A provider that
// vouched for the e-mail "testidp:victim" (or a custom claim holding it)
// gave its user the victim's name and grants, and the victim then got 409.
func TestLoginClaimNameCannotBeDerivedName(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e, idp2, _ := twoProviders(t, db, "", "email", map[string][]string{service + ":victim": {"admin"}})
		code, body := e.loginAt(idp2, other, loginxtest.User{Subject: "evil", Email: service + ":victim", EmailVerified: true})
		if code == http.StatusOK {
			me := body["data"].(map[string]any)["me"].(map[string]any)
			t.Fatalf("a verified e-mail %q logged in at %s as %v with roles %v", service+":victim", other, me["username"], me["roles"])
		}
		wantError(t, code, body, http.StatusForbidden, "user-claim-refused")
		me := e.meAt(e.idp, service, loginxtest.User{Subject: "victim"})
		if me["username"] != service+":victim" {
			t.Errorf("the victim logged in as %v", me["username"])
		}
	})
}
