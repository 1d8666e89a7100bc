package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
)

// MaxBatchBodyBytes bounds the body of POST /api/batch: a batch of
// MaxBatchOperations fits, while one request still cannot hold more than
// this much memory.
const MaxBatchBodyBytes = 8 << 20

// batchRoute is POST /api/batch, for the audit of refusals.
var batchRoute = route{method: http.MethodPost, path: "/api/batch", action: "batch", write: true}

// BatchResult is what one operation of a batch did: created, existed,
// deleted, absent, changed or unchanged.
type BatchResult struct {
	Op     string `json:"op"`
	Result string `json:"result"`
}

// ErrMalformedOperation is what Caller.RunBatch returns (wrapped) when an
// operation does not decode: a field it does not know, a value of the
// wrong type. The request is refused with 400 and the shape of an
// operation.
var ErrMalformedOperation = errors.New("malformed batch operation")

// OperationError is what Caller.RunBatch returns when one operation is to
// blame: Detail (which names the operation by index) is answered as the
// error's detail of a 4xx. errors.Is and errors.As see Err.
type OperationError struct {
	Detail string
	Err    error
}

func (e *OperationError) Error() string { return e.Err.Error() }
func (e *OperationError) Unwrap() error { return e.Err }

// batchHandlers are the handlers of POST /api/batch: body
// {"operations": [Operation...]}, run by Caller.RunBatch in one
// transaction; data {"results": [{"op", "result"}...]}, one per operation,
// with 201 when one created something and 200 otherwise. When one fails
// nothing is stored, and the error names the operation by its index
// (counting from 0). It has its own body limit (the other routes take 64 KiB).
func (a *API) batchHandlers() []gin.HandlerFunc {
	rt := batchRoute
	return []gin.HandlerFunc{a.authenticate(rt), middleware.BodyLimit(MaxBatchBodyBytes), a.batch}
}

// admitBatch is what a batch and a streamed batch do before their body is
// read: the caller, a person's permission (a batch is rolegate.admin's
// alone), the query, the change reason, and the open mode's batch gate,
// which the caller releases. ok is false when the request was answered.
func (a *API) admitBatch(c *gin.Context, rt route) (call *request, gate BatchGate, ok bool) {
	ctx := a.host.RequestContext(c)
	cl, user, err := a.caller(c)
	if err != nil {
		a.fail(c, ctx, rt, nil, refuse(err))
		return nil, nil, false
	}
	call = &request{c: c, ctx: ctx, cl: cl}
	if user != "" {
		if _, err := allowPerson(ctx, cl, rt, user); err != nil {
			a.fail(c, ctx, rt, call, err)
			return nil, nil, false
		}
	}
	if err := checkQuery(c, rt); err != nil {
		a.fail(c, ctx, rt, call, refuse(err))
		return nil, nil, false
	}
	if _, err := ChangeReason(c); err != nil {
		a.fail(c, ctx, rt, call, refuse(err))
		return nil, nil, false
	}
	if gate, err = a.host.AdmitBatch(cl); err != nil {
		a.fail(c, ctx, rt, call, err)
		return nil, nil, false
	}
	return call, gate, true
}

func (a *API) batch(c *gin.Context) {
	rt := batchRoute
	call, gate, ok := a.admitBatch(c, rt)
	if !ok {
		return
	}
	if gate != nil {
		defer gate.Release()
	}
	ctx, cl := call.ctx, call.cl
	ops, err := a.readBatch(c, gate)
	if err == nil && gate != nil {
		err = gate.Run() // only now: a slow body holds no slot of all clients'
	}
	if err != nil {
		a.fail(c, ctx, rt, call, err)
		return
	}
	results, revision, err := cl.RunBatch(ctx, ops)
	if errors.Is(err, ErrMalformedOperation) {
		// err names the operation ("malformed batch operation: operation 3").
		a.fail(c, ctx, rt, call, refuse(fmt.Errorf(`%w: %s: each operation is an object of "op", "role", "description", "permission", "user", "scope", "parent", "starts_at", "expires_at" (times in RFC 3339)`,
			errBadRequest, strings.TrimPrefix(err.Error(), ErrMalformedOperation.Error()+": "))))
		return
	}
	if err != nil {
		// RunBatch audited its refusal; say which operation failed.
		status, reason := StatusOf(err)
		var oe *OperationError
		detail := reason
		if status < 500 && errors.As(err, &oe) {
			detail = oe.Detail
		} else if errors.Is(err, rbac.ErrQuotaExceeded) || errors.Is(err, rbac.ErrRateLimited) {
			detail = err.Error() // names the setting; nothing secret
			setRetryAfter(c, err)
		}
		if status >= 500 {
			a.log.LogAttrs(ctx, slog.LevelWarn, "rest: batch failed", slog.String("request_id", middleware.RequestIDFrom(c)),
				slog.String("error", err.Error()))
		}
		middleware.Fail(c, status, reason, detail)
		return
	}
	if results == nil {
		results = []BatchResult{}
	}
	if revision != "" {
		c.Header(RevisionHeader, revision)
	}
	middleware.Respond(c, batchStatus(results), fmt.Sprintf("%d operations", len(results)), gin.H{"results": results})
}

