package storage

import (
	"crypto/sha256"
	"encoding/hex"
)

// NamespaceOf is the namespace of a normalised client key: the hex SHA-256
// digest. The key itself is never stored, so a copy of the database gives
// nobody a working key.
func NamespaceOf(normalisedKey string) string {
	sum := sha256.Sum256([]byte(normalisedKey))
	return hex.EncodeToString(sum[:])
}
