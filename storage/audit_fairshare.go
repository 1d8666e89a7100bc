package storage

import (
	"cmp"
	"context"
	"slices"

	"github.com/uptrace/bun"
)

func init() {
	AddMigration("20261125183000", "audit: changes and other records indexed by (client, id), for fair-share retention", auditFairShareUp, auditFairShareDown)
}

// The partial indexes PlanAuditPrune counts each client's changes and
// other records by, and AuditPrune.Next finds a client's (or the
// strangers') oldest of each by, without reading the table.
func auditFairShareUp(ctx context.Context, db *bun.DB) error {
	for _, q := range []string{
		`CREATE INDEX IF NOT EXISTS rolegate_audit_changes_by_client ON rolegate_audit (client, id) WHERE ` + auditChangePredicate,
		`CREATE INDEX IF NOT EXISTS rolegate_audit_others_by_client ON rolegate_audit (client, id) WHERE ` + auditOtherPredicate,
		`CREATE INDEX IF NOT EXISTS rolegate_audit_others ON rolegate_audit (id) WHERE ` + auditOtherPredicate,
		// The refusals of every client, oldest first: what the retention
		// deleted first before it shared the bound; nothing reads it now.
		`DROP INDEX IF EXISTS rolegate_audit_refusals`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

func auditFairShareDown(ctx context.Context, db *bun.DB) error {
	for _, q := range []string{
		"DROP INDEX IF EXISTS rolegate_audit_changes_by_client",
		"DROP INDEX IF EXISTS rolegate_audit_others_by_client",
		"DROP INDEX IF EXISTS rolegate_audit_others",
		`CREATE INDEX IF NOT EXISTS rolegate_audit_refusals ON rolegate_audit (id) WHERE ` + auditRefusalPredicate,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// auditChangePredicate picks the records of changes; auditOtherPredicate
// every other record: refusals, and writes that changed nothing.
const (
	auditChangePredicate = "outcome IN ('" + AuditCreated + "', '" + AuditDeleted + "')"
	auditOtherPredicate  = "outcome NOT IN ('" + AuditCreated + "', '" + AuditDeleted + "')"
)

// AuditPrune is the plan of one retention run over the count bound (see
// PlanAuditPrune); Next carries it out one batch at a time.
type AuditPrune struct {
	steps []auditPruneStep
}

// auditPruneStep deletes the records of one bucket of one kind (other records
// or changes) with id up to upTo. The bound, not a count, makes a step
// idempotent: replicas that run the same plan at once share the work
// instead of each deleting its own share.
type auditPruneStep struct {
	client   string
	stranger bool // the strangers' bucket: no client, or no change on record
	others   bool
	upTo     int64
	changes  string // the changes table to probe: see changesProbe
}

// auditBucket is one client's records (or the strangers'), as counted.
type auditBucket struct {
	client          string
	stranger        bool
	changes, others int64
}

// PlanAuditPrune plans the deletes that bring the audit table to at most
// keep records, sharing keep fairly between clients: while over it, the
// clients holding the most records lose their oldest ones, and a client
// at or below the fair level (the largest level L such that keeping at
// most L records of every client fits in keep) loses none. Within a
// client, its other records (refusals, and writes that changed nothing)
// go before its changes, oldest first.
//
// The records of a client are those with its fingerprint. Records with no
// client (requests without an accepted key) and the other records of
// clients with no change on record share one bucket, the strangers':
// anybody can make up keys, each with a refused request or a delete of
// nothing, so one bucket per such key would let a stranger drive the fair
// level towards zero; a client with changes has written to a namespace,
// and open mode bounds the namespaces ever written (AUTH_MAX_NAMESPACES).
//
// It reads the counts through partial indexes of (client, id) and does
// not delete anything; an empty plan means nothing is over the bound.
func PlanAuditPrune(ctx context.Context, db bun.IDB, keep int) (AuditPrune, error) {
	var changes []struct {
		Client string `bun:"client"`
		N      int64  `bun:"n"`
	}
	if err := db.NewRaw(`SELECT client, COUNT(*) AS n FROM rolegate_audit WHERE `+auditChangePredicate+` GROUP BY client`).Scan(ctx, &changes); err != nil {
		return AuditPrune{}, Classify(err)
	}
	var others []struct {
		Client string `bun:"client"`
		N      int64  `bun:"n"`
	}
	probe := changesProbe(db)
	if err := db.NewRaw(`SELECT client, COUNT(*) AS n FROM rolegate_audit r WHERE `+auditOtherPredicate+` AND r.client <> '' AND EXISTS (
		SELECT 1 FROM `+probe+` WHERE c.client = r.client AND c.`+auditChangePredicate+`) GROUP BY client`).Scan(ctx, &others); err != nil {
		return AuditPrune{}, Classify(err)
	}
	var allOthers int64
	if err := db.NewRaw(`SELECT COUNT(*) FROM rolegate_audit WHERE `+auditOtherPredicate).Scan(ctx, &allOthers); err != nil {
		return AuditPrune{}, Classify(err)
	}
	byClient := map[string]*auditBucket{}
	strangers := &auditBucket{stranger: true}
	buckets := []*auditBucket{strangers}
	for _, c := range changes {
		b := strangers
		if c.Client != "" {
			b = &auditBucket{client: c.Client}
			byClient[c.Client] = b
			buckets = append(buckets, b)
		}
		b.changes = c.N
	}
	strangers.others = allOthers
	for _, o := range others {
		if b := byClient[o.Client]; b != nil {
			b.others = o.N
			strangers.others -= o.N
		}
	}
	cuts := fairCuts(buckets, int64(keep))
	var p AuditPrune
	// The biggest cut first: the most over its share loses first.
	order := make([]int, len(buckets))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cuts[b], cuts[a]) })
	for _, i := range order {
		b, cut := buckets[i], cuts[i]
		if cut <= 0 {
			break
		}
		for _, others := range []bool{true, false} {
			n := min(cut, b.changes)
			if others {
				n = min(cut, b.others)
			}
			if n <= 0 {
				continue
			}
			cut -= n
			s := auditPruneStep{client: b.client, stranger: b.stranger, others: others, changes: probe}
			// The id of the n-th oldest: everything up to it goes.
			var ids []int64
			if err := db.NewRaw(`SELECT id FROM rolegate_audit r WHERE `+s.where()+` ORDER BY id LIMIT 1 OFFSET ?`, s.args(n-1)...).Scan(ctx, &ids); err != nil {
				return AuditPrune{}, Classify(err)
			}
			if len(ids) == 1 {
				s.upTo = ids[0]
				p.steps = append(p.steps, s)
			}
		}
	}
	return p, nil
}

// fairCuts returns how many records each bucket loses so that at most
// keep remain: none from a bucket at or below the fair level, the excess
// over it from each bucket above it. The remainder of keep that does not
// make a whole level for every bucket above it goes one record each to
// the first of them.
func fairCuts(buckets []*auditBucket, keep int64) []int64 {
	cuts := make([]int64, len(buckets))
	size := func(i int) int64 { return buckets[i].changes + buckets[i].others }
	var total int64
	order := make([]int, len(buckets))
	for i := range buckets {
		order[i] = i
		total += size(i)
	}
	if total <= keep {
		return cuts
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size(a), size(b)) })
	rem := max(keep, 0)
	for k, i := range order {
		above := int64(len(order) - k)
		if size(i)*above <= rem {
			rem -= size(i) // all of it fits under the level
			continue
		}
		level, extra := rem/above, rem%above
		for _, j := range order[k:] {
			kept := level
			if extra > 0 {
				kept++
				extra--
			}
			cuts[j] = size(j) - kept
		}
		break
	}
	return cuts
}

