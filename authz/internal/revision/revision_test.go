package revision

import (
	"context"
	"testing"
)

func TestRecord(t *testing.T) {
	if Recorder(context.Background()) != nil {
		t.Fatal("a recorder in a bare context")
	}
	var tok string
	ctx := Record(context.Background(), &tok)
	*Recorder(ctx) = "r7"
	if tok != "r7" {
		t.Fatalf("token = %q", tok)
	}
}
