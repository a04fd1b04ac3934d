package claims

import (
	"reflect"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/results"
)

// checkReaders checks a key table of the claims format: every key its
// unknown-key error lists as valid has a reader, and every reader's key
// is listed. The readers are funcs.
func checkReaders[R any](t *testing.T, what string, keys []string, readers map[string]R) {
	t.Helper()
	for _, k := range keys {
		if r, ok := readers[k]; !ok || reflect.ValueOf(r).IsNil() {
			t.Errorf("%s key %q has no reader", what, k)
		}
	}
	for k := range readers {
		if !slices.Contains(keys, k) {
			t.Errorf("reader of %s key %q: the key is not in the list of valid keys", what, k)
		}
	}
}

// TestClaimKeyReaders checks the readers of a claim's keys against
// claimKeys.
func TestClaimKeyReaders(t *testing.T) { checkReaders(t, "claim", claimKeys, claimKeyReaders) }

// TestSelKeyReaders checks the readers of a selection's keys against
// selKeys.
func TestSelKeyReaders(t *testing.T) { checkReaders(t, "selection", selKeys, selKeyReaders) }

// TestTaskKeys_Values checks that every task key (sweep.TaskKeys, the one
// list) has a value in a where filter's and an along key's reader.
func TestTaskKeys_Values(t *testing.T) {
	tc := &results.TaskCols{Trace: "ctc", Policy: "easy", Label: "EASY", Estimates: "trace", LoadMode: "arrival",
		Load: 1.2, Skip: 3, Count: 40, Replication: 1, MachineProcs: 430, Moldable: true, Sigma: 0.5, RangeFactor: 2}
	for _, k := range taskKeys {
		if taskValue(tc, k) == "" {
			t.Errorf("task key %q has no text value", k)
		}
	}
	for _, k := range []string{"load", "skip", "count", "replication", "procs", "sigma", "range_factor"} {
		if _, ok := taskNumber(tc, k); !ok {
			t.Errorf("task key %q has no numeric value", k)
		}
	}
	if _, ok := taskNumber(&results.TaskCols{}, "sigma"); ok {
		t.Error("a rigid workload's sigma has a numeric value")
	}
}
