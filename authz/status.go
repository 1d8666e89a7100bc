package authz

import (
	"errors"
	"net/http"
)

// Errors of the REST layer that are not errors of the library API.
var (
	// errBadRequest: a malformed body or query parameter (HTTP 400).
	errBadRequest = errors.New("malformed request")
	// errBodyTooLarge: a request body over the limit (HTTP 413).
	errBodyTooLarge = errors.New("request body too large")
)

// statusOf maps an error of the library API to its HTTP status and a short
// reason; the one place where errors become statuses.
func statusOf(err error) (int, string) {
	switch {
	case errors.Is(err, ErrInvalidName):
		return http.StatusBadRequest, "invalid name"
	case errors.Is(err, errBadRequest):
		return http.StatusBadRequest, "malformed request"
	case errors.Is(err, errBodyTooLarge):
		return http.StatusRequestEntityTooLarge, "body too large"
	case errors.Is(err, ErrInvalidClientKey):
		return http.StatusUnauthorized, "invalid client key"
	case errors.Is(err, ErrRoleNotFound):
		return http.StatusNotFound, "role not found"
	case errors.Is(err, ErrQuotaExceeded):
		return http.StatusInsufficientStorage, "storage quota exceeded"
	case errors.Is(err, ErrShapeLimit):
		return http.StatusUnprocessableEntity, "inheritance past a limit"
	case errors.Is(err, ErrCycle):
		return http.StatusConflict, "inheritance cycle"
	case errors.Is(err, ErrUnavailable), errors.Is(err, ErrClosed):
		return http.StatusServiceUnavailable, "store unavailable"
	default:
		return http.StatusInternalServerError, "internal error"
	}
}

func refusalReason(err error) string {
	_, reason := statusOf(err)
	return reason
}
