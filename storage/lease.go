package storage

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// TryLease takes, or renews, the lease named key (a rolegate_settings
// row holding "<holder>/<expiry in Unix milliseconds>") for holder until
// ttl from now. It reports false when another holder has it and it has
// not expired. A compare-and-set on the row keeps two processes from both
// taking it; expiry is by the processes' clocks, so ttl must be far above
// their skew. A holder that dies loses the lease when it expires. A ttl of
// exactly 0 gives the lease up instead, if holder has it (false).
func TryLease(ctx context.Context, db bun.IDB, key, holder string, ttl time.Duration) (bool, error) {
	if ttl == 0 {
		_, err := db.NewRaw(`DELETE FROM rolegate_settings WHERE key = ? AND value LIKE ?`, key, holder+"/%").Exec(ctx)
		return false, Classify(err)
	}
	cur, ok, err := GetSetting(ctx, db, key)
	if err != nil {
		return false, err
	}
	now := time.Now()
	val := holder + "/" + strconv.FormatInt(now.Add(ttl).UnixMilli(), 10)
	if !ok {
		res, err := db.NewRaw(`INSERT INTO rolegate_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, key, val).Exec(ctx)
		return affectedOne(res, err)
	}
	who, exp, _ := strings.Cut(cur, "/")
	if ms, err := strconv.ParseInt(exp, 10, 64); who != holder && err == nil && now.UnixMilli() < ms {
		return false, nil
	}
	res, err := db.NewRaw(`UPDATE rolegate_settings SET value = ? WHERE key = ? AND value = ?`, val, key, cur).Exec(ctx)
	return affectedOne(res, err)
}

func affectedOne(res interface{ RowsAffected() (int64, error) }, err error) (bool, error) {
	if err != nil {
		return false, Classify(err)
	}
	n, err := res.RowsAffected()
	return n == 1, Classify(err)
}
