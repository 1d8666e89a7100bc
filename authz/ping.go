package authz

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/rolegate/rolegate/middleware"
)

// pingTimeout bounds the store probe of GET /ping.
const pingTimeout = 2 * time.Second

// pingData is GET /ping's data. It says whether this replica can serve
// correct answers and nothing a stranger could use: no address, no
// driver message, no version, no counts of clients or users.
type pingData struct {
	Status string `json:"status"` // always "ok": otherwise the answer is 503
	// Store: the store answered the probe (a 200 means it did).
	Store bool `json:"store"`
	// Listener: the change listener is connected (PostgreSQL only; absent
	// on SQLite, which has no listener).
	Listener *bool `json:"listener,omitempty"`
	// RevisionLag: the most revisions any client's decision cache here is
	// behind the store (changes other replicas made that this one has not
	// seen yet); 0 when up to date.
	RevisionLag int64 `json:"revision_lag"`
}

// pingState keeps GET /ping's last probe: /ping takes no credentials, so
// however often it is called, the store is probed at most once per
// Config.pingCache (1 s), one probe at a time; pings that arrive during a
// probe wait for it (at most pingTimeout) and share its outcome.
type pingState struct {
	mu  sync.Mutex
	at  time.Time // when the last probe ended
	ok  bool      // its outcome
	lag int64
}

// restPing is GET /ping: 200 with pingData when the store answers the
// probe within pingTimeout, else 503 (the store detail of the error
// envelope is all it says; the cause goes to the log).
func (az *Authz) restPing(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	ok, lag := false, int64(0)
	if !az.closed.Load() {
		ok, lag = az.probe(c.Request.Context(), middleware.RequestIDFrom(c))
	}
	if !ok {
		middleware.Fail(c, http.StatusServiceUnavailable, http.StatusText(http.StatusServiceUnavailable), "store unavailable")
		return
	}
	d := pingData{Status: "ok", Store: true, RevisionLag: lag}
	if az.feed.Listens() {
		live := az.feed.Live()
		d.Listener = &live
	}
	middleware.Respond(c, http.StatusOK, "ok", d)
}

// probe returns the last probe's outcome if it is recent, else probes the
// store: a ping, then the revisions of the clients whose caches hold
// something, to measure their lag.
func (az *Authz) probe(ctx context.Context, requestID string) (ok bool, lag int64) {
	p := &az.ping
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.at.IsZero() && az.cfg.pingCache > 0 && time.Since(p.at) < az.cfg.pingCache {
		return p.ok, p.lag
	}
	// Not the caller's context: the outcome is shared by the pings of the
	// next second, so one caller hanging up must not make it a failure.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pingTimeout)
	defer cancel()
	p.ok, p.lag = false, 0
	var err error
	if err = az.db.PingContext(pctx); err != nil {
		az.log.Warn("ping: store unreachable", "request_id", requestID, "error", err)
	} else if p.lag, err = az.feed.Lag(pctx); err != nil {
		az.log.Warn("ping: store revisions unreadable", "request_id", requestID, "error", err)
	} else {
		p.ok = true
	}
	p.at = time.Now()
	return p.ok, p.lag
}
