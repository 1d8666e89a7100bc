package observe

// Reads from a read replica (AUTH_POSTGRESQL_READ_URL): how many the
// standby served, and why the others went to the primary. The counts are
// kept where reads are routed (feed.Reader) and read at collection time
// (Readings.StandbyReads, Readings.StandbyFallbacks), so that a host
// without a standby registers none of these metrics.

// Fallback is why a read that could go to the standby went to the
// primary.
type Fallback uint8

const (
	// FallbackBehind: the standby had not replayed the revision the read
	// needed within the wait (AUTH_POSTGRESQL_READ_WAIT), or was seen
	// behind for longer than that already.
	FallbackBehind Fallback = iota
	// FallbackDown: the standby did not answer lately; it is tried again
	// in the background, and reads keep to the primary until it answers.
	FallbackDown
	// FallbackBusy: every connection to the standby was in use.
	FallbackBusy
	// FallbackFailed: a read on the standby failed before it handed
	// anything on (the standby went away, or cancelled the statement for
	// the WAL it replays) and was run again on the primary.
	FallbackFailed
	Fallbacks
)

// FallbackLabels are the reasons' label values, by reason.
var FallbackLabels = [Fallbacks]string{"behind", "down", "busy", "failed"}
