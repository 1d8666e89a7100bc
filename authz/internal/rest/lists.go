package rest

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/authz/internal/rbac"
	"github.com/rolegate/rolegate/middleware"
)

// listWriter writes the success envelope of a list route one entry at
// a time, so that the memory of a response does not grow with the list:
// {"success":true,"code":200,"message":"ok","data":[ then each entry, then
// ],"timestamp":"..."}, byte for byte what middleware.Respond writes for
// the whole list (fields in the same order, entries marshalled by
// encoding/json as gin does).
//
// Nothing is written before the first entry (or the end of an empty list),
// so an error while reading the first window (role not found, store
// unavailable) still gets its error envelope. Once the envelope has begun
// its status cannot change: a later error aborts the connection
// (streamList), so that the client sees a truncated body, never a
// success that lists only part of the entries.
type listWriter struct {
	c       *gin.Context
	slot    *readSlot // given back while the connection takes what is written
	bw      *bufio.Writer
	started bool
	n       int
	// open and close, when set, wrap the array in an object: data is
	// open + entries + close (GET /api/where_can's {"global":..,"scopes":[...]}).
	open, close string
}

func (w *listWriter) start() error {
	w.started = true
	w.c.Header("Content-Type", "application/json; charset=utf-8")
	w.c.Status(http.StatusOK)
	w.bw = bufio.NewWriterSize(slotWriter{w: w.c.Writer, slot: w.slot}, 32<<10)
	if _, err := w.bw.WriteString(`{"success":true,"code":200,"message":"ok","data":`); err != nil {
		return err
	}
	if w.open == "" {
		return w.bw.WriteByte('[')
	}
	_, err := w.bw.WriteString(w.open)
	return err
}

// entry writes one entry of the data array.
func (w *listWriter) entry(v any) error {
	if !w.started {
		if err := w.start(); err != nil {
			return err
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if w.n > 0 {
		if err := w.bw.WriteByte(','); err != nil {
			return err
		}
	}
	w.n++
	_, err = w.bw.Write(b)
	return err
}

// flush sends what is buffered, at the end of a window, down to the
// connection: a long list reaches the client as it is read.
func (w *listWriter) flush() error {
	if !w.started {
		return nil
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	w.slot.pause()
	w.c.Writer.Flush()
	return w.slot.resume()
}

// finish closes the array and the envelope.
func (w *listWriter) finish() error {
	if !w.started {
		if err := w.start(); err != nil {
			return err
		}
	}
	ts, _ := json.Marshal(middleware.Timestamp(time.Now()))
	end := w.close
	if end == "" {
		end = "]"
	}
	if _, err := w.bw.WriteString(end + `,"timestamp":`); err != nil {
		return err
	}
	if _, err := w.bw.Write(ts); err != nil {
		return err
	}
	if err := w.bw.WriteByte('}'); err != nil {
		return err
	}
	return w.bw.Flush()
}

// streamList answers a list route: rt.stream writes the entries through w
// window by window. An error before anything was written is answered with
// the error envelope as for any route. After that the response is already
// a 200 with part of the list: the error is logged and the connection
// aborted (http.ErrAbortHandler, which net/http and both recoveries pass
// on), so the body stays invalid JSON instead of ending as a success.
func (a *API) streamList(c *gin.Context, ctx context.Context, rt route, call *request) {
	w := &listWriter{c: c, slot: call.slot}
	err := rt.stream(call, w)
	if err == nil {
		err = w.finish()
	}
	if err == nil {
		return
	}
	if !w.started {
		c.Header(middleware.HeaderTotalCount, "") // the error envelope counts nothing
		a.fail(c, ctx, rt, call, err)
		return
	}
	a.log.LogAttrs(ctx, slog.LevelError, "rest: list failed after its first entries; connection aborted",
		slog.String("action", rt.action), slog.String("request_id", middleware.RequestIDFrom(c)),
		slog.Int("entries_sent", w.n), slog.String("error", err.Error()))
	panic(http.ErrAbortHandler)
}

// totalCount sets X-Total-Count on a list route: how many entries match
// the request's ?prefix, whatever ?limit and ?after, so that a client
// paging through the list can say "page 2 of 7". count (CountRoles or
// CountUsers of the Client) reads it in one query, a COUNT over the
// client's rows, before the list's first window, since the header
// must go out before the first entry; the two are separate reads, like
// the windows, so a write in between may make them differ by what it
// wrote. An error answer drops it (streamList).
//
// Only GET /api/roles and GET /api/users report it: they are the lists
// the console pages through, and the lists that grow with the namespace.
// The other lists are of one role, user or permission; counting the
// effective ones (inheritance, a scope) costs about as much as reading
// them, which every page would pay whether or not its client shows a
// total.
func totalCount(call *request, count func(ctx context.Context, prefix string) (int, error)) error {
	prefix, _, err := prefixParam(call)
	if err != nil {
		return err
	}
	n, err := count(call.ctx, prefix)
	if err != nil {
		return err
	}
	call.c.Header(middleware.HeaderTotalCount, strconv.Itoa(n))
	return nil
}

// window is the rbac.ListWindow of a list request.
func (call *request) window() rbac.ListWindow {
	return rbac.ListWindow{After: call.page.after, Limit: call.page.limit}
}

// eachName writes each window of names as entries made by wrap.
func eachName[E any](w *listWriter, wrap func(string) E) func([]string) error {
	return func(names []string) error {
		for _, n := range names {
			if err := w.entry(wrap(n)); err != nil {
				return err
			}
		}
		return w.flush()
	}
}

// eachEntry writes each window of entries as they are (the scoped views,
// the roles with their descriptions).
func eachEntry[E any](w *listWriter) func([]E) error {
	return func(page []E) error {
		for _, e := range page {
			if err := w.entry(e); err != nil {
				return err
			}
		}
		return w.flush()
	}
}
