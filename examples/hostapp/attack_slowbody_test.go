package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// slowUpload sends POST /api/batch with key on a connection of its own,
// declaring a body of 64 KiB and sending it a byte a second, again and
// again, until ctx ends: each time the server answers (or closes), a new
// upload starts. It counts the answers by status, and the seconds each
// took.
type slowUpload struct {
	mu       sync.Mutex
	statuses map[int]int
	took     []time.Duration
}

func (s *slowUpload) run(ctx context.Context, addr, key string) {
	for ctx.Err() == nil {
		start := time.Now()
		code := s.once(ctx, addr, key)
		s.mu.Lock()
		s.statuses[code]++
		s.took = append(s.took, time.Since(start))
		s.mu.Unlock()
	}
}

// once is one slow upload; its status (0 when the connection closed with
// no answer, or ctx ended first).
func (s *slowUpload) once(ctx context.Context, addr, key string) int {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return 0
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	fmt.Fprintf(conn, "POST /api/batch HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", addr, key, 64<<10)
	answered := make(chan int, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case code := <-answered:
			return code
		case <-tick.C:
			if _, err := conn.Write([]byte(" ")); err != nil {
				select {
				case code := <-answered:
					return code
				case <-time.After(5 * time.Second):
					return 0
				}
			}
		}
	}
}

// Attack 2 of issue 33, two slow uploads: two strangers each keep a
// POST /api/batch open, declaring 64 KiB and sending a byte a second,
// starting again as soon as one ends. Before, each took a slot of the two
// batches all clients may run at once before its body was read and held
// it until the server's 30 s read timeout: every other client's batch was
// 429. Now a body is read before that slot is taken, at a least pace
// (408 past it): another client's 20 batches, one every 300 ms, are all
// answered 201, each within 1 s (a round whose slowest misses is run
// again, at most 3 rounds), and the slow uploads are cut within 10 s.
func TestOpenModeAttackSlowUploads(t *testing.T) {
	needAttacks(t)
	bin, _ := hostappBinary(t)
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		app := startOpen(t, bin, target)
		victim := uuid.NewString()
		app.must(t, http.MethodPost, "/api/role/r", victim, nil, http.StatusCreated)
		addr := strings.TrimPrefix(app.base, "http://")
		ctx, cancel := context.WithCancel(context.Background())
		var slow sync.WaitGroup
		uploads := []*slowUpload{{statuses: map[int]int{}}, {statuses: map[int]int{}}}
		for _, u := range uploads {
			slow.Add(1)
			go func() {
				defer slow.Done()
				u.run(ctx, addr, uuid.NewString())
			}()
		}
		time.Sleep(500 * time.Millisecond) // both uploads have begun
		best := time.Duration(1<<63 - 1)
		for round := 1; round <= 3 && best >= time.Second; round++ {
			var slowest time.Duration
			var codes []int
			var other []byte
			for i := range 20 {
				body := batchBody([]string{fmt.Sprintf(`{"op":"add_permission","role":"r","permission":"p%d-%d"}`, round, i)})
				code, b, took := app.do(t, http.MethodPost, "/api/batch", victim, body)
				codes = append(codes, code)
				if code != http.StatusCreated {
					other = b
				}
				slowest = max(slowest, took)
				time.Sleep(300 * time.Millisecond)
			}
			if other != nil {
				t.Errorf("%s: round %d: the other client's batches answered %v, want all 201 (one said %.200s)", target.Name, round, codes, other)
			}
			t.Logf("%s: round %d: the other client's 20 batches while two uploads send a byte a second: %v, the slowest in %v",
				target.Name, round, codes, ms(slowest))
			best = min(best, slowest)
		}
		cancel()
		slow.Wait()
		for i, u := range uploads {
			u.mu.Lock()
			t.Logf("%s: slow upload %d: answers %v (0: none), each after %v", target.Name, i+1, u.statuses, u.took)
			for _, took := range u.took[:len(u.took)-1] { // the last was cut by the test
				if took > 10*time.Second {
					t.Errorf("%s: a slow upload held its connection %v, want it cut within 10 s", target.Name, took)
				}
			}
			if u.statuses[http.StatusRequestTimeout] == 0 {
				t.Errorf("%s: slow upload %d was never answered 408: %v", target.Name, i+1, u.statuses)
			}
			u.mu.Unlock()
		}
		if best >= time.Second {
			t.Errorf("%s: the other client's slowest batch took %v at best in 3 rounds, want under 1 s", target.Name, best)
		}
	})
}
