package loginx

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"

	"github.com/rolegate/rolegate/middleware"
)

// A user's RBAC name never comes from a claim the user controls or from an
// unverified one. By default it is derived from the provider and the
// subject, which the provider alone assigns: unique by construction and
// stable across logins. A provider may name a claim instead (UserClaim);
// that claim is read from the verified ID token only (never from the
// userinfo answer alone), and only when the provider vouches for it.

// hashedSubjectMark starts the subject part of a derived name when the
// subject cannot be used as it is (too long, or characters a name may not
// hold). Subjects that start with it are hashed too, so a plain subject
// can never produce the name of a hashed one.
const hashedSubjectMark = "~"

// subjectUsername is the default RBAC name: "<service>:<subject>", or
// "<service>:~<sha256 hex of subject>" when that is not a valid name or
// not in NFC (rolegate's names are NFC everywhere; normalising a subject
// could make two subjects one name, hashing cannot).
// Provider names never contain ':' (ProviderConfig.validate), so the
// service part ends at the first ':' and two providers never share a name.
func subjectUsername(service, subject string) string {
	if !strings.HasPrefix(subject, hashedSubjectMark) {
		// A subject not in NFC is hashed too: the guards normalise names
		// to NFC, so its plain name would be another subject's.
		if n := service + ":" + subject; middleware.ValidName(n) && middleware.NormalizeName(n) == n {
			return n
		}
	}
	sum := sha256.Sum256([]byte(subject))
	return service + ":" + hashedSubjectMark + hex.EncodeToString(sum[:])
}

// verifiedBy names, for the claims that have one, the claim by which the
// provider says it checked the value. Such a claim is used only when its
// flag is true in the same ID token.
var verifiedBy = map[string]string{
	"email":        "email_verified",
	"phone_number": "phone_number_verified",
}

// claimUsername reads the provider's UserClaim from the verified ID token
// claims, prepared with the PRECIS UsernameCasePreserved profile (which
// puts it in NFC); an email claim must be one e-mail address. E-mail addresses have their ASCII letters lower-cased (the domain is case-insensitive
// and providers differ in case), so an admin grants to the lower-case
// address. It refuses (403) a missing, non-string, unverified or invalid
// value: falling back to another name would give the person an identity
// the admin did not expect.
func claimUsername(claim string, tokenClaims map[string]any) (string, error) {
	v, _ := tokenClaims[claim].(string)
	if v == "" {
		return "", claimRefused(fmt.Sprintf("the ID token has no %s claim, which this provider's user names come from", claim))
	}
	if flag, ok := verifiedBy[claim]; ok && !isTrue(tokenClaims[flag]) {
		return "", claimRefused(fmt.Sprintf("the provider has not verified the %s claim (%s is not true in the ID token)", claim, flag))
	}
	// Prepared first (RFC 8265, UsernameCasePreserved: full-width and
	// half-width forms mapped to their usual ones, NFC, code points an
	// identifier may not hold refused), so that the checks below and the
	// taken-name check see the form a look-alike would take: "p1\uff1aalice"
	// (a full-width colon) is "p1:alice". NFC also because names are one
	// name in all their forms everywhere else.
	p, err := precis.UsernameCasePreserved.String(v)
	if err != nil {
		return "", claimRefused(fmt.Sprintf("the %s claim is not a valid user name (RFC 8265)", claim))
	}
	v = middleware.NormalizeName(p)
	if claim == "email" {
		// An address, and only one: no display name, no group, no list.
		if a, err := mail.ParseAddress(v); err != nil || a.Address != v || a.Name != "" {
			return "", claimRefused("the email claim is not an e-mail address")
		}
		v = lowerASCII(v)
	}
	if !middleware.ValidName(v) {
		return "", claimRefused(fmt.Sprintf("the %s claim is not a valid user name", claim))
	}
	// "<provider>:<subject>" is the shape of default names, which an
	// admin may grant to before that user's first login: a claim of that
	// shape (from this provider or any, configured now or later) would
	// take them.
	if i := strings.IndexByte(v, ':'); i > 0 && utf8.RuneCountInString(v[:i]) <= MaxProviderName {
		return "", claimRefused(fmt.Sprintf("the %s claim has the shape of a provider's default user name (provider:subject)", claim))
	}
	return v, nil
}

// lowerASCII lower-cases the ASCII letters of s only. strings.ToLower
// would also fold other characters into ASCII (the Kelvin sign U+212A
// becomes "k"), turning a different address into someone else's name.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

// isTrue reads a verification flag, which some providers send as a string.
func isTrue(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return v == "true"
	}
	return false
}

func claimRefused(msg string) *apiError {
	return &apiError{http.StatusForbidden, "user-claim-refused", msg}
}

func usernameTaken() *apiError {
	return &apiError{http.StatusConflict, "username-taken", "the user name this login maps to belongs to another account; an administrator must resolve it"}
}

// sanitizeName makes s a display name of at most max runes: invalid
// UTF-8 and control characters dropped, '/' as '_', surrounding white
// space trimmed. It may return "".
func sanitizeName(s string, max int) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r):
			return -1
		case r == '/':
			return '_'
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > max {
		s = strings.TrimSpace(string([]rune(s)[:max]))
	}
	return s
}
