package storage

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/driver/pgdriver"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Traced returns a copy of db whose queries are spans of tp's tracer: one
// client span per round trip (BEGIN, COMMIT and each statement), a child
// of the span in the query's context. A query with no span in its context
// (the background revision check, say) is not traced, so a host sees store
// spans only inside the requests, checks and writes they belong to. db
// itself, which may be the host's, is left without the hook.
//
// The spans say which database, which operation and which table
// (db.system.name, db.operation.name, db.collection.name), never the
// statement: bun formats values into it, and they are the names of users,
// roles and permissions. A failure sets the span's status and error.type
// (the SQLSTATE on PostgreSQL), never the driver's message, which may
// hold a value or a host name.
//
// The keys are those of OpenTelemetry's semantic conventions v1.40, written
// out: a go.opentelemetry.io/otel/semconv/vX package ships only with the
// otel releases after X, so importing one would raise the host's otel.
func Traced(db *bun.DB, tp trace.TracerProvider) *bun.DB {
	system := attribute.String("db.system.name", "sqlite")
	if IsPostgres(db) {
		system = attribute.String("db.system.name", "postgresql")
	}
	return db.WithQueryHook(&queryTracer{tracer: tp.Tracer(TracerName), system: system})
}

type queryTracer struct {
	tracer trace.Tracer
	system attribute.KeyValue
}

var _ bun.QueryHook = (*queryTracer)(nil)

type spanStash struct{}

// BeforeQuery starts the span. It keeps the span in the event rather than
// in the returned context: bun hands BEGIN's context to the whole
// transaction, which would make every statement a child of BEGIN.
func (h *queryTracer) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx
	}
	op := e.Operation()
	attrs := []attribute.KeyValue{h.system, attribute.String("db.operation.name", op)}
	name := op
	if q, ok := e.IQuery.(interface{ GetTableName() string }); ok {
		if table := q.GetTableName(); table != "" {
			attrs = append(attrs, attribute.String("db.collection.name", table))
			name = op + " " + table
		}
	}
	_, span := h.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	if e.Stash == nil {
		e.Stash = map[any]any{}
	}
	e.Stash[spanStash{}] = span
	return ctx
}

// AfterQuery ends the span BeforeQuery started, if any.
func (h *queryTracer) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	span, ok := e.Stash[spanStash{}].(trace.Span)
	if !ok {
		return
	}
	if e.Err != nil && !errors.Is(e.Err, sql.ErrNoRows) {
		span.SetAttributes(attribute.String("error.type", errorType(e.Err)))
		span.SetStatus(codes.Error, "")
	}
	span.End()
}

// errorType names a failure without its message: the SQLSTATE of a
// PostgreSQL error, "unavailable" for a store that cannot be reached,
// "context" for a cancelled or timed-out query, else "_OTHER".
func errorType(err error) string {
	var pg pgdriver.Error
	switch {
	case errors.As(err, &pg):
		return pg.Field('C')
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "context"
	case errors.Is(Classify(err), ErrUnavailable):
		return "unavailable"
	default:
		return "_OTHER"
	}
}
