// Package cipher is rolegate's encryption of stored names: deterministic,
// authenticated, versioned.
//
// It owns one thing, the primitive. Deciding which columns are encrypted,
// keeping the key check value in the store, and refusing to start with the
// wrong key belong to the storage and authz packages that use it.
//
// # Why deterministic
//
// Rolegate looks rows up by equality (has_membership, which_users_can, ...),
// so the same name must always be stored as the same bytes. Encrypt is
// therefore deterministic, and that leaks equality by design: whoever reads
// the database can tell that two rows hold the same name, and how long the
// name is, but not what it is. That is the trade-off for indexed equality
// lookups. Per-client subkeys keep the leak inside one client: the same
// name under two clients gives unrelated values.
//
// # Construction
//
// Keys. NewSalted derives 64 bytes from the passphrase (at least
// MinPassphraseLen characters) with PBKDF2-HMAC-SHA256, 100,000
// iterations, and a random 16-byte salt of the store's own (NewSalt), which
// the store keeps beside the key check value so that every replica derives
// the same keys; a guess at the passphrase then costs PBKDF2 per store.
// Stores made before per-store salts used the fixed application salt
// "rolegate/cipher/v1" (18 bytes); New derives their keys, so they keep
// opening. Both salts meet the 16-byte minimum of FIPS 140-3 mode (the
// tests pass under GODEBUG=fips140=only). Bytes 0-31
// are the master AES key, bytes 32-63 the master MAC key. This runs once at
// startup; note that 64 bytes are two PBKDF2-SHA256 blocks, so it costs
// 2 x 100,000 HMAC iterations.
//
// Format 2 (current). ForColumn derives, with HKDF-SHA256 (RFC 5869, empty
// salt), subkeys per client and per column:
//
//	aesKey = HKDF(master AES key, info = "rolegate/cipher/v2/aes" || column || 0x00 || namespace, 32 bytes)
//	macKey = HKDF(master MAC key, info = "rolegate/cipher/v2/mac" || column || 0x00 || namespace, 32 bytes)
//
// where namespace is the client's namespace id (the SHA-256 digest of the
// normalised client key) and column is ColumnUser, ColumnPermission or
// ColumnDescription. A value is therefore bound to its column and client:
// copied into another column (a description into a permission) or another
// client's rows, it fails to authenticate (ErrTampered) instead of
// granting anything. For a plaintext p,
//
//	iv     = HMAC-SHA256(macKey, p)[:16]
//	ct     = AES-256-CTR(aesKey, iv, p)
//	stored = "/e2" || kid || "/" || base64url-without-padding(iv || ct)
//
// where kid (KeyID) is the first 8 hex digits of HMAC-SHA256(master MAC
// key, "rolegate/cipher/v2/kid"). The key id lets the store find, in SQL,
// the values a key rotation has still to re-encrypt, and tells a reader
// which key a value needs (ErrOtherKey for another). A format-2 cipher
// has no plaintext passthrough: a value without its prefix is an error.
//
// The IV is a synthetic IV (as in SIV modes): it is both the CTR counter
// block and the authenticator. Decrypt recovers p and recomputes the HMAC;
// a mismatch means the wrong key, column or client, or a tampered value,
// and is reported as ErrTampered instead of returning garbage.
//
// Format 1 (ForClient) is the earlier, unbound format: subkeys per client
// only (labels "rolegate/cipher/v1/aes" and "/mac", info = label ||
// namespace), stored = "/e1/" || base64url(iv || ct), and a value without
// the prefix read as legacy plaintext. rolegate keeps it to read stores
// written before format 2, which it converts at startup, and for the
// session secret that loginx seals.
//
// # The prefixes
//
// A valid rolegate name can never contain '/', so a stored name that
// starts with "/e1/" or "/e2" is encrypted (IsEncrypted). A printable
// prefix, rather than a control byte, keeps the value valid in a
// PostgreSQL text column (which refuses NUL). Free text such as role
// descriptions may contain '/', so for them the prefix is unambiguous only
// because rolegate refuses descriptions that start with an encryption
// prefix.
//
// # Key check value
//
// CheckValue is hex(HMAC-SHA256(master MAC key, "rolegate/cipher/v1/check")).
// Kept in the store, it lets startup with a different passphrase be refused
// before any row is read. HMAC is a PRF, so the value reveals nothing about
// the key; it lets an attacker with the database test passphrase guesses at
// the cost of PBKDF2 per guess, which any stored ciphertext with a guessable
// plaintext allows already.
//
// The known-answer vectors in testdata/vectors.json were produced by
// testdata/gen_vectors.py from Python's hashlib/hmac and the openssl command
// line, independently of this code.
package cipher
