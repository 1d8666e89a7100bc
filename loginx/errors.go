package loginx

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/storage"
)

// Errors that the session checks return, wrapped with detail.
var (
	// ErrInvalidSession means an authToken is missing, malformed, signed
	// with another secret, expired, or its session was revoked. Resolver
	// wraps it together with middleware.ErrNoUser.
	ErrInvalidSession = errors.New("invalid session")
	// ErrProviderUnavailable means a provider could not be reached or
	// answered with a server error; login fails closed with 503.
	ErrProviderUnavailable = errors.New("identity provider unavailable")
)

// apiError is a refusal with its HTTP status, code and safe message.
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func badRequest(msg string) *apiError {
	return &apiError{http.StatusBadRequest, "invalid-request", msg}
}

func unauthorized(code, msg string) *apiError {
	return &apiError{http.StatusUnauthorized, code, msg}
}

// errorBody is the error response of the login routes.
type errorBody struct {
	Status  string `json:"status"`
	Error   string `json:"error"`
	Message string `json:"message"`
}

// fail writes err as the error body. It is the one place where errors of
// the login routes become HTTP statuses.
func (s *Service) fail(c *gin.Context, err error) {
	ae := apiErrorOf(err)
	if ae.code == codeInternal {
		s.log.Error("loginx: internal error", "path", c.FullPath(), "err", err)
	}
	if ae.status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", "Bearer")
	}
	c.AbortWithStatusJSON(ae.status, errorBody{Status: "error", Error: ae.code, Message: ae.message})
}

// codeInternal is the code of an error nothing else explains.
const codeInternal = "internal-error"

// apiErrorOf is the answer to err: its own, or the one of its kind.
func apiErrorOf(err error) *apiError {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, ErrProviderUnavailable):
		return &apiError{http.StatusServiceUnavailable, "provider-unavailable", "the identity provider cannot be reached; try again later"}
	case errors.Is(err, storage.ErrUnavailable):
		return &apiError{http.StatusServiceUnavailable, "store-unavailable", "the store cannot be reached; try again later"}
	case errors.Is(err, ErrInvalidSession):
		return unauthorized("unauthorized", "a valid authToken is required")
	}
	return &apiError{http.StatusInternalServerError, codeInternal, "internal error"}
}

// errorCode is the code of the answer to err; "success" for nil.
func errorCode(err error) string {
	if err == nil {
		return "success"
	}
	return apiErrorOf(err).code
}

// ok writes the success body.
func ok(c *gin.Context, data any) {
	c.JSON(http.StatusOK, gin.H{"status": "success", "data": data})
}
