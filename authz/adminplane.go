package authz

import (
	"context"
	"crypto/sha256"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rest"
	"github.com/rolegate/rolegate/middleware"
)

// adminKeys is the closed admin plane: the digests of the keys the REST
// API accepts (AUTH_CLIENT_KEY and AUTH_CLIENT_KEYS). A presented key is
// looked up by its SHA-256 digest, so the time a lookup takes tells
// nothing about how close a guess came to a real key. Nil is the open
// mode: any UUID v4 is a namespace of its own.
type adminKeys map[[sha256.Size]byte]struct{}

// newAdminKeys collects the configured keys (already validated), or nil
// when none is set.
func newAdminKeys(cfg Config) adminKeys {
	keys := append([]string{cfg.ClientKey}, cfg.ClientKeys...)
	var set adminKeys
	for _, k := range keys {
		n, err := middleware.ParseClientKey(k)
		if err != nil {
			continue // empty ClientKey; Validate refused anything else
		}
		if set == nil {
			set = adminKeys{}
		}
		set[sha256.Sum256([]byte(n))] = struct{}{}
	}
	return set
}

// accept is middleware.ClientKeyConfig.Accept: nil (every key) in open
// mode.
func (k adminKeys) accept() func(string) bool {
	if k == nil {
		return nil
	}
	return func(key string) bool {
		// Keys are UUIDs: hashed from a buffer on the stack, not a copy
		// on the heap per request.
		var buf [64]byte
		if len(key) <= len(buf) {
			_, ok := k[sha256.Sum256(buf[:copy(buf[:], key)])]
			return ok
		}
		_, ok := k[sha256.Sum256([]byte(key))]
		return ok
	}
}

// open reports the open multi-client mode, where the store's growth is
// bounded per namespace and in namespaces (see quota.go).
func (az *Authz) open() bool { return az.admins == nil }

// openModeWarning is the one startup line of the open mode.
const openModeWarning = "neither AUTH_CLIENT_KEY nor AUTH_CLIENT_KEYS is set: the REST admin API is open, any UUID v4 key writes its own namespace (bounded by AUTH_MAX_ROWS_PER_CLIENT, AUTH_MAX_NAMESPACES, AUTH_OPEN_WRITES_PER_SECOND and AUTH_MAX_READS_IN_FLIGHT); set admin keys in production"

// requestContext is the request's context carrying what the audit log
// records of it: our request id, the client's own id apart, and the
// remote address as the trusted proxies let us know it.
func (az *Authz) requestContext(c *gin.Context) context.Context {
	info := requestInfo{
		id:       middleware.RequestIDFrom(c),
		clientID: middleware.ClientRequestIDFrom(c),
		remote:   az.proxies.RemoteAddr(c.Request),
	}
	if key, ok := middleware.ClientKeyFrom(c); ok {
		info.actor.key = key
	} else if user, ok := rest.PersonFrom(c); ok {
		info.actor.user = user
	}
	// The REST layer refuses a malformed reason (400) before any write.
	info.reason, _ = rest.ChangeReason(c)
	return &requestCtx{Context: c.Request.Context(), info: info}
}

// requestCtx carries a requestInfo in one allocation (context.WithValue
// takes two: the context and the boxed value); it is built on every REST
// request.
type requestCtx struct {
	context.Context
	info requestInfo
}

func (r *requestCtx) Value(key any) any {
	if _, ok := key.(requestInfoKey); ok {
		return &r.info
	}
	return r.Context.Value(key)
}

// requestInfoOf is what requestContext put in ctx (empty outside a REST
// request).
func requestInfoOf(ctx context.Context) requestInfo {
	if info, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok {
		return *info
	}
	return requestInfo{}
}
