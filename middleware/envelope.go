package middleware

import (
	"bytes"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/render"
)

// timestampLayout fixes six fractional digits so that every timestamp has
// the same width and sorts as text; time.RFC3339Nano would drop trailing
// zeros.
const timestampLayout = "2006-01-02T15:04:05.000000Z"

// Timestamp formats t as the envelopes' timestamp: RFC 3339 in UTC with
// microseconds, for example "2025-01-02T03:04:05.000006Z".
func Timestamp(t time.Time) string {
	var b [len(timestampLayout)]byte
	return string(AppendTimestamp(b[:0], t))
}

// AppendTimestamp appends Timestamp(t) to dst, without allocating when
// dst has room.
func AppendTimestamp(dst []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(dst, timestampLayout)
	}
	hour, minute, sec := t.Clock()
	us := t.Nanosecond() / 1000
	var b [27]byte // 2006-01-02T15:04:05.000000Z
	digits(b[0:4], year)
	b[4] = '-'
	digits(b[5:7], int(month))
	b[7] = '-'
	digits(b[8:10], day)
	b[10] = 'T'
	digits(b[11:13], hour)
	b[13] = ':'
	digits(b[14:16], minute)
	b[16] = ':'
	digits(b[17:19], sec)
	b[19] = '.'
	digits(b[20:26], us)
	b[26] = 'Z'
	return append(dst, b[:]...)
}

// digits writes v in decimal into all of b, zero-padded on the left.
func digits(b []byte, v int) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte('0' + v%10)
		v /= 10
	}
}

// SuccessBody is the envelope of every successful response of the rolegate
// routes.
type SuccessBody struct {
	Success   bool   `json:"success"`
	Code      int    `json:"code"`
	Message   string `json:"message"`
	Data      any    `json:"data"`
	Timestamp string `json:"timestamp"`
}

// ErrorBody is the envelope of every refused or failed response of the
// rolegate routes.
type ErrorBody struct {
	Success   bool   `json:"success"`
	Code      int    `json:"code"`
	Message   string `json:"message"`
	Error     string `json:"error"`
	Timestamp string `json:"timestamp"`
}

// Respond writes the success envelope with the given status, message and
// data. It does not abort the chain, so later middleware still runs.
func Respond(c *gin.Context, status int, message string, data any) {
	c.JSON(status, SuccessBody{
		Success:   true,
		Code:      status,
		Message:   message,
		Data:      data,
		Timestamp: Timestamp(time.Now()),
	})
}

// Fail aborts the chain and writes the error envelope. message is a short
// summary ("Unauthorized", "Not Found"; http.StatusText(status) when empty)
// and detail the error text shown to the client, so it must never carry
// secrets or internals. A 401 gets "WWW-Authenticate: Bearer" unless a
// handler already chose a challenge (for example Basic), because RFC 9110
// requires a challenge on every 401.
func Fail(c *gin.Context, status int, message, detail string) {
	if message == "" {
		message = http.StatusText(status)
	}
	if status == http.StatusUnauthorized && c.Writer.Header().Get("WWW-Authenticate") == "" {
		c.Header("WWW-Authenticate", "Bearer")
	}
	c.AbortWithStatusJSON(status, ErrorBody{
		Success:   false,
		Code:      status,
		Message:   message,
		Error:     detail,
		Timestamp: Timestamp(time.Now()),
	})
}

// FixedEnvelope is a success envelope whose status, message and data are
// known when a route is mounted (the {"result": true} of a check, say).
// Its bytes are built once, by the same JSON encoder as Respond's, so a
// response is byte for byte what Respond would write, timestamp aside;
// responding costs no reflection and no allocation.
type FixedEnvelope struct {
	status int
	prefix []byte // the body up to the timestamp's value, its opening quote included
}

// NewFixedEnvelope builds the envelope of status, message and data.
func NewFixedEnvelope(status int, message string, data any) (FixedEnvelope, error) {
	// render.WriteJSON is what c.JSON writes through, whichever JSON
	// package gin was built with (its build tags choose).
	var buf bodyBuffer
	if err := render.WriteJSON(&buf, SuccessBody{Success: true, Code: status, Message: message, Data: data}); err != nil {
		return FixedEnvelope{}, err
	}
	body := buf.body.Bytes()
	// The timestamp is the last field; it was left empty.
	prefix, ok := bytes.CutSuffix(body, []byte(`""}`))
	if !ok || !bytes.HasSuffix(prefix, []byte(`"timestamp":`)) {
		return FixedEnvelope{}, errors.New("middleware: the envelope does not end with its timestamp")
	}
	return FixedEnvelope{status: status, prefix: append(prefix, '"')}, nil
}

// bodyBuffer is the http.ResponseWriter NewFixedEnvelope renders into.
type bodyBuffer struct {
	header http.Header
	body   bytes.Buffer
}

func (b *bodyBuffer) Header() http.Header {
	if b.header == nil {
		b.header = http.Header{}
	}
	return b.header
}

func (b *bodyBuffer) Write(p []byte) (int, error) { return b.body.Write(p) }

func (b *bodyBuffer) WriteHeader(int) {}

// MustFixedEnvelope is NewFixedEnvelope for values known to encode; it
// panics otherwise, at registration, where a programmer sees it.
func MustFixedEnvelope(status int, message string, data any) FixedEnvelope {
	e, err := NewFixedEnvelope(status, message, data)
	if err != nil {
		panic(err)
	}
	return e
}

// jsonContentType is the Content-Type gin's JSON renderer sets.
var jsonContentType = []string{"application/json; charset=utf-8"}

var envelopeBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// Respond writes the envelope with the current timestamp, as Respond
// would: the status, a JSON Content-Type unless one is set, the body. It
// does not abort the chain.
func (e FixedEnvelope) Respond(c *gin.Context) {
	bp := envelopeBuffers.Get().(*[]byte)
	b := append((*bp)[:0], e.prefix...)
	b = AppendTimestamp(b, time.Now())
	b = append(b, '"', '}')
	h := c.Writer.Header()
	if len(h["Content-Type"]) == 0 {
		h["Content-Type"] = jsonContentType
	}
	c.Status(e.status)
	if _, err := c.Writer.Write(b); err != nil {
		_ = c.Error(err)
		c.Abort()
	}
	*bp = b
	envelopeBuffers.Put(bp)
}
