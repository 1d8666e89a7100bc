package loginx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// maxUserInfoBytes bounds what is read of a userinfo answer.
const maxUserInfoBytes = 1 << 20

// userInfo presents the access token to the provider's userinfo
// endpoint. A 401 or 403 (or any 4xx) means the access token is not
// valid; transport failures and 5xx are outages.
func (p *provider) userInfo(ctx context.Context, url, accessToken string) (*identity, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("loginx: userinfo request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+accessToken)
	req.Header.Set("Accept", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		if outage(ctx, err) {
			return nil, errors.Join(ErrProviderUnavailable, err)
		}
		return nil, fmt.Errorf("loginx: userinfo: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, unauthorized("invalid-token", "the provider did not accept the access token")
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxUserInfoBytes))
	if err != nil {
		return nil, errors.Join(ErrProviderUnavailable, err)
	}
	var id identity
	if err := json.Unmarshal(body, &id); err != nil {
		// Some providers answer userinfo with a signed JWT; rolegate
		// asks for JSON and does not accept that form.
		return nil, unauthorized("invalid-token", "the provider's userinfo answer is not a JSON object")
	}
	if id.Subject == "" {
		return nil, unauthorized("invalid-token", "the provider's userinfo answer has no subject")
	}
	return &id, nil
}
