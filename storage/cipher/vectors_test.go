package cipher

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"
)

// vectors mirrors testdata/vectors.json, written by testdata/gen_vectors.py
// from Python's hashlib/hmac and the openssl command line, not from this
// package.
type vectors struct {
	Salt        string `json:"salt"`
	Iterations  int    `json:"iterations"`
	Prefix      string `json:"prefix"`
	Passphrases []struct {
		Passphrase string `json:"passphrase"`
		AESKey     string `json:"aes_key"`
		MACKey     string `json:"mac_key"`
		CheckValue string `json:"check_value"`
		Clients    []struct {
			ClientKey string `json:"client_key"`
			Namespace string `json:"namespace"`
			AESKey    string `json:"aes_key"`
			MACKey    string `json:"mac_key"`
			Values    []struct {
				Plaintext string `json:"plaintext"`
				Stored    string `json:"stored"`
			} `json:"values"`
		} `json:"clients"`
	} `json:"passphrases"`
}

func TestKnownAnswerVectors(t *testing.T) {
	data, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if v.Salt != legacySalt || v.Iterations != iterations || v.Prefix != Prefix {
		t.Fatalf("vectors made for salt %q, %d iterations, prefix %q; code has %q, %d, %q",
			v.Salt, v.Iterations, v.Prefix, legacySalt, iterations, Prefix)
	}
	if len(v.Passphrases) < 2 {
		t.Fatalf("want vectors for at least 2 passphrases, got %d", len(v.Passphrases))
	}
	n := 0
	for _, pv := range v.Passphrases {
		c, err := New(pv.Passphrase)
		if err != nil {
			t.Fatal(err)
		}
		checkHex(t, "master AES key of "+pv.Passphrase, c.aesKey, pv.AESKey)
		checkHex(t, "master MAC key of "+pv.Passphrase, c.macKey, pv.MACKey)
		if got := c.CheckValue(); got != pv.CheckValue {
			t.Errorf("CheckValue(%q) = %s, want %s", pv.Passphrase, got, pv.CheckValue)
		}
		for _, cv := range pv.Clients {
			ns, err := hex.DecodeString(cv.Namespace)
			if err != nil {
				t.Fatal(err)
			}
			checkHex(t, "client AES key of "+cv.ClientKey, deriveSubkey(c.aesKey, aesLabel, ns), cv.AESKey)
			checkHex(t, "client MAC key of "+cv.ClientKey, deriveSubkey(c.macKey, macLabel, ns), cv.MACKey)
			cc := c.ForClient(ns)
			for _, val := range cv.Values {
				if got := cc.Encrypt(val.Plaintext); got != val.Stored {
					t.Errorf("Encrypt(%q) under %s = %s, want %s", val.Plaintext, cv.ClientKey, got, val.Stored)
				}
				got, err := cc.Decrypt(val.Stored)
				if err != nil || got != val.Plaintext {
					t.Errorf("Decrypt(%s) under %s = %q, %v; want %q", val.Stored, cv.ClientKey, got, err, val.Plaintext)
				}
				n++
			}
		}
	}
	t.Logf("checked %d encryption vectors", n)
}

func checkHex(t *testing.T, what string, got []byte, want string) {
	t.Helper()
	if g := hex.EncodeToString(got); g != want {
		t.Errorf("%s = %s, want %s", what, g, want)
	}
}
