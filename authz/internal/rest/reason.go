package rest

import (
	"fmt"
	"net/textproto"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
)

// ReasonHeader carries why a change is made; its text is stored as the
// audit record's reason.
const ReasonHeader = "X-Change-Reason"

// MaxReasonLength is the longest X-Change-Reason, in characters.
const MaxReasonLength = 256

var reasonKey = textproto.CanonicalMIMEHeaderKey(ReasonHeader)

// ChangeReason is the request's X-Change-Reason ("" without one), or an
// error wrapping ErrBadRequest (400) when it is repeated, not valid
// UTF-8, longer than MaxReasonLength characters, or holds a control
// character: a reason is shown in consoles and logs, where such
// characters could forge lines.
func ChangeReason(c *gin.Context) (string, error) {
	values := c.Request.Header[reasonKey]
	switch {
	case len(values) == 0:
		return "", nil
	case len(values) > 1:
		return "", fmt.Errorf("%w: %s given more than once", errBadRequest, ReasonHeader)
	}
	v := values[0]
	if !utf8.ValidString(v) || utf8.RuneCountInString(v) > MaxReasonLength {
		return "", fmt.Errorf("%w: %s must be valid UTF-8 of at most %d characters", errBadRequest, ReasonHeader, MaxReasonLength)
	}
	for _, r := range v {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return "", fmt.Errorf("%w: %s must not hold control or invisible format characters", errBadRequest, ReasonHeader)
		}
	}
	return v, nil
}

// personKey is the gin context key of the person a request was
// authorised for (see people.go): a string, since gin before v1.11 keys
// its map by string, holding a value of an unexported type, so that a
// handler's c.Set under the same name forges nothing.
const personKey = "github.com/rolegate/rolegate/authz/internal/rest.person"

// person is a user name this package stored.
type person string

// PersonFrom returns the person (a user of the host's namespace) whose
// request this is, when it came without a client key and people are
// enabled on the admin plane.
func PersonFrom(c *gin.Context) (string, bool) {
	v, ok := c.Get(personKey)
	if !ok {
		return "", false
	}
	u, ok := v.(person)
	return string(u), ok
}
