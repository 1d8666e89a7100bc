// Package limits bounds what one client may make the process do at once
// in open mode, where any UUID v4 is a client: a write rate per client
// (WriteRate) and store-reading requests in flight per client (InFlight),
// and batches in flight per client and in all (InFlight too).
// Both keep a bounded table of clients, so that a flood of fresh keys
// costs a bounded amount of memory; beyond the table, new clients share
// one overflow entry.
//
// A refusal is a *Refused, which errors.Is reports as ErrTooMany and which
// says when to retry (the REST API's Retry-After).
package limits
