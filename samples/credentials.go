package samples

import (
	"crypto/sha256"
	"crypto/subtle"
)

// digest is a fixed-length stand-in for a secret, so that comparisons take
// the same time whatever the lengths of the stored and presented values.
type digest [sha256.Size]byte

func digestOf(s string) digest { return sha256.Sum256([]byte(s)) }

// equal compares two digests in constant time and returns 1 or 0.
func (d digest) equal(s string) int {
	got := digestOf(s)
	return subtle.ConstantTimeCompare(d[:], got[:])
}

// credentials holds the digests of the configured secrets; the plain values
// are not kept.
type credentials struct {
	username, password, apiKey digest
}

func newCredentials(c Config) credentials {
	return credentials{
		username: digestOf(c.Username),
		password: digestOf(c.Password),
		apiKey:   digestOf(c.APIKey),
	}
}

// basic reports whether user and pass match. Both are always compared, and
// the results combined without branching, so timing tells nothing about
// which one was wrong.
func (cr credentials) basic(user, pass string, ok bool) bool {
	u := cr.username.equal(user)
	p := cr.password.equal(pass)
	return ok && u&p == 1
}

// basicAndKey reports whether user, pass and key all match, comparing all
// three every time.
func (cr credentials) basicAndKey(user, pass string, ok bool, key string) bool {
	u := cr.username.equal(user)
	p := cr.password.equal(pass)
	k := cr.apiKey.equal(key)
	return ok && u&p&k == 1
}
