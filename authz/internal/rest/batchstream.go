package rest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
)

// MaxStreamBodyBytes bounds the body of POST /api/batch/stream: a stream
// of the most operations (authz.MaxStreamOperations) of ordinary names
// fits. The body is spooled to a temporary file, never held in memory.
const MaxStreamBodyBytes = 256 << 20

// maxStreamLineBytes bounds one operation (one line) of a stream: the
// longest names and description take a few KiB.
const maxStreamLineBytes = 64 << 10

// batchStreamRoute is POST /api/batch/stream, for the audit of refusals.
var batchStreamRoute = route{method: http.MethodPost, path: "/api/batch/stream", action: "batch", write: true}

// OperationStream is a streamed batch's operations, spooled: Each calls
// fn with each operation in order, as sent (one JSON object, valid until
// fn returns), stopping at fn's first error. It may be called more than
// once.
type OperationStream interface {
	Each(fn func(op json.RawMessage) error) error
}

// batchStreamHandlers are the handlers of POST /api/batch/stream: the
// operations of POST /api/batch as newline-delimited JSON (one operation
// object a line; blank lines ignored), for batches past what one
// POST /api/batch holds. The body is spooled to a temporary file as it
// comes (memory does not grow with it), every operation is checked, and
// then all run in one transaction in chunks (Caller.RunBatchStream): all
// or nothing, with the validation, audit and quotas of POST /api/batch.
// data {"operations": N, "results": {"created": n, ...}}: how many
// operations had each result, with 201 when one created something and 200
// otherwise. An error names the operation by its index, counting from 0.
func (a *API) batchStreamHandlers() []gin.HandlerFunc {
	return []gin.HandlerFunc{a.authenticate(batchStreamRoute), middleware.BodyLimit(MaxStreamBodyBytes), a.batchStream}
}

func (a *API) batchStream(c *gin.Context) {
	rt := batchStreamRoute
	call, gate, ok := a.admitBatch(c, rt)
	if !ok {
		return
	}
	if gate != nil {
		defer gate.Release()
	}
	ctx, cl := call.ctx, call.cl
	sp, err := spoolStream(c, gate, a.maxStream)
	if sp != nil {
		defer sp.close()
	}
	if err == nil && gate != nil {
		err = gate.Run()
	}
	if err != nil {
		a.fail(c, ctx, rt, call, err)
		return
	}
	counts, revision, err := cl.RunBatchStream(ctx, sp)
	if errors.Is(err, ErrMalformedOperation) {
		a.fail(c, ctx, rt, call, refuse(fmt.Errorf(`%w: %s; each line must be one JSON object {"op", "role", "description", "permission", "user", "scope", "parent"}`, errBadRequest, err)))
		return
	}
	if err != nil {
		status, reason := StatusOf(err)
		var oe *OperationError
		detail := reason
		switch {
		case status < 500 && errors.As(err, &oe):
			detail = oe.Detail
		case errors.Is(err, rbac.ErrQuotaExceeded) || errors.Is(err, rbac.ErrRateLimited):
			detail = err.Error()
			setRetryAfter(c, err)
		case status == http.StatusBadRequest:
			detail = err.Error() // our own text: the bound
		}
		if status >= 500 {
			a.log.LogAttrs(ctx, slog.LevelWarn, "rest: streamed batch failed", slog.String("request_id", middleware.RequestIDFrom(c)),
				slog.String("error", err.Error()))
		}
		middleware.Fail(c, status, reason, detail)
		return
	}
	if revision != "" {
		c.Header(RevisionHeader, revision)
	}
	status := http.StatusOK
	if counts["created"] > 0 {
		status = http.StatusCreated
	}
	if counts == nil {
		counts = map[string]int{}
	}
	middleware.Respond(c, status, fmt.Sprintf("%d operations", sp.n), gin.H{"operations": sp.n, "results": counts})
}

// spool is a streamed batch's body in a temporary file, one operation a
// line.
type spool struct {
	f *os.File
	n int
}

var _ OperationStream = (*spool)(nil)

func (s *spool) close() {
	name := s.f.Name()
	s.f.Close()
	os.Remove(name)
}

