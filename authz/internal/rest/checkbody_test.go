package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// stdChecks decodes body as encoding/json would into the same shape, with
// unknown fields refused and nothing after the object.
func stdChecks(body []byte) ([]rawCheck, error) {
	var in struct {
		Checks []struct {
			User       string  `json:"user"`
			Permission string  `json:"permission"`
			Scope      *string `json:"scope"`
		} `json:"checks"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the object")
	}
	if in.Checks == nil {
		// encoding/json leaves a missing or null list nil; so does the
		// scanner's caller see none.
		return []rawCheck{}, nil
	}
	out := make([]rawCheck, len(in.Checks))
	for i, c := range in.Checks {
		out[i] = rawCheck{user: c.User, permission: c.Permission, scope: c.Scope}
	}
	if len(out) == 0 {
		return []rawCheck{}, nil
	}
	return out, nil
}

// agree holds the scanner to encoding/json: what it accepts, encoding/json
// accepts with the same strings; what encoding/json refuses, it refuses.
func agree(t *testing.T, body []byte) {
	t.Helper()
	got, err := scanChecks(body, 1<<20)
	want, stdErr := stdChecks(body)
	switch {
	case err == nil && stdErr != nil:
		t.Fatalf("%q: the scanner accepts what encoding/json refuses (%v): %+v", body, stdErr, got)
	case err != nil && stdErr == nil:
		// Stricter on purpose only: keys of another case, a key twice.
		if !errors.As(err, new(checkShapeError)) && !errors.Is(err, errCheckKeys) {
			t.Fatalf("%q: the scanner refuses (%v) what encoding/json accepts: %+v", body, err, want)
		}
	case err == nil:
		if len(got) != len(want) {
			t.Fatalf("%q: %d checks, encoding/json %d", body, len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.user != w.user || g.permission != w.permission || (g.scope == nil) != (w.scope == nil) || g.scope != nil && *g.scope != *w.scope {
				t.Fatalf("%q: check %d is %+v, encoding/json %+v", body, i, g, w)
			}
		}
	}
}

var checkBodySeeds = []string{
	`{"checks":[{"user":"alice","permission":"read"},{"user":"bob","permission":"edit","scope":"org-1"}]}`,
	` { "checks" : [ { "user" : "a" , "permission" : "b" , "scope" : null } ] } `,
	`{"checks":null}`, `{}`, `{"checks":[]}`, `{"checks":[{}]}`,
	`{"checks":[{"user":"caf\u00e9","permission":"\ud83d\ude00","scope":"\ud800x"}]}`,
	`{"checks":[{"user":"a\"b\\c\/d\b\f\n\r\t","permission":"p"}]}`,
	"{\"checks\":[{\"user\":\"\xff\xfe\",\"permission\":\"p\"}]}",
	`{"checks":[{"user":"a","permission":"b","User":"c"}]}`,
	`{"checks":[{"user":"a","user":"b"}]}`,
	`{"checks":[{"user":7}]}`, `{"checks":[7]}`, `{"checks":[[]]}`, `{"checks":[{"user":true}]}`,
	`{"checks":[{"user":"a"}],"checks":[]}`, `{"checks":{}}`, `{"other":1}`, `[]`, ``, `{"checks":[]} x`,
	`{"checks":[{"user":"a",}]}`, `{"checks":[{"user":"a"},]}`, `{"checks":[{"user":"\x"}]}`, `{"checks":[{"user":"\u12"}]}`,
	"{\"checks\":[{\"user\":\"a\x01b\"}]}", `{"checks":[{"user":"a"}]`, `{"checks":[{"user":"a"`, `{"checks":[{"user":"a\`,
	`{"checks":[{"user":nul}]}`, `{"checks":[{"user":-}]}`, `{"checks":[{"user":"a"}]}}`,
}

func TestCheckBodyAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range checkBodySeeds {
		agree(t, []byte(s))
	}
	// Mutations of the seeds: a byte changed, dropped or doubled.
	rng := rand.New(rand.NewPCG(7, 8))
	alphabet := []byte(`{}[]:,"\ u0123456789abcdefnrtUl` + "\x00\xff")
	for range 200_000 {
		b := []byte(checkBodySeeds[rng.IntN(len(checkBodySeeds))])
		for range 1 + rng.IntN(3) {
			if len(b) == 0 {
				break
			}
			i := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0:
				b[i] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				b = append(b[:i:i], b[i+1:]...)
			default:
				b = append(b[:i+1:i+1], b[i:]...)
			}
		}
		agree(t, b)
	}
}

// TestCheckBodyCountsAsItGoes: check max is refused by its index, however
// the body goes on.
func TestCheckBodyCountsAsItGoes(t *testing.T) {
	body := []byte(`{"checks":[{},{},{}, this is never read`)
	_, err := scanChecks(body, 2)
	var ce checkCountError
	if !errors.As(err, &ce) || ce.index != 2 {
		t.Fatalf("got %v, want check 2 refused", err)
	}
}

func FuzzCheckBody(f *testing.F) {
	for _, s := range checkBodySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) { agree(t, body) })
}
