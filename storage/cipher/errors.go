package cipher

import "errors"

// ErrMalformed reports a stored value that carries the encryption prefix
// but is not a well-formed encrypted value: bad or non-canonical base64, or
// too short to hold an IV.
var ErrMalformed = errors.New("cipher: malformed encrypted value")

// ErrTampered reports an encrypted value whose authenticator does not match
// its decrypted contents: it was written under another key (or another
// client's subkey), or it was altered. No plaintext is returned with it.
var ErrTampered = errors.New("cipher: encrypted value does not authenticate (wrong key or tampered)")

// ErrOtherKey reports a format-2 value written under another key (another
// key generation): during a key rotation, the previous key's cipher reads
// it.
var ErrOtherKey = errors.New("cipher: value encrypted under another key")
