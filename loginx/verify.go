package loginx

import (
	"context"
	"errors"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

// identity is what a verified login tells about the person.
type identity struct {
	Subject           string `json:"sub"`
	PreferredUsername string `json:"preferred_username"`
	Name              string `json:"name"`
	Email             string `json:"email"`
	EmailVerified     any    `json:"email_verified"`
	Picture           string `json:"picture"`
	Zoneinfo          string `json:"zoneinfo"`

	// tokenClaims are the claims of the verified ID token alone (not
	// filled from userinfo): the only source of a claim-derived user name.
	tokenClaims map[string]any
}

// emailVerified reads email_verified, which some providers send as a
// string.
func (id *identity) emailVerified() bool { return isTrue(id.EmailVerified) }

// fill copies into id the claims it lacks from other.
func (id *identity) fill(other *identity) {
	for _, f := range []struct{ dst, src *string }{
		{&id.PreferredUsername, &other.PreferredUsername}, {&id.Name, &other.Name},
		{&id.Email, &other.Email}, {&id.Picture, &other.Picture}, {&id.Zoneinfo, &other.Zoneinfo},
	} {
		if *f.dst == "" {
			*f.dst = *f.src
		}
	}
	if id.EmailVerified == nil {
		id.EmailVerified = other.EmailVerified
	}
}

// verify checks the ID token (signature by an allowed asymmetric
// algorithm with the provider's keys, issuer, audience, expiry, at_hash),
// then presents the access token to the userinfo endpoint and requires the
// same subject. Refusals are *apiError (401); outages wrap
// ErrProviderUnavailable.
func (p *provider) verify(ctx context.Context, rawIDToken, accessToken string) (*identity, error) {
	st, err := p.state(ctx)
	if err != nil {
		return nil, err
	}
	var keysDown error
	tok, err := st.verifier.Verify(context.WithValue(ctx, outageKey{}, &keysDown), rawIDToken)
	if err != nil {
		if keysDown != nil {
			return nil, keysDown
		}
		if outage(ctx, err) {
			return nil, errors.Join(ErrProviderUnavailable, err)
		}
		var exp *oidc.TokenExpiredError
		if errors.As(err, &exp) {
			return nil, unauthorized("invalid-token", "the ID token has expired")
		}
		return nil, unauthorized("invalid-token", "the ID token does not verify")
	}
	audOK := false
	for _, a := range tok.Audience {
		audOK = audOK || p.clients[a]
	}
	if !audOK {
		return nil, unauthorized("invalid-token", "the ID token is not for this application")
	}
	if tok.Subject == "" {
		return nil, unauthorized("invalid-token", "the ID token has no subject")
	}
	if tok.AccessTokenHash != "" {
		if err := tok.VerifyAccessToken(accessToken); err != nil {
			return nil, unauthorized("invalid-token", "the access token does not match the ID token's at_hash")
		}
	}
	var id identity
	if err := tok.Claims(&id); err != nil {
		return nil, unauthorized("invalid-token", "the ID token's claims are malformed")
	}
	if err := tok.Claims(&id.tokenClaims); err != nil {
		return nil, unauthorized("invalid-token", "the ID token's claims are malformed")
	}
	if err := p.checkClaims(tok.Audience, tok.IssuedAt, id.tokenClaims); err != nil {
		return nil, err
	}
	info, err := p.userInfo(ctx, st.userInfoURL, accessToken)
	if err != nil {
		return nil, err
	}
	if info.Subject != tok.Subject {
		return nil, unauthorized("invalid-token", "the access token and the ID token belong to different users")
	}
	id.fill(info)
	return &id, nil
}

// outage reports whether err means the provider could not be reached (or
// the request ran out of time), rather than a bad token.
func outage(ctx context.Context, err error) bool {
	return errors.Is(err, ErrProviderUnavailable) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, context.Canceled) || ctx.Err() != nil
}

// checkClaims adds what the go-oidc verifier leaves out. It allows five
// minutes of skew on nbf and checks neither iat nor azp; here nbf and iat
// may be ahead of our clock by the configured leeway only (a few seconds),
// and a token for several audiences must name us as its authorized party
// (OpenID Connect Core 3.1.3.7), or a token issued to another client that
// merely lists us would log in.
func (p *provider) checkClaims(aud []string, iat time.Time, claims map[string]any) error {
	limit := p.now().Add(p.leeway)
	nbf, _ := claims["nbf"].(float64)
	if nbf != 0 && time.Unix(int64(nbf), 0).After(limit) || iat.After(limit) {
		return unauthorized("invalid-token", "the ID token is not valid yet")
	}
	if len(aud) > 1 {
		azp, _ := claims["azp"].(string)
		if !p.clients[azp] {
			return unauthorized("invalid-token", "the ID token is for several audiences and its azp is not this application")
		}
	}
	return nil
}
