package main

import (
	"container/list"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// connCap is a listener that keeps at most max connections open. When a
// new connection comes at the cap, the connection idle the longest (a
// keep-alive between requests, or one that has sent nothing yet) is
// closed to make room, as nginx reuses its idle keep-alive connections;
// only when every connection is busy with a request does Accept wait for
// one to end. Without a cap every idle socket holds a file descriptor
// and about 19 KB until its idle timeout: 19,000 of them took the app from
// 59 to 411 MiB, and at the open-file limit accept failed and new
// clients were left unanswered. netutil.LimitListener caps the count too,
// but waits instead of closing idle connections, so a few thousand idle
// sockets hold every slot and a new client waits for their timeouts.
//
// The server tells it which connections are idle through ConnState
// (track); a connection closed by the server, its client or the cap gives
// its slot back once.
type connCap struct {
	net.Listener
	max int
	log *slog.Logger

	mu      sync.Mutex
	freed   *sync.Cond
	open    int
	idle    *list.List // *cappedConn, idle the longest first
	closed  bool
	evicted int       // closed by the cap since the last warning
	warned  time.Time // when the last warning was logged
}

// limitConns wraps ln; max <= 0 means no cap (ln itself, and no tracking).
func limitConns(ln net.Listener, max int, log *slog.Logger) *connCap {
	c := &connCap{Listener: ln, max: max, log: log, idle: list.New()}
	c.freed = sync.NewCond(&c.mu)
	return c
}

type cappedConn struct {
	net.Conn
	cap  *connCap
	once sync.Once
	elem *list.Element // in cap.idle while idle; guarded by cap.mu
	gone bool          // its slot is given back; guarded by cap.mu
}

func (c *cappedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.cap.release(c) })
	return err
}

func (l *connCap) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil || l.max <= 0 {
		return conn, err
	}
	l.mu.Lock()
	for l.open >= l.max && !l.closed {
		e := l.idle.Front()
		if e == nil {
			l.freed.Wait() // every connection is busy: wait for one to end or idle
			continue
		}
		victim := e.Value.(*cappedConn)
		l.idle.Remove(e)
		victim.elem = nil
		l.evicted++
		warn := time.Since(l.warned) >= 10*time.Second
		if warn {
			l.warned = time.Now()
		}
		n := l.evicted
		if warn {
			l.evicted = 0
		}
		l.mu.Unlock()
		victim.Close() // gives its slot back (release)
		if warn {
			l.log.Warn("connection cap reached: closing the connections idle the longest to answer new ones",
				"max_conns", l.max, "closed_since_last_warning", n)
		}
		l.mu.Lock()
	}
	if l.closed {
		l.mu.Unlock()
		conn.Close()
		return nil, net.ErrClosed
	}
	l.open++
	l.mu.Unlock()
	return &cappedConn{Conn: conn, cap: l}, nil
}

func (l *connCap) release(c *cappedConn) {
	l.mu.Lock()
	if c.elem != nil {
		l.idle.Remove(c.elem)
		c.elem = nil
	}
	c.gone = true
	l.open--
	l.freed.Signal()
	l.mu.Unlock()
}

// Close stops the listener and wakes an Accept waiting for a slot.
func (l *connCap) Close() error {
	l.mu.Lock()
	l.closed = true
	l.freed.Broadcast()
	l.mu.Unlock()
	return l.Listener.Close()
}

// track is the server's ConnState hook: new and idle connections may be
// closed to make room, those serving a request may not.
func (l *connCap) track(nc net.Conn, state http.ConnState) {
	c, ok := nc.(*cappedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch state {
	case http.StateNew, http.StateIdle:
		if c.gone {
			return
		}
		if c.elem != nil {
			l.idle.MoveToBack(c.elem)
		} else {
			c.elem = l.idle.PushBack(c)
		}
		l.freed.Signal() // an Accept waiting for a slot may close this one
	default: // active, hijacked or closed
		if c.elem != nil {
			l.idle.Remove(c.elem)
			c.elem = nil
		}
	}
}

// openConns is how many connections the cap holds open.
func (l *connCap) openConns() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}
