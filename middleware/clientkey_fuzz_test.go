package middleware

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func FuzzParseClientKey(f *testing.F) {
	for _, s := range []string{
		validKey,
		strings.ToUpper(validKey),
		"3f2504e0-4f89-11d3-9a0c-0305e82c3301",
		"00000000-0000-0000-0000-000000000000",
		"3f2504e04f8941d39a0c0305e82c3301",
		"{" + validKey + "}",
		"urn:uuid:" + validKey,
		" " + validKey,
		validKey + "\n",
		"3f2504e0-4f89-41d3-ca0c-0305e82c3301",
		"",
		"\xff\xfe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseClientKey(s)
		// Differential check against google/uuid: every 36-character form
		// it reads as a v4 RFC 4122 UUID must be accepted.
		if u, perr := uuid.Parse(s); perr == nil && len(s) == 36 && u.Version() == 4 &&
			u.Variant() == uuid.RFC4122 && err != nil {
			t.Fatalf("ParseClientKey(%q) rejected a UUID v4: %v", s, err)
		}
		if err != nil {
			if !errors.Is(err, ErrInvalidClientKey) || got != "" {
				t.Fatalf("ParseClientKey(%q) = %q, %v", s, got, err)
			}
			return
		}
		// Accepted: the canonical lower-case form of a v4, RFC 4122 UUID
		// equal to the input up to letter case, and a fixed point.
		if got != strings.ToLower(s) || !strings.EqualFold(got, s) {
			t.Fatalf("ParseClientKey(%q) = %q, not the input lower-cased", s, got)
		}
		u, perr := uuid.Parse(got)
		if perr != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != got {
			t.Fatalf("ParseClientKey accepted %q, which is not a canonical UUID v4 (%v)", s, perr)
		}
		again, err := ParseClientKey(got)
		if err != nil || again != got {
			t.Fatalf("re-parse of %q = %q, %v", got, again, err)
		}
	})
}
