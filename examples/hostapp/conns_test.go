package main

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"
)

// capServer serves h on loopback behind a connection cap of max, with the
// cap's ConnState hook, and returns its address and the cap.
func capServer(t *testing.T, max int, h http.Handler) (string, *connCap) {
	t.Helper()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := limitConns(tcp, max, slog.New(slog.DiscardHandler))
	srv := newServer(h, time.Minute)
	srv.ConnState = ln.track
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), ln
}

// rawGet sends one GET / on a new connection, reads the answer and leaves
// the connection open (keep-alive), as an idle client would.
func rawGet(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	r := bufio.NewReader(c)
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return c, r
}

// closedByServer says whether the server has closed c (EOF within d).
func closedByServer(c net.Conn, r *bufio.Reader, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := r.ReadByte()
	return err == io.EOF
}

// waitIdle waits until the cap counts n idle connections.
func waitIdle(t *testing.T, ln *connCap, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		ln.mu.Lock()
		idle := ln.idle.Len()
		ln.mu.Unlock()
		if idle == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d idle connections, want %d", idle, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// At the cap, a new client is answered at once: the connection idle the
// longest is closed to make room, the others are kept, and the count of
// open connections stays at the cap.
func TestConnCapClosesTheLongestIdle(t *testing.T) {
	addr, ln := capServer(t, 3, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	// Each one idle (in the server's eyes) before the next: the server
	// marks a connection idle after the client may have read its answer.
	c1, r1 := rawGet(t, addr)
	waitIdle(t, ln, 1)
	c2, r2 := rawGet(t, addr)
	waitIdle(t, ln, 2)
	bare, err := net.Dial("tcp", addr) // connected, has sent nothing
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	waitIdle(t, ln, 3)
	start := time.Now()
	rawGet(t, addr) // the fourth: answered
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the new client waited %v", took)
	}
	if !closedByServer(c1, r1, 2*time.Second) {
		t.Error("the connection idle the longest was not closed")
	}
	if closedByServer(c2, r2, 100*time.Millisecond) {
		t.Error("a connection idle for less time was closed too")
	}
	if n := ln.openConns(); n != 3 {
		t.Errorf("%d connections open, want the cap, 3", n)
	}
}

// A connection serving a request is never closed to make room: with every
// slot busy, a new client waits until one has answered its request, and
// is answered then.
func TestConnCapWaitsWhenAllBusy(t *testing.T) {
	release := make(chan struct{})
	addr, ln := capServer(t, 1, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-release
		}
	}))
	slow := make(chan int, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/slow")
		if err != nil {
			slow <- 0
			return
		}
		resp.Body.Close()
		slow <- resp.StatusCode
	}()
	for ln.openConns() < 1 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // the slow request is being served
	fast := make(chan int, 1)
	go func() {
		tr := &http.Transport{DisableKeepAlives: true}
		resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Get("http://" + addr + "/")
		if err != nil {
			fast <- 0
			return
		}
		resp.Body.Close()
		fast <- resp.StatusCode
	}()
	select {
	case code := <-fast:
		t.Fatalf("answered (%d) while the only slot served a request", code)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	if code := <-slow; code != http.StatusOK {
		t.Errorf("the busy request: %d", code)
	}
	if code := <-fast; code != http.StatusOK {
		t.Errorf("the waiting client: %d", code)
	}
}