// changesProbe is the table (as c) that "has this client a change on
// record?" reads. SQLite is told the index: left to itself it probes
// (client, action, id), which walks every record of a client that has no
// change, once per record (minutes at 50,000 refusals with no client).
func changesProbe(db bun.IDB) string {
	if IsPostgres(db) {
		return "rolegate_audit c"
	}
	return "rolegate_audit c INDEXED BY rolegate_audit_changes_by_client"
}

// where picks the step's records: one client's other records or changes,
// or the strangers' (other records of no client or of a client with no
// change; changes recorded with no client).
func (s auditPruneStep) where() string {
	switch {
	case s.stranger && s.others:
		return auditOtherPredicate + ` AND (r.client = '' OR NOT EXISTS (
			SELECT 1 FROM ` + s.changes + ` WHERE c.client = r.client AND c.` + auditChangePredicate + `)) AND id <= ?`
	case s.others:
		return `client = ? AND ` + auditOtherPredicate + ` AND id <= ?`
	default:
		return `client = ? AND ` + auditChangePredicate + ` AND id <= ?`
	}
}

// args are the arguments of where, then extra.
func (s auditPruneStep) args(extra ...any) []any {
	upTo := s.upTo
	if upTo == 0 {
		upTo = 1 << 62 // planning: no bound yet
	}
	if s.stranger && s.others {
		return append([]any{upTo}, extra...)
	}
	return append([]any{s.client, upTo}, extra...)
}

// Next deletes up to AuditPruneBatch records of the plan and reports how
// many; 0 means the plan is done. One statement each, so that writers
// (one at a time on SQLite) never wait long behind it.
func (p *AuditPrune) Next(ctx context.Context, db bun.IDB) (int64, error) {
	for len(p.steps) > 0 {
		s := p.steps[0]
		res, err := db.NewRaw(`DELETE FROM rolegate_audit WHERE id IN (
			SELECT id FROM rolegate_audit r WHERE `+s.where()+` ORDER BY id LIMIT ?)`, s.args(AuditPruneBatch)...).Exec(ctx)
		if err != nil {
			return 0, Classify(err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, err
		}
		if n > 0 {
			return n, nil
		}
		p.steps = p.steps[1:]
	}
	return 0, nil
}

// Done reports whether nothing is left to delete.
func (p *AuditPrune) Done() bool { return len(p.steps) == 0 }
