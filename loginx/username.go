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
// claims. The name is the claim exactly, except that an e-mail address has
// its ASCII letters lower-cased (the domain is case-insensitive and
// providers differ in case), so an admin grants to the lower-case address.
// It refuses (403) a missing, non-string, unverified or invalid value, one
// that the PRECIS UsernameCasePreserved profile would change (full-width
// forms, not NFC) and one that mixes scripts within a part (see
// mixesScripts): falling back to another name would give the person an
// identity the admin did not expect. An email claim must be one address.
func claimUsername(claim string, tokenClaims map[string]any) (string, error) {
	v, _ := tokenClaims[claim].(string)
	if v == "" {
		return "", claimRefused(fmt.Sprintf("the ID token has no %s claim, which this provider's user names come from", claim))
	}
	if flag, ok := verifiedBy[claim]; ok && !isTrue(tokenClaims[flag]) {
		return "", claimRefused(fmt.Sprintf("the provider has not verified the %s claim (%s is not true in the ID token)", claim, flag))
	}
	// The name is the claim as it is: never a form a fold made of it.
	// PRECIS (RFC 8265, UsernameCasePreserved) refuses code points an
	// identifier may not hold; what it would map (full-width and half-width
	// forms, text that is not NFC) is refused too, because the mapped form
	// is another identity's exact claim: a verified "\uff42\uff4f\uff42@..."
	// logging in first took "bob@..." and its grants, and bob got 409.
	p, err := precis.UsernameCasePreserved.String(v)
	if err != nil {
		return "", claimRefused(fmt.Sprintf("the %s claim is not a valid user name (RFC 8265)", claim))
	}
	if p != v {
		return "", claimRefused(fmt.Sprintf("the %s claim is not in its plain form (full-width or half-width characters, or not NFC); it is refused rather than read as the claim it would fold to", claim))
	}
	if mixesScripts(v) {
		return "", claimRefused(fmt.Sprintf("the %s claim mixes scripts within one part (as Latin with Cyrillic or Greek), so it can pass for another name", claim))
	}
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
