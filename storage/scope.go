package storage

import (
	"slices"
	"time"

	"github.com/rolegate/rolegate/storage/cipher"
)

// Codec turns a stored value of one column into its plain form and back.
// storage/cipher's ClientCipher (from Cipher.ForColumn) satisfies it.
type Codec interface {
	Encrypt(plain string) string
	Decrypt(stored string) (string, error)
}

// FormsCodec is a Codec that knows more than one stored form of a value:
// during a key rotation, the form under the new key and the one under the
// previous key. Lookups and deletes match every form; writes store
// Encrypt's.
type FormsCodec interface {
	Codec
	Forms(plain string) []string
}

// Scope is one client's view of the store: its namespace, and how names
// are stored in it.
type Scope struct {
	// NS is the client's namespace: the hex SHA-256 of the normalised key.
	NS string
	// Users and Permissions encrypt members' user names and permission
	// names, each bound to its column; nil (both) stores them as they are.
	// A store is either plain or encrypted throughout: rolegate converts
	// it when encryption is turned on (see Reencode).
	Users, Permissions Codec
	// Descriptions encrypts role descriptions when EncryptDescriptions is
	// set; descriptions are read through it whenever it is set (a
	// description that is not encrypted reads as it is), so turning
	// EncryptDescriptions off later still shows plain text.
	Descriptions        Codec
	EncryptDescriptions bool
	// KeyCheck is the key check value of the key this process writes
	// under, empty without encryption. A write is refused (ErrKeyMismatch)
	// when the store's writer key check value differs (see RecordChange).
	KeyCheck string
	// MaxInheritanceDepth and MaxRoleAncestors bound the shape of
	// inheritance: the longest chain of inheritances above a role, and the
	// roles it inherits from, directly or not. AddInheritance refuses
	// (ErrShapeLimit) what would pass either. 0 means the default (32 and
	// 256).
	MaxInheritanceDepth, MaxRoleAncestors int
	// Now is the time at which reads count time-bounded memberships and
	// grants (see Bounds); nil is the system clock.
	Now func() time.Time
}

// encrypted reports whether names are stored encrypted.
func (s Scope) encrypted() bool { return s.Users != nil }

// stored is how a name is written in the column of c.
func stored(c Codec, name string) string {
	if c == nil {
		return name
	}
	return c.Encrypt(name)
}

// forms are the stored spellings a lookup must match: one, except during
// a key rotation.
func forms(c Codec, name string) []string {
	switch c := c.(type) {
	case nil:
		return []string{name}
	case FormsCodec:
		return c.Forms(name)
	default:
		return []string{c.Encrypt(name)}
	}
}

func plain(c Codec, stored string) (string, error) {
	if c == nil {
		return stored, nil
	}
	return c.Decrypt(stored)
}

// plainAll decrypts, sorts and deduplicates.
func plainAll(c Codec, stored []string) ([]string, error) {
	out := make([]string, 0, len(stored))
	for _, v := range stored {
		p, err := plain(c, v)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return sortedUnique(out), nil
}

func (s Scope) storedUser(user string) string      { return stored(s.Users, user) }
func (s Scope) storedPerm(name string) string      { return stored(s.Permissions, name) }
func (s Scope) userForms(user string) []string     { return forms(s.Users, user) }
func (s Scope) permForms(name string) []string     { return forms(s.Permissions, name) }
func (s Scope) plainUser(v string) (string, error) { return plain(s.Users, v) }

func (s Scope) storedDescription(d string) string {
	if s.Descriptions == nil || !s.EncryptDescriptions || d == "" {
		return d
	}
	return s.Descriptions.Encrypt(d)
}

func (s Scope) plainDescription(d string) (string, error) {
	if s.Descriptions == nil || !cipher.IsEncrypted(d) {
		return d, nil
	}
	return s.Descriptions.Decrypt(d)
}

// sortedUnique sorts and deduplicates; never nil, so that an empty list is
// [] in JSON, not null.
func sortedUnique(v []string) []string {
	if v == nil {
		return []string{}
	}
	slices.Sort(v)
	return slices.Compact(v)
}

// AuditUser and AuditPermission are how a user or permission name may
// appear in an audit record: its stored form, so that no plaintext of an
// encrypted name is written anywhere.
func (s Scope) AuditUser(user string) string       { return s.storedUser(user) }
func (s Scope) AuditPermission(name string) string { return s.storedPerm(name) }
