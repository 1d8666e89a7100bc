package cipher_test

import (
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/rolegate/rolegate/storage/cipher"
)

func Example() {
	// Once, at startup: the slow passphrase derivation.
	c, err := cipher.New("correct horse battery staple")
	if err != nil {
		panic(err)
	}

	// Per client: the namespace id is the SHA-256 digest of the client key.
	ns := sha256.Sum256([]byte("3f2b8c1e-9a4d-4e7b-8c2f-1d5e6a7b8c9d"))
	cc := c.ForClient(ns[:])

	stored := cc.Encrypt("alice")
	fmt.Println(stored, cipher.IsEncrypted(stored))

	plain, err := cc.Decrypt(stored)
	fmt.Println(plain, err)

	// Rows written before encryption was turned on read as they are.
	legacy, err := cc.Decrypt("bob")
	fmt.Println(legacy, err)

	// Another client's value, or a value under another key, is refused.
	other := sha256.Sum256([]byte("c0ffee00-1234-4abc-9def-0123456789ab"))
	_, err = c.ForClient(other[:]).Decrypt(stored)
	fmt.Println(errors.Is(err, cipher.ErrTampered))
	// Output:
	// /e1/9ZPa-u5MvZ-Y6elRQWYGci41Of4o true
	// alice <nil>
	// bob <nil>
	// true
}
