package claims

import (
	"reflect"
	"slices"
	"testing"
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
