// Package revision holds the context that a write fills with the token
// of what it wrote (the tokens themselves are authz/internal/feed's).
package revision

import "context"

type recorderKey struct{}

// Record returns a context with which a write stores the token of its
// revision in *dst once it succeeded: the revision it made, or, for a
// write that found nothing to do, the client's revision read after it (a
// state in which what it asked for holds). *dst stays empty when a write
// fails, or when that read fails.
func Record(ctx context.Context, dst *string) context.Context {
	return context.WithValue(ctx, recorderKey{}, dst)
}

// Recorder is the destination Record put in ctx; nil when none.
func Recorder(ctx context.Context) *string {
	dst, _ := ctx.Value(recorderKey{}).(*string)
	return dst
}
