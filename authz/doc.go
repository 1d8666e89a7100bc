// Package authz is the front door of rolegate.
//
// It owns the configuration (Config, ConfigFromEnv), opening the store
// (Open, Close), the per-client library API (Client and its sixteen
// operations), the decision cache that answers permission checks from
// memory, the REST admin handlers, Mount, and the guard constructors
// (RequirePermission, RequireRole, ...) for a host app's own routes.
//
// It composes the other packages: storage keeps the data, middleware
// supplies the storage-free Gin pieces, loginx the token-exchange login,
// samples the two sample endpoints. None of them imports authz.
package authz
