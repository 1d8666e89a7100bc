package authz_test

import (
	"context"
	"fmt"
	"time"
)

// Following the change feed: read what the client's writes did after a
// revision, page by page, passing each page's Next as the next after.
// A reader that saves Next once it has handled a page, and starts from
// the saved one, sees every change once.
func ExampleClient_Changes() {
	az, done := openExample(nil)
	defer done()
	ctx := context.Background()
	client, _ := az.HostClient()

	client.AddRole(ctx, "editor", "Can edit notes")
	client.AddPermission(ctx, "editor", "edit")
	client.AddMembership(ctx, "sara", "editor")
	client.RenameUser(ctx, "sara", "sara.k", false)

	after := "r0" // or a backup's revision, or a saved Next
	for {
		page, err := client.Changes(ctx, after, 2)
		if err != nil {
			panic(err) // authz.ErrChangesGone: resync from a backup
		}
		for _, ch := range page.Changes {
			fmt.Println(ch.Revision, ch.Op, ch.Role, ch.Permission, ch.User, ch.NewUser, ch.Actor)
		}
		after = page.Next // also past revisions that changed nothing shown
		if len(page.Changes) == 0 {
			break
		}
	}

	// WaitChanges waits for the next change (here: none comes).
	page, _ := client.WaitChanges(ctx, after, 100, 50*time.Millisecond)
	fmt.Println(len(page.Changes), page.Next == after)
	// Output:
	// r1 add_role editor    library
	// r2 add_permission editor edit   library
	// r3 add_membership editor  sara  library
	// r4 rename_user   sara sara.k library
	// 0 true
}
