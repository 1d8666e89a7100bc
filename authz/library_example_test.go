package authz_test

// The examples of docs/library.md: each fenced Go block of that page is a
// part of one of these functions, word for word (TestLibraryDocExamples),
// so the page shows code that compiles and runs.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	_ "modernc.org/sqlite" // the host's own SQLite driver

	"github.com/rolegate/rolegate/authz"
)

// The library API of one client key: az.Client returns the handle and an
// error (a key that is not a UUID v4).
func ExampleAuthz_Client() {
	az, done := openExample(nil)
	defer done()
	ctx := context.Background()

	client, err := az.Client("0b7e3f0a-5c1d-4e2f-8a3b-9c4d5e6f7a8b")
	if err != nil {
		panic(err) // authz.ErrInvalidClientKey: not a UUID v4
	}
	created, _ := client.AddRole(ctx, "editor", "Can edit notes")
	again, _ := client.AddRole(ctx, "editor", "Can edit notes") // idempotent
	client.AddPermission(ctx, "editor", "edit")
	client.AddMembership(ctx, "sara", "editor")
	ok, _ := client.UserHasPermission(ctx, "sara", "edit")
	users, _ := client.WhichUsersCan(ctx, "edit")
	_, err = client.AddMembership(ctx, "jack", "nosuch")
	fmt.Println(created, again, ok, users, errors.Is(err, authz.ErrRoleNotFound))

	_, err = az.Client("not-a-key")
	fmt.Println(errors.Is(err, authz.ErrInvalidClientKey))
	// Output:
	// true false true [sara] true
	// true
}

// Inheritance, a scoped membership, and why a user holds a permission.
func ExampleClient_ExplainPermissionIn() {
	az, done := openExample(nil)
	defer done()
	ctx := context.Background()
	client, _ := az.HostClient()

	client.AddRole(ctx, "reader", "")
	client.AddPermission(ctx, "reader", "read")
	client.AddRole(ctx, "editor", "")
	client.AddInheritance(ctx, "editor", "reader") // editor gets read too
	client.AddMembershipIn(ctx, "org-42", "alice", "editor")

	in42, _ := client.UserHasPermissionIn(ctx, "org-42", "alice", "read")
	in7, _ := client.UserHasPermissionIn(ctx, "org-7", "alice", "read")
	why, _ := client.ExplainPermissionIn(ctx, "org-42", "alice", "read")
	fmt.Println(in42, in7)
	fmt.Println(why.Membership, why.Scope, why.Chain, why.GrantedBy)
	// Output:
	// true false
	// editor org-42 [editor reader] reader
}

// Several writes in one transaction; a failing batch stores nothing and
// names the operation by its index, counting from 0.
func ExampleClient_Batch() {
	az, done := openExample(nil)
	defer done()
	ctx := context.Background()
	client, _ := az.HostClient()

	results, err := client.Batch(ctx, []authz.Operation{
		{Op: "add_role", Role: "editor", Description: "Writes notes"},
		{Op: "add_permission", Role: "editor", Permission: "edit"},
		{Op: "add_membership", Role: "editor", User: "sara"},
	})
	fmt.Println(results, err)

	_, err = client.Batch(ctx, []authz.Operation{
		{Op: "add_role", Role: "viewer"},
		{Op: "add_permission", Role: "ghost", Permission: "read"},
	})
	var be *authz.BatchError
	fmt.Println(errors.As(err, &be), be.Index, errors.Is(err, authz.ErrRoleNotFound))
	roles, _ := client.Roles(ctx)
	fmt.Println(len(roles)) // viewer was not created
	// Output:
	// [{add_role created} {add_permission created} {add_membership created}] <nil>
	// true 1 true
	// 1
}

// rolegate on the host's own *bun.DB (SQLite here, with foreign keys on),
// and a default role that every user holds.
func ExampleOpenDB() {
	dir, _ := os.MkdirTemp("", "rolegate-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	sqldb, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "app.db")+"?_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)")
	if err != nil {
		panic(err)
	}
	db := bun.NewDB(sqldb, sqlitedialect.New())
	defer db.Close() // the host's: az.Close leaves it open

	az, err := authz.OpenDB(ctx, db, authz.Config{ClientKey: hostKey, DefaultRole: "member", Logger: quiet})
	if err != nil {
		panic(err)
	}
	defer az.Close()
	host, err := az.HostClient()
	if err != nil {
		panic(err)
	}
	host.AddPermission(ctx, "member", "read") // everyone may read
	added, err := host.AddMemberships(ctx, "member", []string{"sara", "jack"})
	fmt.Println(added, err)
	// Output: 2 <nil>
}

// Every problem of a configuration at once, on one line; the storage
// settings with the rest.
func ExampleConfig_Validate() {
	cfg := authz.DefaultConfig()
	cfg.DatabaseType = "postgresql" // but no AUTH_POSTGRESQL_URL
	cfg.EnableEncryption = true     // but no AUTH_ENCRYPTION_KEY
	cfg.JWTAlgorithm = "RS256"
	fmt.Println(cfg.Validate())
	// Output:
	// authz: configuration: AUTH_DATABASE_TYPE is postgresql but neither AUTH_POSTGRESQL_URL nor AUTH_DATABASE_URL is set; AUTH_ENABLE_ENCRYPTION is on but AUTH_ENCRYPTION_KEY is not set; AUTH_JWT_ALGORITHM="RS256" is not allowed (use HS256, HS384 or HS512)
}
