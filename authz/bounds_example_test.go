package authz_test

import (
	"context"
	"fmt"
	"time"

	"github.com/rolegate/rolegate/authz"
)

// Time bounds: tom is an editor until Friday 18:00, ana an admin in
// org-42 for a week from Monday; the lists with bounds show both, ana's
// as not held yet.
func ExampleExpiresAt() {
	az, done := openExample(nil)
	defer done()
	ctx := context.Background()
	client, err := az.Client("0b7e3f0a-5c1d-4e2f-8a3b-9c4d5e6f7a8b")
	if err != nil {
		panic(err)
	}
	client.AddRole(ctx, "editor", "")
	client.AddRole(ctx, "admin", "")
	client.AddPermission(ctx, "editor", "edit")
	friday18 := time.Now().Add(96 * time.Hour)
	monday := time.Now().Add(72 * time.Hour)

	client.AddMembership(ctx, "tom", "editor", authz.ExpiresAt(friday18))
	client.AddMembershipIn(ctx, "org-42", "ana", "admin", authz.StartsAt(monday), authz.ExpiresAt(monday.Add(7*24*time.Hour)))

	ok, _ := client.UserHasPermission(ctx, "tom", "edit")
	fmt.Println("tom may edit:", ok)
	client.EachRoleMemberBounded(ctx, "editor", authz.ListWindow{}, func(page []authz.Listed) error {
		for _, m := range page {
			fmt.Println(m.Name, "until set:", m.ExpiresAt != nil, "held:", m.Held)
		}
		return nil
	})
	client.EachScopedMembershipBounded(ctx, authz.ScopedWindow{}, func(page []authz.ScopedListed) error {
		for _, m := range page {
			fmt.Println(m.User, m.Role, m.Scope, "from set:", m.StartsAt != nil, "held:", m.Held)
		}
		return nil
	})
	// Output:
	// tom may edit: true
	// tom until set: true held: true
	// ana admin org-42 from set: true held: false
}
