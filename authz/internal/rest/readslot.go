package rest

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rolegate/rolegate/authz/internal/limits"
	"github.com/rolegate/rolegate/authz/internal/rbac"
)

// readSlot is a store-reading request's slot among the reads of all
// clients running at once (Config.ReadsAll): held while the request reads
// the store and works, given back while a list waits on its reader to
// take what it wrote. A reader that stops reading so holds its own
// client's slot (Config.Reads), never one every other client needs.
type readSlot struct {
	shared  *limits.Shared
	ctx     context.Context
	client  string
	release func() // nil while given back
}

// takeReadSlot takes a slot for client, waiting its turn (see
// limits.Shared); a nil slot when shared is nil.
func takeReadSlot(ctx context.Context, shared *limits.Shared, client string) (*readSlot, error) {
	if shared == nil {
		return nil, nil
	}
	release, err := shared.Acquire(ctx, client)
	if err != nil {
		return nil, gone(err)
	}
	return &readSlot{shared: shared, ctx: ctx, client: client, release: release}, nil
}

// gone words the end of a request's context while it waited as the
// store does (503; the client is gone anyway): a *limits.Refused stays.
func gone(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: %v", rbac.ErrUnavailable, err)
	}
	return err
}

// pause gives the slot back, until resume.
func (s *readSlot) pause() {
	if s != nil && s.release != nil {
		s.release()
		s.release = nil
	}
}

// resume takes a slot again after pause, waiting as long as it takes (a
// list half written must go on).
func (s *readSlot) resume() error {
	if s == nil || s.release != nil {
		return nil
	}
	release, err := s.shared.Resume(s.ctx, s.client)
	if err != nil {
		return gone(err)
	}
	s.release = release
	return nil
}

// slotWriter is w with the slot given back for each write to it: the
// connection under a list's buffer, where a write blocks for as long as
// the reader does not read.
type slotWriter struct {
	w    io.Writer
	slot *readSlot
}

func (sw slotWriter) Write(p []byte) (int, error) {
	sw.slot.pause()
	n, err := sw.w.Write(p)
	if err == nil {
		err = sw.slot.resume()
	}
	return n, err
}
