package authz

import (
	"context"

	"github.com/rolegate/rolegate/storage"
)

// actorKey is the context key of WithActor.
type actorKey struct{}

// WithActor returns ctx carrying the person on whose behalf the host's Go
// code calls the library API: the audit records of the writes made with
// it name "user:<user>" as their actor instead of "library". Use it when
// the host's own admin screens call the library for a signed-in person.
// The name follows the naming rule; a write with a name that breaks it is
// refused with ErrInvalidName before anything is stored.
func WithActor(ctx context.Context, user string) context.Context {
	return context.WithValue(ctx, actorKey{}, user)
}

// actor is who asks, as a request knows it: a person (a user name of the
// host's namespace) or a client key (the accepted key itself, held in
// memory for the request only: a record gets its short digest), or
// neither (anonymous on a REST request, the library outside one).
type actor struct {
	user, key string
}

// actorOf is the audit record's actor of a write or refusal in scope s:
// the stored form of a person's name (never the plaintext of an encrypted
// name), a key's short digest, WithActor's user, or library.
func actorOf(ctx context.Context, s storage.Scope) string {
	info := requestInfoOf(ctx)
	switch {
	case info.actor.user != "":
		return storage.ActorUserPrefix + s.AuditUser(info.actor.user)
	case info.actor.key != "":
		// Hashed here, when a record is written, not on every request.
		return storage.KeyActor(storage.NamespaceOf(info.actor.key))
	case info.id != "":
		return storage.ActorAnonymous
	}
	if u, ok := ctx.Value(actorKey{}).(string); ok {
		return storage.ActorUserPrefix + s.AuditUser(u)
	}
	return storage.ActorLibrary
}

// checkActor refuses a WithActor name that breaks the naming rule.
func checkActor(ctx context.Context) error {
	if u, ok := ctx.Value(actorKey{}).(string); ok {
		return checkNames("actor", u)
	}
	return nil
}
