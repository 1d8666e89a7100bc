package rest

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/limits"

	"github.com/rolegate/rolegate/authz/internal/feed"
	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// Errors of the REST layer that are not errors of the library API.
var (
	// errBadRequest: a malformed body or query parameter (HTTP 400).
	errBadRequest = rbac.ErrBadRequest
	// errBodyTooLarge: a request body over the limit (HTTP 413).
	errBodyTooLarge = errors.New("request body too large")
)

// StatusOf maps an error of the library API to its HTTP status and a short
// reason; the one place where errors become statuses.
func StatusOf(err error) (int, string) {
	switch {
	case errors.Is(err, rbac.ErrInvalidName):
		return http.StatusBadRequest, "invalid name"
	case errors.Is(err, rbac.ErrBadRequest):
		return http.StatusBadRequest, "malformed request"
	case errors.Is(err, feed.ErrInvalid):
		return http.StatusBadRequest, "invalid revision"
	case errors.Is(err, errBodyTooLarge):
		return http.StatusRequestEntityTooLarge, "body too large"
	case errors.Is(err, errBodyTooSlow):
		return http.StatusRequestTimeout, "body too slow"
	case errors.Is(err, rbac.ErrInvalidClientKey):
		return http.StatusUnauthorized, "invalid client key"
	case errors.Is(err, rbac.ErrForbidden):
		return http.StatusForbidden, "forbidden"
	case errors.Is(err, rbac.ErrRoleNotFound):
		return http.StatusNotFound, "role not found"
	case errors.Is(err, rbac.ErrQuotaExceeded):
		return http.StatusInsufficientStorage, "storage quota exceeded"
	case errors.Is(err, rbac.ErrShapeLimit):
		return http.StatusUnprocessableEntity, "inheritance past a limit"
	case errors.Is(err, rbac.ErrAlreadyExpired):
		return http.StatusUnprocessableEntity, "already expired"
	case errors.Is(err, rbac.ErrRateLimited):
		return http.StatusTooManyRequests, "too many requests"
	case errors.Is(err, rbac.ErrCycle):
		return http.StatusConflict, "inheritance cycle"
	case errors.Is(err, rbac.ErrUserExists):
		return http.StatusConflict, "user exists"
	case errors.Is(err, rbac.ErrChangesGone):
		return http.StatusGone, "changes gone"
	case errors.Is(err, rbac.ErrUnavailable), errors.Is(err, rbac.ErrClosed):
		return http.StatusServiceUnavailable, "store unavailable"
	default:
		return http.StatusInternalServerError, "internal error"
	}
}

// Reason is the short reason of StatusOf: what the audit log, a span and
// the decision log record of a refusal.
func Reason(err error) string {
	_, reason := StatusOf(err)
	return reason
}

// setRetryAfter sets the Retry-After header of a 429: the seconds the
// refusal names (see limits.Refused).
func setRetryAfter(c *gin.Context, err error) {
	if s, ok := limits.RetryAfter(err); ok {
		c.Header("Retry-After", strconv.Itoa(s))
	}
}
