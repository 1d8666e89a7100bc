package audit

import (
	"testing"
	"time"

	"github.com/google/uuid"
)

// The refusal budget tracks a bounded number of clients, and forgets only
// those whose budget is full again (forgetting them loses nothing).
func TestRefusalBudgetBoundedClients(t *testing.T) {
	b := NewRefusalBudget(1)
	for range 3 * RefusalClientsTracked {
		b.Take(uuid.NewString())
	}
	if n := len(b.clients); n > RefusalClientsTracked {
		t.Fatalf("%d clients tracked, want at most %d", n, RefusalClientsTracked)
	}
	// Clients beyond the table share the overflow budget, which is spent.
	if ok, _, _ := b.Take(uuid.NewString()); ok {
		t.Error("a client beyond the table got a fresh budget")
	}
	// Once the tracked budgets are full again, new clients get their own.
	time.Sleep(2100 * time.Millisecond)
	if ok, _, _ := b.Take(uuid.NewString()); !ok {
		t.Error("no budget for a new client after the others refilled")
	}
}
