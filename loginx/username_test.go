package loginx

import (
	"strings"
	"testing"

	"github.com/rolegate/rolegate/middleware"
)

// FuzzUsername: whatever the subject or claim, the derived user name is a
// valid rolegate name, two subjects never share one, and a claim-derived
// name is either valid or refused.
func FuzzUsername(f *testing.F) {
	for _, s := range []string{"alice", " a/b ", "\x00\x01", strings.Repeat("é", 200), "\xff\xfe", "  ", "a@b.c", "~abc", "x"} {
		f.Add(s, s+"x", s)
	}
	f.Fuzz(func(t *testing.T, sub1, sub2, claim string) {
		n1, n2 := subjectUsername("idp", sub1), subjectUsername("idp", sub2)
		if !middleware.ValidName(n1) || !middleware.ValidName(n2) {
			t.Fatalf("name %q or %q (subjects %q, %q) is not a valid name", n1, n2, sub1, sub2)
		}
		if sub1 != sub2 && n1 == n2 {
			t.Fatalf("subjects %q and %q share the name %q", sub1, sub2, n1)
		}
		n, err := claimUsername("email", map[string]any{"email": claim, "email_verified": true})
		if err == nil && !middleware.ValidName(n) {
			t.Fatalf("claim %q gave the invalid name %q", claim, n)
		}
	})
}

func TestSubjectUsername(t *testing.T) {
	long := strings.Repeat("9", 200)
	for _, tc := range []struct{ sub, want string }{
		{"1098", "google:1098"},
		{"a/b", "google:~"},        // '/' cannot be in a name: hashed
		{"~1098", "google:~"},      // the mark itself: hashed, so no plain subject mimics a hash
		{long, "google:~"},         // too long: hashed
		{"jose\u0301", "google:~"}, // not NFC: the guards would read it as another subject's "jos\u00e9"
		{"jos\u00e9", "google:jos\u00e9"},
		{"user@x.org", "google:user@x.org"},
	} {
		got := subjectUsername("google", tc.sub)
		if tc.want == "google:~" {
			if !strings.HasPrefix(got, "google:~") || len(got) != len("google:~")+64 {
				t.Errorf("subject %q: %q, want a hashed name", tc.sub, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("subject %q: %q, want %q", tc.sub, got, tc.want)
		}
	}
}

// Names from logins are NFC like every rolegate name: a subject that is
// not NFC is hashed (two subjects never share a name), a claim is
// normalised.
func TestLoginNamesAreNFC(t *testing.T) {
	decomposed, composed := "jose\u0301", "jos\u00e9"
	if n := subjectUsername("acme", decomposed); n == "acme:"+decomposed || n == "acme:"+composed || !strings.HasPrefix(n, "acme:~") {
		t.Errorf("subject %q gave %q, want the hashed form", decomposed, n)
	}
	if n := subjectUsername("acme", composed); n != "acme:"+composed {
		t.Errorf("NFC subject %q gave %q", composed, n)
	}
}

// TestClaimNamesAreTheClaim: the name a claim gives is the claim itself
// (an e-mail's ASCII letters lower-cased), never a fold of it that another
// identity's exact claim would give: full-width letters, text not in NFC
// and the Kelvin sign (whose NFC is "K") are refused, as is a part that
// mixes scripts. Parts wholly in one script stay names of their own.
func TestClaimNamesAreTheClaim(t *testing.T) {
	for _, c := range []struct {
		claim, value, want string // want "": refused
	}{
		{"email", "p1\uff1aalice", ""},
		{"employee_id", "p1\uff1aalice", ""},
		{"employee_id", "e\u3000123", ""}, // an ideographic space is no identifier
		{"email", "\uff41lice@example.org", ""},
		{"email", "\uff42\uff4f\uff42@example.com", ""},
		{"employee_id", "\uff25\uff11\uff12", ""},
		{"email", "Jose\u0301@example.org", ""},  // NFD: "jos\u00e9@example.org" is someone's exact claim
		{"email", "\u212aate@example.org", ""},   // Kelvin sign: NFC makes it "Kate"
		{"email", "\u0430lice@example.com", ""},  // Cyrillic a in a Latin part
		{"email", "g\u03bfogle@example.com", ""}, // Greek omicron
		{"email", "alice@ex\u0430mple.com", ""},  // in the domain too
		{"email", "not an address", ""},
		{"email", "Sara <sara@example.org>", ""},
		{"email", "sara@example.org", "sara@example.org"},
		{"email", "Sara@Example.ORG", "sara@example.org"},
		{"email", "jos\u00e9@example.org", "jos\u00e9@example.org"},
		{"email", "\u0430\u0440\u0435@example.com", "\u0430\u0440\u0435@example.com"}, // all Cyrillic: a name of its own
		{"email", "ivan@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444", "ivan@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444"},
		{"employee_id", "\u5c71\u7530\u305f\u308d\u3046-7", "\u5c71\u7530\u305f\u308d\u3046-7"}, // Han with Hiragana
		{"employee_id", "E-1234", "E-1234"},
	} {
		claims := map[string]any{c.claim: c.value, "email_verified": true}
		n, err := claimUsername(c.claim, claims)
		if c.want == "" {
			if err == nil {
				t.Errorf("%s %q gave the name %q, want a refusal", c.claim, c.value, n)
			}
			continue
		}
		if err != nil || n != c.want {
			t.Errorf("%s %q gave %q, %v; want %q", c.claim, c.value, n, err, c.want)
		}
	}
}
