package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// api talks to one rolegate server with one client key.
type api struct {
	base string // server URL without a trailing slash, e.g. http://127.0.0.1:8000
	key  string
	hc   *http.Client
	doc  map[string]any // the server's OpenAPI document, fetched once when needed
	// atLeast, when set, is sent as ?at_least= with every read, so that a
	// read on one replica is never older than a write made on another.
	atLeast string
}

// envelope is rolegate's success and error envelope.
type envelope struct {
	Success bool            `json:"success"`
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	Error   string          `json:"error"`
}

// apiError is a refusal from the server, with its status.
type apiError struct {
	status  int
	message string
	method  string
	path    string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%s %s: %d %s", e.method, e.path, e.status, e.message)
}

// pageSize is the page the list calls ask for (the server's maximum).
const pageSize = 1000

// call sends one request; body, when not nil, is sent as JSON. It returns
// the envelope's status and data. Errors are exitErrors with the code of
// their kind.
func (a *api) call(ctx context.Context, method, path string, query url.Values, body any) (int, json.RawMessage, error) {
	u := a.base + path
	if a.atLeast != "" && method == http.MethodGet {
		q := url.Values{}
		for k, v := range query {
			q[k] = v
		}
		q.Set("at_least", a.atLeast)
		query = q
	}
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case rawBody:
		rd, ctype = b.r, b.contentType
	default:
		raw, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd, ctype = bytes.NewReader(raw), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, nil, usageErr("bad --url: %v", err)
	}
	req.Header.Set("Authorization", "Bearer "+a.key)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return 0, nil, &exitError{code: exitUnreachable, err: fmt.Errorf("cannot reach %s: %w", a.base, errors.Unwrap(err))}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return 0, nil, &exitError{code: exitUnreachable, err: fmt.Errorf("reading the answer of %s %s: %w", method, path, err)}
	}
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil || (env.Code == 0 && !env.Success) {
		// Not rolegate's envelope: most likely a route this server does
		// not have (a host's plain 404), or not rolegate at all.
		msg := strings.TrimSpace(string(raw))
		if len(msg) > 200 {
			msg = msg[:200] + "..."
		}
		if resp.StatusCode == http.StatusNotFound {
			msg = "no such route on this server (an older rolegate?): " + msg
		}
		return resp.StatusCode, nil, classify(&apiError{status: resp.StatusCode, message: msg, method: method, path: path})
	}
	if resp.StatusCode >= 300 {
		msg := env.Message
		if env.Error != "" && env.Error != env.Message {
			msg += ": " + env.Error
		}
		return resp.StatusCode, nil, classify(&apiError{status: resp.StatusCode, message: msg, method: method, path: path})
	}
	return resp.StatusCode, env.Data, nil
}

// rawBody is a request body sent as it is read (a stream), not as JSON.
type rawBody struct {
	r           io.Reader
	contentType string
}

// classify gives a server's refusal its exit code.
func classify(e *apiError) error {
	code := exitDenied
	switch {
	case e.status == http.StatusBadRequest, e.status == http.StatusUnauthorized, e.status == http.StatusRequestEntityTooLarge:
		code = exitUsage
	case e.status == http.StatusServiceUnavailable, e.status == http.StatusBadGateway, e.status == http.StatusGatewayTimeout:
		code = exitUnreachable
	}
	return &exitError{code: code, err: e}
}

// get decodes the data of a GET into dst.
func (a *api) get(ctx context.Context, path string, query url.Values, dst any) error {
	_, data, err := a.call(ctx, http.MethodGet, path, query, nil)
	if err != nil {
		return err
	}
	return decodeData(data, dst)
}

// send runs a POST or DELETE and decodes its data into dst (may be nil).
func (a *api) send(ctx context.Context, method, path string, query url.Values, body, dst any) (int, error) {
	status, data, err := a.call(ctx, method, path, query, body)
	if err != nil || dst == nil {
		return status, err
	}
	return status, decodeData(data, dst)
}

func decodeData(data json.RawMessage, dst any) error {
	if err := json.Unmarshal(data, dst); err != nil {
		return fmt.Errorf("unexpected answer from the server: %w", err)
	}
	return nil
}

// list reads every page of a list route (?limit=&after=) into a slice of
// maps; key is the field the list is sorted by.
func (a *api) list(ctx context.Context, path, key string, query url.Values) ([]map[string]any, error) {
	var all []map[string]any
	after := ""
	for {
		q := url.Values{}
		for k, v := range query {
			q[k] = v
		}
		q.Set("limit", fmt.Sprint(pageSize))
		if after != "" {
			q.Set("after", after)
		}
		var page []map[string]any
		if err := a.get(ctx, path, q, &page); err != nil {
			return nil, err
		}
		all = append(all, page...)
		if len(page) < pageSize {
			return all, nil
		}
		last, _ := page[len(page)-1][key].(string)
		if last == "" || last <= after {
			return all, nil // a server that does not page: stop rather than loop
		}
		after = last
	}
}

// names is list for the routes whose entries are {key: name}.
func (a *api) names(ctx context.Context, path, key string, query url.Values) ([]string, error) {
	rows, err := a.list(ctx, path, key, query)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		if s, ok := r[key].(string); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// seg escapes one name as a path segment.
func seg(name string) string { return url.PathEscape(name) }

// scopeQuery is the query of a route that takes ?scope=; empty scope: none.
func scopeQuery(scope string) url.Values {
	if scope == "" {
		return nil
	}
	return url.Values{"scope": {scope}}
}

// requireFeature checks, in the server's OpenAPI document, that it knows
// a feature the command is about to rely on, so that an older server does
// not silently ignore, say, ?scope= and store a global membership instead.
func (a *api) requireFeature(ctx context.Context, f feature) error {
	ok, err := a.has(ctx, f)
	if err != nil {
		return err
	}
	if !ok {
		return deniedErr("this server does not support %s (its /openapi.json does not document it); upgrade it", f.what)
	}
	return nil
}

// has reports whether the server's OpenAPI document shows the feature; an
// error when the document cannot be read.
func (a *api) has(ctx context.Context, f feature) (bool, error) {
	if a.doc == nil {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.base+"/openapi.json", nil)
		if err != nil {
			return false, usageErr("bad --url: %v", err)
		}
		resp, err := a.hc.Do(req)
		if err != nil {
			return false, &exitError{code: exitUnreachable, err: fmt.Errorf("cannot reach %s: %w", a.base, errors.Unwrap(err))}
		}
		defer resp.Body.Close()
		var doc map[string]any
		if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(&doc) != nil {
			return false, deniedErr("cannot read the server's /openapi.json to check that it supports %s", f.what)
		}
		a.doc = doc
	}
	return f.present(a.doc), nil
}
