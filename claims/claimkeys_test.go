package claims

import (
	"slices"
	"testing"
)

// TestClaimKeyReaders checks that every key the unknown-key error lists
// as valid has a reader, and that every reader's key is listed.
func TestClaimKeyReaders(t *testing.T) {
	for _, k := range claimKeys {
		if claimKeyReaders[k] == nil {
			t.Errorf("claim key %q has no reader", k)
		}
	}
	for k := range claimKeyReaders {
		if !slices.Contains(claimKeys, k) {
			t.Errorf("reader of claim key %q: the key is not in claimKeys", k)
		}
	}
}
