package authz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// MaxBatchBodyBytes bounds the body of POST /api/batch: a batch of
// MaxBatchOperations fits, while one request still cannot hold more than
// this much memory.
const MaxBatchBodyBytes = 8 << 20

// restBatchRoute is POST /api/batch, for the audit of refusals.
var restBatchRoute = restRoute{method: http.MethodPost, path: "/api/batch", action: "batch", write: true}

// restBatchHandlers are the handlers of POST /api/batch: body
// {"operations": [Operation...]}, run by Client.Batch in one transaction;
// data {"results": [{"op", "result"}...]}, one per operation. When one
// fails nothing is stored, and the error names the operation by index.
// It has its own body limit (the other routes take 64 KiB).
func (az *Authz) restBatchHandlers() []gin.HandlerFunc {
	rt := restBatchRoute
	return []gin.HandlerFunc{az.restClientKeyAuth(rt), middleware.BodyLimit(MaxBatchBodyBytes), az.restBatch}
}

func (az *Authz) restBatch(c *gin.Context) {
	rt := restBatchRoute
	ctx := az.requestContext(c)
	key, _ := middleware.ClientKeyFrom(c)
	cl, err := az.Client(key)
	if err != nil {
		az.restFail(c, ctx, rt, nil, restRefuse(err))
		return
	}
	call := &restCall{c: c, ctx: ctx, cl: cl}
	var ops []Operation
	if err := restReadBatch(c, &ops); err != nil {
		az.restFail(c, ctx, rt, call, err)
		return
	}
	results, err := cl.Batch(ctx, ops)
	if err != nil {
		// Batch audited its refusal; say which operation failed.
		status, reason := statusOf(err)
		var be *BatchError
		detail := reason
		if status < 500 && errors.As(err, &be) {
			detail = be.Error()
		} else if errors.Is(err, ErrQuotaExceeded) {
			detail = err.Error() // names the setting; nothing secret
		}
		if status >= 500 {
			az.log.LogAttrs(ctx, slog.LevelWarn, "rest: batch failed", slog.String("request_id", middleware.RequestIDFrom(c)),
				slog.String("error", err.Error()))
		}
		middleware.Fail(c, status, reason, detail)
		return
	}
	if results == nil {
		results = []OpResult{}
	}
	middleware.Respond(c, http.StatusOK, fmt.Sprintf("%d operations", len(results)), gin.H{"results": results})
}

// restReadBatch decodes the batch body: one JSON object with an
// "operations" list and nothing else.
func restReadBatch(c *gin.Context, dst *[]Operation) error {
	if c.Request.Body == nil {
		return restRefuse(fmt.Errorf(`%w: body must be a JSON object with an "operations" list`, errBadRequest))
	}
	raw, err := io.ReadAll(c.Request.Body)
	if err != nil {
		if middleware.IsBodyTooLarge(err) {
			return restRefuse(fmt.Errorf("%w: over %d bytes", errBodyTooLarge, MaxBatchBodyBytes))
		}
		return restRefuse(fmt.Errorf("%w: body could not be read", errBadRequest))
	}
	bad := restRefuse(fmt.Errorf(`%w: body must be a JSON object with an "operations" list of {"op", "role", "description", "permission", "user", "scope", "parent"}`, errBadRequest))
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return bad
	}
	// The operations are decoded one by one and counted as they come: a
	// body of 8 MiB holds millions of "{}", and decoding them all before
	// counting took a gigabyte.
	ops, err := decodeOperations(raw)
	if err != nil {
		if errors.Is(err, errBadRequest) {
			return restRefuse(err)
		}
		return bad
	}
	*dst = ops
	return nil
}

// decodeOperations reads {"operations": [Operation...] or null} and
// nothing else, refusing more than MaxBatchOperations as soon as it sees
// one more (an errBadRequest error; any other error is a malformed body).
func decodeOperations(raw []byte) ([]Operation, error) {
	malformed := errors.New("malformed batch body")
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, malformed
	}
	var ops []Operation
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
			if len(ops) == MaxBatchOperations {
				return nil, fmt.Errorf("%w: at most %d operations in one batch", errBadRequest, MaxBatchOperations)
			}
			var op Operation
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
