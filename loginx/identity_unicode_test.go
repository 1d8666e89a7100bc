package loginx_test

import (
	"net/http"
	"testing"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/loginx/loginxtest"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestLoginClaimNamesUnicode: a claim-derived name is one user whatever
// its Unicode form. A decomposed "josé@…" at one provider and the composed
// one at another are the same RBAC name (rolegate normalises names to NFC
// everywhere), so the second login is the 409 of a taken name, not a
// second account holding the same identity. And lower-casing must not
// turn a different address into someone else's: strings.ToLower folds
// the dotted capital I (U+0130) to an ASCII "i", so a verified
// "adm\u0130n@example.org" became "admin@example.org" and got admin's
// grants. (The Kelvin sign U+212A is NFC for "K", so "\u212aate@…" is
// kate's name by rolegate's rule of one name in all its forms.)
func TestLoginClaimNamesUnicode(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		e, idp2, _ := twoProviders(t, db, "email", "email", map[string][]string{
			"admin@example.org": {"admin"}, "jos\u00e9@example.org": {"editor"},
		})
		me := e.meAt(e.idp, service, loginxtest.User{Subject: "dotted-i", Email: "adm\u0130n@example.org", EmailVerified: true})
		if me["username"] == "admin@example.org" {
			t.Errorf("a verified adm\\u0130n@example.org logged in as admin@example.org with roles %v", me["roles"])
		}

		me = e.meAt(e.idp, service, loginxtest.User{Subject: "jose-nfd", Email: "jose\u0301@example.org", EmailVerified: true})
		if me["username"] != "jos\u00e9@example.org" {
			t.Errorf("decomposed e-mail logged in as %q, want the NFC name", me["username"])
		}
		code, body := e.loginAt(idp2, other, loginxtest.User{Subject: "jose-nfc", Email: "jos\u00e9@example.org", EmailVerified: true})
		wantError(t, code, body, http.StatusConflict, "username-taken")
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
