package authz

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/loginx/loginapi"
	"github.com/rolegate/rolegate/middleware"
)

// errLoginNotLinked: providers configured, but the host did not link the
// login. Failing is the safe answer: serving without the login routes
// would leave every guarded route answering 401 with no way in.
var errLoginNotLinked = errors.New("authz: login providers are configured (AUTH_OAUTH_PROVIDERS) but Config.Login is nil: import github.com/rolegate/rolegate/loginx and set Config.Login = loginx.Start (or unset AUTH_OAUTH_PROVIDERS)")

// initLogin starts the login service when providers are configured, and
// picks the guards' resolver: the host's, else the login session's, else
// one that finds nobody (every guarded request is then 401).
func (az *Authz) initLogin(ctx context.Context) error {
	if len(az.cfg.OAuthProviders) > 0 {
		if az.cfg.Login == nil {
			return errLoginNotLinked
		}
		svc, err := az.cfg.Login(ctx, az.db, loginapi.Config{
			Providers: az.cfg.OAuthProviders,
			JWTSecret: az.cfg.JWTSecretKey,
			// The generated secret is sealed under the encryption key
			// when there is one, else under the wrap key.
			SecretCipher:  az.keys.Cipher(),
			SecretWrapKey: az.cfg.JWTSecretWrapKey,
			JWTAlgorithm:  az.cfg.JWTAlgorithm,
			AccessTTL:     time.Duration(az.cfg.JWTAccessTokenExpireMinutes) * time.Minute,
			RefreshTTL:    time.Duration(az.cfg.JWTRefreshTokenExpireDays) * 24 * time.Hour,
			Roles:         az.hostRoles,
			Logger:        az.log,

			LoginAttemptsPerMinute: az.cfg.LoginAttemptsPerMinute,
			// The address the audit records, not Gin's ClientIP, which
			// believes X-Forwarded-For from anyone on a default engine.
			RemoteAddr: az.proxies.RemoteAddr,
			OnLogin:    az.loginOutcome,
		})
		if err != nil {
			return fmt.Errorf("authz: login: %w", err)
		}
		az.login = svc
	}
	switch {
	case az.cfg.Resolver != nil:
		az.resolver = az.cfg.Resolver
	case az.login != nil:
		az.resolver = az.login.Resolver()
	default:
		az.resolver = func(*gin.Context) (string, error) { return "", middleware.ErrNoUser }
		az.noResolver = true
	}
	if az.cfg.DefaultRole != "" {
		az.resolver = az.withDefaultRole(az.resolver)
	}
	if az.cfg.AdminUsers && az.noResolver {
		return errors.New("authz: AUTH_ADMIN_USERS needs a way to find the user: set Config.Resolver or configure a login provider (AUTH_OAUTH_PROVIDERS)")
	}
	return nil
}

// hostRoles are a user's roles under AUTH_CLIENT_KEY, for a login's me
// record; none when no client key is configured.
func (az *Authz) hostRoles(ctx context.Context, username string) ([]string, error) {
	if az.host == nil || !ValidName(username) {
		return []string{}, nil
	}
	return az.host.GetUserRoles(ctx, username)
}
