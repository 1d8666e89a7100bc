package loginx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// maxKeySetBytes bounds what is read of a provider's key set.
const maxKeySetBytes = 1 << 20

// keySet is a provider's ID token keys. Unlike go-oidc's remote key set,
// which fetches the keys again after every signature that fails, it
// fetches only for a kid it does not know, and at most once per interval
// (per retryDiscoveryAfter after a failed fetch): a forged token, whatever
// its kid, cannot make rolegate call the provider on every request. A
// provider rotating its keys publishes the new kid before signing with it,
// and the first login with that kid after the interval fetches it.
type keySet struct {
	url      string
	client   *http.Client
	interval time.Duration
	now      func() time.Time
	algs     []jose.SignatureAlgorithm

	fetchMu   sync.Mutex   // one fetch at a time
	mu        sync.RWMutex // guards keys and nextFetch
	keys      []jose.JSONWebKey
	nextFetch time.Time // zero until the first fetch
	fetchErr  error     // of the last fetch, until one succeeds
}

func newKeySet(url string, client *http.Client, interval time.Duration, now func() time.Time) *keySet {
	algs := make([]jose.SignatureAlgorithm, len(allowedAlgs))
	for i, a := range allowedAlgs {
		algs[i] = jose.SignatureAlgorithm(a)
	}
	return &keySet{url: url, client: client, interval: interval, now: now, algs: algs}
}

// outageKey carries, in the context of one verification, where
// VerifySignature reports that the key set could not be fetched.
type outageKey struct{}

// errNoKey means no key of the provider verifies the token.
var errNoKey = errors.New("loginx: no key of the provider verifies the ID token")

// VerifySignature implements oidc.KeySet. The verifier has already checked
// the algorithm against the allow-list.
func (k *keySet) VerifySignature(ctx context.Context, raw string) ([]byte, error) {
	jws, err := jose.ParseSigned(raw, k.algs)
	if err != nil || len(jws.Signatures) != 1 {
		return nil, fmt.Errorf("loginx: malformed ID token")
	}
	kid := jws.Signatures[0].Header.KeyID
	keys, known, err := k.keysFor(ctx, kid)
	if err != nil {
		// go-oidc flattens this error to text; tell verify it was an outage.
		if o, ok := ctx.Value(outageKey{}).(*error); ok {
			*o = err
		}
		return nil, err
	}
	if !known {
		return nil, errNoKey
	}
	for i := range keys {
		if kid == "" || keys[i].KeyID == kid {
			if payload, err := jws.Verify(&keys[i]); err == nil {
				return payload, nil
			}
		}
	}
	return nil, errNoKey
}

// keysFor returns the keys, fetching them first when kid is unknown (or
// there are none yet) and the interval since the last fetch has passed.
// known says whether a key can match kid; "" matches any key.
func (k *keySet) keysFor(ctx context.Context, kid string) ([]jose.JSONWebKey, bool, error) {
	if keys, _, _ := k.current(); has(keys, kid) {
		return keys, true, nil
	}
	// Logins with known keys go on while a fetch runs.
	k.fetchMu.Lock()
	defer k.fetchMu.Unlock()
	keys, next, fetchErr := k.current()
	if has(keys, kid) {
		return keys, true, nil // fetched while this one waited
	}
	if !next.IsZero() && k.now().Before(next) {
		// Too soon to fetch again; while the provider is failing that is
		// still an outage, not a bad token.
		return nil, false, fetchErr
	}
	fetched, err := k.fetch(ctx)
	k.mu.Lock()
	defer k.mu.Unlock()
	if err != nil {
		k.nextFetch = k.now().Add(retryDiscoveryAfter)
		k.fetchErr = errors.Join(ErrProviderUnavailable, err)
		return nil, false, k.fetchErr
	}
	k.keys, k.nextFetch, k.fetchErr = fetched, k.now().Add(k.interval), nil
	return fetched, has(fetched, kid), nil
}

func (k *keySet) current() ([]jose.JSONWebKey, time.Time, error) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.keys, k.nextFetch, k.fetchErr
}

func has(keys []jose.JSONWebKey, kid string) bool {
	for _, key := range keys {
		if kid == "" || key.KeyID == kid {
			return true
		}
	}
	return false
}

// fetch reads the key set. Keys of a type it cannot parse are skipped,
// not fatal, as go-oidc does.
func (k *keySet) fetch(ctx context.Context) ([]jose.JSONWebKey, error) {
	fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(fctx, http.MethodGet, k.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := k.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("key set: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("key set: %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxKeySetBytes))
	if err != nil {
		return nil, fmt.Errorf("key set: %w", err)
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, fmt.Errorf("key set: %w", err)
	}
	var keys []jose.JSONWebKey
	for _, raw := range set.Keys {
		var key jose.JSONWebKey
		if err := key.UnmarshalJSON(raw); err == nil && key.Valid() && key.IsPublic() {
			keys = append(keys, key)
		}
	}
	return keys, nil
}
