// Package authz is the front door of rolegate: role-based authorization for
// an existing Gin app. It owns the configuration (Config, ConfigFromEnv),
// opening the store (Open, OpenDB, Close), the per-client library API
// (Client), the decision cache that answers guards from memory, the REST
// admin API (Mount) and the guard constructors for the host's own routes.
// It composes the other packages: storage keeps the data, middleware
// supplies the storage-free Gin pieces, loginx the token-exchange login
// (which authz reaches only through loginapi and Config.Login), samples the
// two sample endpoints. None of them imports authz.
//
// # Opening
//
// Open validates the configuration (every problem at once, one
// *ConfigError), opens and migrates the store (SQLite or PostgreSQL, tables
// prefixed rolegate_), and logs one line naming the store, the migrations
// applied and the change listener's state. The zero Config means the
// defaults; OpenDB opens on the host's own *bun.DB instead. The SQLite
// default needs a SQLite driver linked: the embedded one by importing
// package authz/sqlite, or the host's own; OpenDB links none.
//
//	import _ "github.com/rolegate/rolegate/authz/sqlite" // the SQLite default
//
//	cfg, err := authz.ConfigFromEnv() // AUTH_* variables and .env
//	if err != nil {
//		log.Fatal(err)
//	}
//	cfg.Resolver = myAuth // who is asking: the host's own authentication
//	az, err := authz.Open(ctx, cfg)
//	if err != nil {
//		log.Fatal(err)
//	}
//	defer az.Close()
//
// # Mounting the REST API
//
// Mount registers GET /ping, GET /openapi.json, the RBAC routes under /api
// (each taking "Authorization: Bearer <client key>"), and the login and
// sample routes when configured, on the host's engine or any group:
//
//	if err := az.Mount(router.Group("/auth")); err != nil {
//		log.Fatal(err)
//	}
//
// With admin keys configured, Mount also serves the admin console (package
// console) under /console/ of the mount: a web page over the same REST API
// (Config.Console, AUTH_ENABLE_CONSOLE).
//
// # Guards
//
// Guards protect the host's own routes: one family on Authz
// (RequirePermission, RequireAnyPermission, RequireAllPermissions,
// RequireRole) with options, checking under the host client
// (AUTH_CLIENT_KEY, or ForClient) with the configured resolver: 401 without
// a user, 403 when not allowed, 503 when nothing can decide, never allowing
// on an error. A guard that cannot work panics at registration, as gin does
// for a conflicting route.
//
//	router.GET("/notes", az.RequirePermission("read"), listNotes)
//	router.POST("/notes", az.RequireAllPermissions([]string{"read", "edit"}), createNote)
//	router.GET("/admin", az.RequireRole("admin", authz.OnRefusal(myErrorBody)), admin)
//	router.GET("/orgs/:org/notes", az.RequirePermission("read", authz.ScopeFromParam("org")), orgNotes)
//	router.DELETE("/notes/:id", az.RequirePermission("notes.delete", authz.OrIf(isAuthor)), deleteNote)
//	router.DELETE("/orgs/:org/notes/:id", az.RequirePermission("notes.delete", authz.ScopeFunc(noteOrg)), deleteNote)
//
// Config.OnRefusal (or the OnRefusal option on one guard) writes the
// refusal bodies in the host's own shape; rolegate keeps the status.
// Config.DefaultRole gives every user the guards see one role.
//
// # The library API
//
// Client is the library API of one client key: roles, grants and
// memberships, and the questions about them. Every method takes a context
// and returns typed errors (ErrRoleNotFound, ErrInvalidName,
// ErrInvalidClientKey, ErrUnavailable):
//
//	host, err := az.HostClient() // or az.Client(key) for another key
//	host.AddRole(ctx, "editor", "Can edit notes")
//	host.AddPermission(ctx, "editor", "edit")
//	host.AddMembership(ctx, "sara", "editor")
//	ok, err := host.UserHasPermission(ctx, "sara", "edit")
//
// A Client has the same guard constructors, checking under its own key.
package authz