// batchStatus is the REST contract's status of a POST: 201 when the batch
// created something (a result "created"), 200 when it did not.
func batchStatus(results []BatchResult) int {
	for _, r := range results {
		if r.Result == "created" {
			return http.StatusCreated
		}
	}
	return http.StatusOK
}

// malformedBatch is the refusal of a body that is not a batch.
func malformedBatch() error {
	return refuse(fmt.Errorf(`%w: body must be a JSON object with an "operations" list of {"op", "role", "description", "permission", "user", "scope", "parent", "starts_at", "expires_at"}`, errBadRequest))
}

// readBatch reads and decodes the batch body: one JSON object with an
// "operations" list and nothing else. With a gate (open mode) the body is
// read as readGated does.
func (a *API) readBatch(c *gin.Context, gate BatchGate) ([]json.RawMessage, error) {
	if c.Request.Body == nil {
		return nil, refuse(fmt.Errorf(`%w: body must be a JSON object with an "operations" list`, errBadRequest))
	}
	var raw []byte
	var err error
	if gate != nil {
		raw, err = readGated(c, gate)
	} else {
		raw, err = io.ReadAll(c.Request.Body)
	}
	if err != nil {
		switch {
		case middleware.IsBodyTooLarge(err):
			return nil, refuse(fmt.Errorf("%w: over %d bytes", errBodyTooLarge, MaxBatchBodyBytes))
		case errors.Is(err, errBodyTooSlow):
			return nil, refuse(err)
		case errors.Is(err, rbac.ErrRateLimited):
			return nil, err // as AdmitBatch's refusals: not audited
		}
		return nil, refuse(fmt.Errorf("%w: body could not be read", errBadRequest))
	}
	bad := malformedBatch()
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, bad
	}
	// The operations are decoded one by one and counted as they come: a
	// body of 8 MiB holds millions of "{}", and decoding them all before
	// counting took a gigabyte.
	ops, err := decodeOperations(raw, a.maxBatch)
	if err != nil {
		if errors.Is(err, errBadRequest) {
			return nil, refuse(err)
		}
		return nil, bad
	}
	return ops, nil
}

// decodeOperations reads {"operations": [object...] or null} and nothing
// else, refusing more than max operations as soon as it sees one more (an
// errBadRequest error; any other error is a malformed body). Each
// operation is kept as sent, for Caller.RunBatch to decode.
func decodeOperations(raw []byte, max int) ([]json.RawMessage, error) {
	malformed := errors.New("malformed batch body")
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, malformed
	}
	var ops []json.RawMessage
	seen := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil || tok != "operations" || seen {
			return nil, malformed
		}
		seen = true
		tok, err = dec.Token()
		if err != nil {
			return nil, malformed
		}
		if tok == nil { // "operations": null
			continue
		}
		if tok != json.Delim('[') {
			return nil, malformed
		}
		for dec.More() {
			if len(ops) == max {
				return nil, fmt.Errorf("%w: at most %d operations in one batch", errBadRequest, max)
			}
			var op json.RawMessage
			if err := dec.Decode(&op); err != nil {
				return nil, malformed
			}
			ops = append(ops, op)
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
			return nil, malformed
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, malformed
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, malformed
	}
	return ops, nil
}
