package loginx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
)

// loginRequest is the body of POST /api/v1/login.
type loginRequest struct {
	ServiceName string
	AccessToken string
	IDToken     string
	ExpiresIn   int64
	Scope       string
}

// readBody reads at most MaxBodyBytes of the request body.
func readBody(c *gin.Context) ([]byte, error) {
	if c.Request.ContentLength > MaxBodyBytes {
		return nil, tooLarge()
	}
	b, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, MaxBodyBytes))
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return nil, tooLarge()
	}
	if err != nil {
		return nil, badRequest("the request body could not be read")
	}
	return b, nil
}

func tooLarge() *apiError {
	return &apiError{http.StatusRequestEntityTooLarge, "body-too-large", "the request body exceeds 64 KiB"}
}

// decodeObject parses a JSON object into its raw fields.
func decodeObject(body []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil || m == nil {
		return nil, badRequest("the body must be a JSON object")
	}
	return m, nil
}

// stringField returns a required (or optional) string field.
func stringField(m map[string]json.RawMessage, name string, required bool) (string, error) {
	raw, ok := m[name]
	if !ok || bytes.Equal(raw, []byte("null")) {
		if required {
			return "", badRequest(name + " is required")
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", badRequest(name + " must be a string")
	}
	if required && s == "" {
		return "", badRequest(name + " must not be empty")
	}
	return s, nil
}

// positiveInt returns a required field that must be a JSON integer
// literal above zero (no sign, fraction or exponent).
func positiveInt(m map[string]json.RawMessage, name string) (int64, error) {
	raw, ok := m[name]
	if !ok || bytes.Equal(raw, []byte("null")) {
		return 0, badRequest(name + " is required")
	}
	for _, b := range raw {
		if b < '0' || b > '9' {
			return 0, badRequest(name + " must be a positive integer")
		}
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n <= 0 {
		return 0, badRequest(name + " must be a positive integer")
	}
	return n, nil
}

// parseLogin validates the login body.
func parseLogin(body []byte) (loginRequest, error) {
	var r loginRequest
	m, err := decodeObject(body)
	if err != nil {
		return r, err
	}
	if r.ServiceName, err = stringField(m, "serviceName", true); err != nil {
		return r, err
	}
	if r.AccessToken, err = stringField(m, "accessToken", true); err != nil {
		return r, err
	}
	if r.IDToken, err = stringField(m, "idToken", true); err != nil {
		return r, err
	}
	if r.ExpiresIn, err = positiveInt(m, "expiresIn"); err != nil {
		return r, err
	}
	r.Scope, err = stringField(m, "scope", false)
	return r, err
}