func (s *spool) Each(fn func(op json.RawMessage) error) error {
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	sc := bufio.NewScanner(s.f)
	sc.Buffer(make([]byte, 0, 64<<10), maxStreamLineBytes+1)
	for sc.Scan() {
		if err := fn(sc.Bytes()); err != nil {
			return err
		}
	}
	return sc.Err()
}

// spoolStream copies the body to a temporary file, a line an operation,
// refusing a line that is not one JSON object, a line over
// maxStreamLineBytes and more than max operations as soon as it sees
// them. With a gate (open mode) the bytes are taken through it as they
// come, at the least pace of readGated.
func spoolStream(c *gin.Context, gate BatchGate, max int) (*spool, error) {
	if c.Request.Body == nil {
		return nil, refuse(fmt.Errorf("%w: body must hold operations, one JSON object a line", errBadRequest))
	}
	f, err := os.CreateTemp("", "rolegate-batch-*.ndjson")
	if err != nil {
		return nil, err
	}
	sp := &spool{f: f}
	var body io.Reader = c.Request.Body
	if gate != nil {
		g := &gatedBody{r: c.Request.Body, gate: gate, rc: http.NewResponseController(c.Writer), start: time.Now()}
		if g.rc.SetReadDeadline(g.due()) == nil {
			defer g.rc.SetReadDeadline(time.Time{})
		}
		body = g
	}
	br := bufio.NewReaderSize(body, 64<<10)
	w := bufio.NewWriterSize(f, 64<<10)
	line := 0
	for {
		b, err := readLine(br)
		if len(b) > 0 {
			line++
			b = bytes.TrimSpace(b)
		}
		if len(b) > 0 {
			switch {
			case len(b) > maxStreamLineBytes:
				return sp, refuse(fmt.Errorf("%w: line %d is over %d bytes", errBadRequest, line, maxStreamLineBytes))
			case b[0] != '{' || !json.Valid(b):
				return sp, refuse(fmt.Errorf(`%w: line %d is not one JSON object {"op", "role", "description", "permission", "user", "scope", "parent"}`, errBadRequest, line))
			case sp.n == max:
				return sp, refuse(fmt.Errorf("%w: at most %d operations in one streamed batch", errBadRequest, max))
			}
			w.Write(b)
			w.WriteByte('\n')
			sp.n++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			switch {
			case middleware.IsBodyTooLarge(err):
				return sp, refuse(fmt.Errorf("%w: over %d bytes", errBodyTooLarge, MaxStreamBodyBytes))
			case errors.Is(err, os.ErrDeadlineExceeded):
				return sp, refuse(errBodyTooSlow)
			case errors.Is(err, rbac.ErrRateLimited):
				return sp, err
			}
			return sp, refuse(fmt.Errorf("%w: body could not be read", errBadRequest))
		}
	}
	if err := w.Flush(); err != nil {
		return sp, err
	}
	return sp, nil
}

// readLine reads one line, or as much of it as is one byte past
// maxStreamLineBytes (the rest of an overlong line is never held).
func readLine(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		part, err := br.ReadSlice('\n')
		if len(out)+len(part) > maxStreamLineBytes+1 {
			part = part[:maxStreamLineBytes+1-len(out)]
		}
		out = append(out, part...)
		if err == bufio.ErrBufferFull {
			if len(out) > maxStreamLineBytes {
				return out, nil
			}
			continue
		}
		return out, err
	}
}

// gatedBody reads a body through an open-mode gate: each batchBodyChunk
// bytes are taken from the gate before they are read, and the
// connection's read deadline moves with the least pace (see readGated).
type gatedBody struct {
	r          io.Reader
	gate       BatchGate
	rc         *http.ResponseController
	start      time.Time
	read, took int64
}

func (g *gatedBody) due() time.Time {
	return g.start.Add(batchBodyGrace + time.Duration(g.read)*time.Second/batchBodyMinRate)
}

func (g *gatedBody) Read(p []byte) (int, error) {
	if g.read >= g.took {
		if err := g.gate.Take(batchBodyChunk); err != nil {
			return 0, err
		}
		g.took += batchBodyChunk
	}
	if left := g.took - g.read; int64(len(p)) > left {
		p = p[:left]
	}
	n, err := g.r.Read(p)
	g.read += int64(n)
	g.rc.SetReadDeadline(g.due())
	return n, err
}
