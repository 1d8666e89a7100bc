package loginxtest

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"maps"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// Option shapes an ID token.
type Option func(*tokenSpec)

type tokenSpec struct {
	claims   map[string]any
	kid      string
	ec       bool
	otherKey bool
	alg      string // "", "none" or "HS256-public"
	tamper   bool
	noAtHash bool
	badHash  bool
}

// Expired makes the token expire an hour ago.
func Expired() Option {
	return func(s *tokenSpec) {
		s.claims["iat"] = time.Now().Add(-2 * time.Hour).Unix()
		s.claims["exp"] = time.Now().Add(-time.Hour).Unix()
	}
}

// NotBeforeFuture sets nbf an hour ahead.
func NotBeforeFuture() Option {
	return func(s *tokenSpec) { s.claims["nbf"] = time.Now().Add(time.Hour).Unix() }
}

// Audience replaces the aud claim.
func Audience(aud ...string) Option { return func(s *tokenSpec) { s.claims["aud"] = aud } }

// Issuer replaces the iss claim.
func Issuer(iss string) Option { return func(s *tokenSpec) { s.claims["iss"] = iss } }

// Claim sets any claim.
func Claim(name string, v any) Option { return func(s *tokenSpec) { s.claims[name] = v } }

// UnknownKey signs with a fresh key whose kid is not in the JWKS.
func UnknownKey() Option {
	return func(s *tokenSpec) { s.otherKey, s.kid = true, "unknown-kid" }
}

// SignEC signs with the provider's EC key (ES256).
func SignEC() Option { return func(s *tokenSpec) { s.ec = true } }

// AtHashMismatch puts the at_hash of another access token.
func AtHashMismatch() Option { return func(s *tokenSpec) { s.badHash = true } }

// NoAtHash leaves out at_hash.
func NoAtHash() Option { return func(s *tokenSpec) { s.noAtHash = true } }

// AlgNone produces an unsigned token with "alg":"none".
func AlgNone() Option { return func(s *tokenSpec) { s.alg = "none" } }

// HS256WithPublicKey signs with HMAC-SHA256 keyed by the provider's RSA
// public key in PEM (the algorithm-confusion attack).
func HS256WithPublicKey() Option { return func(s *tokenSpec) { s.alg = "HS256-public" } }

// Tampered signs the token, then swaps in a payload whose sub is changed,
// keeping the original signature.
func Tampered() Option { return func(s *tokenSpec) { s.tamper = true } }

// IDToken mints an ID token for u bound to accessToken, shaped by opts.
func (p *Provider) IDToken(u User, accessToken string, opts ...Option) string {
	now := time.Now()
	s := &tokenSpec{kid: RSAKeyID, claims: map[string]any{
		"iss": p.Issuer(), "sub": u.Subject, "aud": DefaultClientID,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	}}
	var extra map[string]any
	b, _ := json.Marshal(u)
	_ = json.Unmarshal(b, &extra)
	maps.Copy(s.claims, extra)
	for _, o := range opts {
		o(s)
	}
	if s.ec {
		s.kid = ECKeyID
	}
	if !s.noAtHash {
		h := accessToken
		if s.badHash {
			h = accessToken + "-other"
		}
		sum := sha256.Sum256([]byte(h))
		s.claims["at_hash"] = base64.RawURLEncoding.EncodeToString(sum[:16])
	}
	payload, _ := json.Marshal(s.claims)
	switch s.alg {
	case "none":
		return b64(`{"alg":"none","typ":"JWT"}`) + "." + b64(string(payload)) + "."
	case "HS256-public":
		der, _ := x509.MarshalPKIXPublicKey(&p.rsaKey.PublicKey)
		pemKey := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
		signing := b64(`{"alg":"HS256","typ":"JWT","kid":"`+RSAKeyID+`"}`) + "." + b64(string(payload))
		m := hmac.New(sha256.New, pemKey)
		m.Write([]byte(signing))
		return signing + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}
	tok := p.sign(s, payload)
	if s.tamper {
		parts := strings.Split(tok, ".")
		forged := maps.Clone(s.claims)
		forged["sub"] = u.Subject + "-admin"
		fp, _ := json.Marshal(forged)
		parts[1] = b64(string(fp))
		tok = strings.Join(parts, ".")
	}
	return tok
}

func (p *Provider) sign(s *tokenSpec, payload []byte) string {
	var key any = p.rsaKey
	alg := jose.RS256
	switch {
	case s.otherKey:
		key = p.strangerKey()
	case s.ec:
		key, alg = p.ecKey, jose.ES256
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: jose.JSONWebKey{Key: key, KeyID: s.kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		panic(err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		panic(err)
	}
	out, err := jws.CompactSerialize()
	if err != nil {
		panic(err)
	}
	return out
}

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// strangerKey is a key that is not in the provider's JWKS, made once per
// provider (RSA key generation is slow).
func (p *Provider) strangerKey() *rsa.PrivateKey {
	p.otherOnce.Do(func() {
		p.other, _ = rsa.GenerateKey(rand.Reader, 2048)
	})
	return p.other
}
