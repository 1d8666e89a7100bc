package storage_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/rolegate/rolegate/storage"
	"github.com/rolegate/rolegate/storage/storagetest"
)

// The feed's bounds: PruneFeed deletes entries older than a time and
// PruneFeedOver those past a count per namespace, whole revisions at a
// time (a batch's entries go together), each raising the namespace's
// floor, behind which ReadFeed is ErrFeedGone; another namespace keeps
// its own. Pages never split a revision.
func TestFeedPruneAndFloor(t *testing.T) {
	storagetest.ForEachDB(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		a, b := storage.Scope{NS: strings.Repeat("a", 64)}, storage.Scope{NS: strings.Repeat("b", 64)}
		old := time.Now().Add(-time.Hour)
		write := func(s storage.Scope, at time.Time, n int) int64 {
			t.Helper()
			var feed []storage.FeedEntry
			for i := range n {
				feed = append(feed, storage.FeedEntry{Op: "add_role", Role: fmt.Sprintf("r%d", i), At: at})
			}
			var rev int64
			err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				var err error
				rev, err = storage.RecordChange(ctx, tx, s, storage.Change{Feed: feed})
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return rev
		}
		write(a, old, 1)          // r1
		write(a, old, 3)          // r2: a batch of 3
		write(a, time.Now(), 1)   // r3
		write(a, time.Now(), 600) // r4: a batch past feedInsertRows
		write(b, old, 1)          // b's r1
		// A page ends inside a batch: next names the last entry read.
		p, err := storage.ReadFeed(ctx, db, a, 0, -1, 2)
		if err != nil || len(p.Entries) != 2 || p.Next != 2 || p.NextSeq != 0 {
			t.Fatalf("a page of 2 = %d entries, next %d.%d (%v); want 2, next 2.0", len(p.Entries), p.Next, p.NextSeq, err)
		}
		if p, err = storage.ReadFeed(ctx, db, a, 2, 0, 2); err != nil || len(p.Entries) != 2 || p.Entries[1].Role != "r2" || p.Next != 2 || p.NextSeq != -1 {
			t.Fatalf("the rest of the batch: %d entries, next %d.%d (%v); want 2, next 2", len(p.Entries), p.Next, p.NextSeq, err)
		}
		var read []storage.FeedEntry
		for after, seq := int64(3), -1; ; {
			p, err := storage.ReadFeed(ctx, db, a, after, seq, 250)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Entries) == 0 {
				break
			}
			read = append(read, p.Entries...)
			after, seq = p.Next, p.NextSeq
		}
		if len(read) != 600 || read[599].Role != "r599" || read[250].Role != "r250" {
			t.Fatalf("the batch of 600 in pages of 250: %d entries", len(read))
		}
		for {
			n, err := storage.PruneFeed(ctx, db, time.Now().Add(-time.Minute), 2)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				break
			}
		}
		if _, err := storage.ReadFeed(ctx, db, a, 1, -1, 10); !errors.Is(err, storage.ErrFeedGone) {
			t.Fatalf("after r1, past the retention: %v, want ErrFeedGone", err)
		}
		if p, err := storage.ReadFeed(ctx, db, a, 2, -1, 1000); err != nil || len(p.Entries) != 601 {
			t.Fatalf("after r2: %d entries (%v), want 601", len(p.Entries), err)
		}
		if _, err := storage.ReadFeed(ctx, db, b, 0, -1, 10); !errors.Is(err, storage.ErrFeedGone) {
			t.Fatalf("b after r0: %v, want ErrFeedGone", err)
		}
		// Past 100 entries a namespace: the 501 oldest go, and with them the
		// rest of their revision (r4, a batch of 600, goes whole).
		for {
			n, err := storage.PruneFeedOver(ctx, db, 100, 5000)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				break
			}
		}
		if _, err := storage.ReadFeed(ctx, db, a, 2, -1, 1000); !errors.Is(err, storage.ErrFeedGone) {
			t.Fatalf("after r2, past the count: %v, want ErrFeedGone", err)
		}
		var left int
		if err := db.NewRaw("SELECT count(*) FROM rolegate_change_ops WHERE ns = ?", a.NS).Scan(ctx, &left); err != nil || left != 0 {
			t.Fatalf("%d entries left (%v): the 600 of r4 are past 100 too, and go whole", left, err)
		}
		if p, err := storage.ReadFeed(ctx, db, a, 4, -1, 10); err != nil || len(p.Entries) != 0 || p.Next != 4 {
			t.Fatalf("after r4: %+v (%v)", p, err)
		}
	})
}
