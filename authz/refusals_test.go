package authz

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// A flood of refused requests writes a bounded number of audit records;
// every refusal is still accounted for (recorded, or counted in the next
// record), changes are always recorded, and the flood is logged once.
func TestAuditRefusalBudget(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		const perSecond = 5
		az, logs := openREST(t, target, func(c *Config) { c.AuditRefusalsPerSecond = perSecond })
		e := newTestRouter(t, az, "")
		ctx := context.Background()

		const flood = 100
		start := time.Now()
		for range flood {
			w := performRequest(e, http.MethodGet, "/api/roles", "", nil)
			checkEnvelope(t, w, http.StatusUnauthorized)
		}
		elapsed := time.Since(start)

		key := newKey()
		if w := performRequest(e, http.MethodPost, "/api/role/editor", key, nil); w.Code != http.StatusCreated {
			t.Fatalf("a change during the flood answered %d", w.Code)
		}

		time.Sleep(time.Second / perSecond * 2) // the budget refills
		checkEnvelope(t, performRequest(e, http.MethodGet, "/api/roles", "", nil), http.StatusUnauthorized)

		var outcomes []string
		if err := az.db.NewRaw("SELECT outcome FROM rolegate_audit WHERE outcome LIKE 'refused:%' ORDER BY id").Scan(ctx, &outcomes); err != nil {
			t.Fatal(err)
		}
		allowed := 2*perSecond + int(elapsed.Seconds()*perSecond) + 1
		if len(outcomes) < 2 || len(outcomes) > allowed+1 {
			t.Fatalf("%d refusals recorded out of %d, want at most %d", len(outcomes), flood+1, allowed+1)
		}
		last := outcomes[len(outcomes)-1]
		m := regexp.MustCompile(`\((\d+) earlier refusals not recorded: over AUTH_AUDIT_REFUSALS_PER_SECOND\)$`).FindStringSubmatch(last)
		if m == nil {
			t.Fatalf("the record after the flood does not count the skipped refusals: %q", last)
		}
		skipped, _ := strconv.Atoi(m[1])
		if len(outcomes)+skipped != flood+1 {
			t.Fatalf("%d recorded + %d counted as skipped = %d, want every one of the %d refusals",
				len(outcomes), skipped, len(outcomes)+skipped, flood+1)
		}

		var changes int
		if err := az.db.NewRaw("SELECT count(*) FROM rolegate_audit WHERE action = 'add_role' AND outcome = 'created'").Scan(ctx, &changes); err != nil || changes != 1 {
			t.Fatalf("the change made during the flood: %d records (%v), want 1", changes, err)
		}
		if n := strings.Count(logs.String(), "faster than AUTH_AUDIT_REFUSALS_PER_SECOND"); n != 1 {
			t.Fatalf("the flood was logged %d times, want once:\n%s", n, logs)
		}
	})
}
