package storage

import (
	"slices"
	"sync/atomic"
)

// Codec turns a stored name into its plain form and back. storage/cipher's
// ClientCipher satisfies it. Decrypt must pass legacy plaintext through.
type Codec interface {
	Encrypt(plain string) string
	Decrypt(stored string) (string, error)
}

// Scope is one client's view of the store: its namespace, and how names
// are stored in it.
type Scope struct {
	// NS is the client's namespace: the hex SHA-256 of the normalised key.
	NS string
	// Names encrypts permission names and members' user names; nil stores
	// them as they are. Rows written before encryption was turned on (or by
	// a replica still running without it) stay in plain form: every lookup,
	// delete and duplicate check looks for both forms.
	Names Codec
	// EncryptDescriptions: with Names set, role descriptions are written
	// encrypted too. Descriptions are read through Names whenever it is
	// set, so turning this off later still shows plain text.
	EncryptDescriptions bool
	// PlainNames, with Names set, says whether the namespace may hold
	// plain names; nil means it may. While it says no, lookups, deletes
	// and the duplicate check of a write look for the encrypted form only,
	// which saves SQLite an IN list or a subquery on each (a two-value IN
	// in a DELETE costs SQLite 11 to 15 µs more than one value).
	PlainNames *atomic.Bool
}

// mayHoldPlain reports whether lookups must look for plain names too.
func (s Scope) mayHoldPlain() bool {
	return s.Names != nil && (s.PlainNames == nil || s.PlainNames.Load())
}

// storedName is how a permission or user name is written.
func (s Scope) storedName(name string) string {
	if s.Names == nil {
		return name
	}
	return s.Names.Encrypt(name)
}

// nameForms are the stored spellings a lookup must match: the encrypted
// form, and the plain one while the namespace may hold plain names.
func (s Scope) nameForms(name string) []string {
	if s.Names == nil {
		return []string{name}
	}
	if !s.mayHoldPlain() {
		return []string{s.Names.Encrypt(name)}
	}
	return []string{s.Names.Encrypt(name), name}
}

func (s Scope) plainName(stored string) (string, error) {
	if s.Names == nil {
		return stored, nil
	}
	return s.Names.Decrypt(stored)
}

// plainNames decrypts, sorts and deduplicates (a legacy plaintext row and
// its encrypted twin are one name).
func (s Scope) plainNames(stored []string) ([]string, error) {
	out := make([]string, 0, len(stored))
	for _, v := range stored {
		p, err := s.plainName(v)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return sortedUnique(out), nil
}

func (s Scope) storedDescription(d string) string {
	if s.Names == nil || !s.EncryptDescriptions || d == "" {
		return d
	}
	return s.Names.Encrypt(d)
}

func (s Scope) plainDescription(d string) (string, error) {
	if s.Names == nil {
		return d, nil
	}
	return s.Names.Decrypt(d)
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

// AuditName is how a permission or user name may appear in an audit
// record: its stored form, so that no plaintext of an encrypted name is
// written anywhere.
func (s Scope) AuditName(name string) string { return s.storedName(name) }
