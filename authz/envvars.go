package authz

import (
	"log/slog"
	"path"
	"strings"
)

// knownVariables are the AUTH_ variables someone reads: rolegate's
// settings, the host app settings documented beside them, and the test
// suite's. A variable outside this list and knownVariablePatterns gets a
// warning at Open, so that a misspelled name is not silently ignored. Add
// a new setting here in the same change that reads it.
var knownVariables = []string{
	// storage
	"AUTH_DATABASE_TYPE", "AUTH_DATABASE_URL", "AUTH_POSTGRESQL_URL", "AUTH_SQLITE_PATH",
	// sessions
	"AUTH_JWT_SECRET_KEY", "AUTH_JWT_ALGORITHM", "AUTH_JWT_ACCESS_TOKEN_EXPIRE_MINUTES", "AUTH_JWT_REFRESH_TOKEN_EXPIRE_DAYS",
	"AUTH_JWT_SECRET_WRAP_KEY", "AUTH_LOGIN_ATTEMPTS_PER_MINUTE",
	// encryption
	"AUTH_ENABLE_ENCRYPTION", "AUTH_ENCRYPTION_KEY", "AUTH_ENCRYPTION_KEY_PREVIOUS", "AUTH_ENCRYPT_DESCRIPTIONS",
	// host app (examples/hostapp reads these; rolegate does not)
	"AUTH_SERVER_HOST", "AUTH_SERVER_PORT", "AUTH_DEBUG_MODE",
	// HTTP and audit
	"AUTH_ALLOW_CORS", "AUTH_CORS_ORIGINS", "AUTH_ENABLE_AUDIT_LOGGING", "AUTH_AUDIT_REFUSALS_PER_SECOND",
	"AUTH_AUDIT_RETENTION", "AUTH_AUDIT_MAX_RECORDS", "AUTH_TRUSTED_PROXIES", "AUTH_ENABLE_CONSOLE",
	// clients and limits
	"AUTH_CLIENT_KEY", "AUTH_CLIENT_KEYS", "AUTH_DEFAULT_ROLE", "AUTH_MAX_ROWS_PER_CLIENT", "AUTH_MAX_NAMESPACES",
	"AUTH_MAX_INHERITANCE_DEPTH", "AUTH_MAX_ROLE_ANCESTORS",
	"AUTH_CACHE_MAX_USERS", "AUTH_MAX_CLIENTS", "AUTH_REVISION_CHECK_INTERVAL",
	// observability
	"AUTH_TRACE_USER_NAMES",
	// login and samples
	"AUTH_OAUTH_PROVIDERS", "AUTH_SAMPLES_USERNAME", "AUTH_SAMPLES_PASSWORD", "AUTH_SAMPLES_API_KEY",
	"AUTH_SAMPLES_NAME", "AUTH_SAMPLES_EMAIL",
	// observability
	"AUTH_ENABLE_METRICS", "AUTH_DECISION_LOG", "AUTH_DECISION_LOG_SAMPLE", "AUTH_DECISION_LOG_PER_SECOND", "AUTH_DECISION_AUDIT",
}

// knownVariablePatterns are families of variables (path.Match patterns):
// per-provider settings and the tests' own.
var knownVariablePatterns = []string{
	"AUTH_OAUTH_*_ISSUER", "AUTH_OAUTH_*_CLIENT_ID", "AUTH_OAUTH_*_JWKS_URL",
	"AUTH_OAUTH_*_USERINFO_URL", "AUTH_OAUTH_*_USER_CLAIM",
	"AUTH_TEST_*",
}

func knownVariable(name string) bool {
	for _, k := range knownVariables {
		if name == k {
			return true
		}
	}
	for _, p := range knownVariablePatterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// unknownVariables returns the AUTH_ names among names that nobody reads,
// each once, in order.
func unknownVariables(names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if strings.HasPrefix(n, "AUTH_") && !knownVariable(n) && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// warnUnknownVariables logs one line per unknown variable, with the known
// name it most likely misspells.
func warnUnknownVariables(log *slog.Logger, names []string) {
	for _, n := range names {
		if near := nearestVariable(n); near != "" {
			log.Warn("unknown setting ignored", "variable", n, "did_you_mean", near)
		} else {
			log.Warn("unknown setting ignored", "variable", n)
		}
	}
}

// nearestVariable is the known name within two edits of name, if any.
func nearestVariable(name string) string {
	best, bestD := "", 3
	for _, k := range knownVariables {
		if d := editDistance(name, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
