package rest

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/gin-gonic/gin"
)

// The pace of a batch body in open mode: it must come at
// batchBodyMinRate bytes a second at least, after batchBodyGrace. A body
// sent a byte a second is refused after about batchBodyGrace, instead of
// holding its client's batch slot (and its connection) until the server's
// read timeout; a body of the largest size at the least pace takes about
// two minutes, past any server's read timeout (hostapp's is 30 s), so
// only a sender slower than any working network is cut short.
const (
	batchBodyGrace   = 2 * time.Second
	batchBodyMinRate = 64 << 10 // bytes a second
	// batchBodyChunk is how much of a body is read, and reserved through
	// the gate, at a time.
	batchBodyChunk = 64 << 10
)

// errBodyTooSlow: a body that did not come at the least pace (HTTP 408).
var errBodyTooSlow = fmt.Errorf("request body too slow: a batch or check body must come at %d KiB a second at least, after %v", batchBodyMinRate>>10, batchBodyGrace)

// bodyTaker reserves a body's bytes as it is read: a BatchGate, or a
// CheckGate.
type bodyTaker interface{ Take(n int64) error }

// readGated reads a batch (or check) body in open mode: in chunks, each
// reserved through the gate before it is read into (a *limits.Refused
// when all clients' bodies hold too much), at the least pace: the connection's
// read deadline is batchBodyGrace after the start plus a second per
// batchBodyMinRate bytes read (errBodyTooSlow past it). Where the
// connection takes no deadline (a test recorder), the body is read
// without one.
func readGated(c *gin.Context, gate bodyTaker) (raw []byte, err error) {
	rc := http.NewResponseController(c.Writer)
	start := time.Now()
	due := func(read int) time.Time {
		return start.Add(batchBodyGrace + time.Duration(read)*time.Second/batchBodyMinRate)
	}
	if rc.SetReadDeadline(due(0)) == nil {
		defer func() {
			// Cleared as soon as the body is read: past its end, the
			// server reads the connection in the background, and a
			// deadline passing then would cancel the request while the
			// batch runs. Kept on a refusal: the server reads what is left
			// of a body of up to 256 KiB before it answers (a larger one
			// it does not read, and closes the connection after the
			// answer), and the deadline bounds that read too; a body too
			// slow is past it, and the server gives up at once.
			if err == nil {
				rc.SetReadDeadline(time.Time{})
			}
		}()
	}
	var chunks [][]byte
	read := 0
	for {
		if err := gate.Take(batchBodyChunk); err != nil {
			return nil, err
		}
		chunk := make([]byte, batchBodyChunk)
		n, err := io.ReadFull(c.Request.Body, chunk)
		read += n
		chunks = append(chunks, chunk[:n])
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, errBodyTooSlow
		}
		if err != nil {
			return nil, err
		}
		rc.SetReadDeadline(due(read))
	}
	raw = make([]byte, 0, read)
	for _, ch := range chunks {
		raw = append(raw, ch...)
	}
	return raw, nil
}
