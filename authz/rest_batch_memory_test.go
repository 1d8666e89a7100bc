package authz

import (
	"strings"
	"testing"

	"github.com/rolegate/rolegate/storage/storagetest"
)

// TestRESTBatchManyEmptyOperations: a body under the 8 MiB limit made of
// empty operations ("{}," is 3 bytes, 2.8 million of them) must be refused
// as over MaxBatchOperations while it is read, not after decoding every
// one: decoding them all first took the hostapp from 35 MB to 1.08 GB of
// memory with one request. The refusal names the limit.
func TestRESTBatchManyEmptyOperations(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, _ := openREST(t, target, nil)
		e := newTestRouter(t, az, "")
		key := newKey()
		n := (MaxBatchBodyBytes - 64) / 3
		body := `{"operations":[` + strings.Repeat(`{},`, n-1) + `{}]}`
		var msg string
		peak := heapPeak(func() {
			w := performRequest(e, "POST", "/api/batch", key, strings.NewReader(body))
			msg, _ = checkEnvelope(t, w, 400)["error"].(string)
		})
		if !strings.Contains(msg, "at most 50000 operations") {
			t.Errorf("error = %q, want the operation limit named", msg)
		}
		// The body itself is 8 MiB and is read whole; the operations
		// decoded before the limit are 50,001 of 112 bytes.
		if limit := uint64(64 << 20); peak > limit {
			t.Errorf("peak heap %d MiB for one batch request, want under %d MiB", peak>>20, limit>>20)
		}
		t.Logf("peak heap %d MiB", peak>>20)
		// Still fine: the limit itself, and a null list.
		w := performRequest(e, "POST", "/api/batch", key, strings.NewReader(`{"operations":null}`))
		checkEnvelope(t, w, 200)
	})
}

// TestRESTBatchErrorDoesNotEchoHugeOp: the error of a batch names the
// failing operation by index and op, but an op that is not one of the
// known ones is not echoed whole: a 1 MB "op" came back as a 1 MB error.
func TestRESTBatchErrorDoesNotEchoHugeOp(t *testing.T) {
	storagetest.ForEachTarget(t, func(t *testing.T, target storagetest.Target) {
		az, _ := openREST(t, target, nil)
		e := newTestRouter(t, az, "")
		w := performRequest(e, "POST", "/api/batch", newKey(), strings.NewReader(`{"operations":[{"op":"`+strings.Repeat("x", 1<<20)+`"}]}`))
		msg, _ := checkEnvelope(t, w, 400)["error"].(string)
		if len(msg) > 1024 || !strings.Contains(msg, "operation 0") {
			t.Errorf("error of %d bytes: %.200s", len(msg), msg)
		}
	})
}
