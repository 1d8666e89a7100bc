package storage

// Names and values that storage's callers share with it.
const (
	// TypeSQLite and TypePostgreSQL are the database types accepted in
	// Config.Type.
	TypeSQLite     = "sqlite"
	TypePostgreSQL = "postgresql"
	// DefaultSQLitePath is where the SQLite file lives when nothing is set.
	DefaultSQLitePath = "~/.auth.sqlite3"

	// AuditCreated and AuditDeleted are the outcomes of a write that
	// changed something. Only such a write bumps its namespace's revision,
	// and in open mode AUTH_MAX_NAMESPACES bounds the namespaces ever
	// written; a write that found nothing to do (existed, absent) or a
	// refusal can come from any made-up key.
	AuditCreated = "created"
	AuditDeleted = "deleted"
	// AuditPruneBatch is how many audit records one statement of an audit
	// prune deletes: small enough that a SQLite writer or a PostgreSQL
	// vacuum never waits long behind it.
	AuditPruneBatch = 5000

	// KindUser, KindPermission, KindDescription and KindAudit are the kinds
	// of encrypted values, as Reencode hands them to its Recode function.
	// KindAudit is an audit record's resource, which names users and
	// permissions in their stored form among other things; its owner is
	// the client's fingerprint, not the namespace.
	KindUser        = "user"
	KindPermission  = "permission"
	KindDescription = "description"
	KindAudit       = "audit"
	// KindActor is a change feed entry's actor, as the audit log words it
	// ("user:" and a stored user name, or a name of no one); its owner is
	// the namespace.
	KindActor = "actor"
	// SettingReencodeProgress is the rolegate_settings key of Reencode's
	// progress marker.
	SettingReencodeProgress = "cipher_reencode_progress"

	// TracerName is the instrumentation scope of rolegate's spans.
	TracerName = "github.com/rolegate/rolegate"
)
