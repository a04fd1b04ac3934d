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

// TestSelKeyReaders checks the readers of a selection's keys against the
// keys its unknown-key error lists.
func TestSelKeyReaders(t *testing.T) {
	for _, k := range selKeys {
		if selKeyReaders[k] == nil {
			t.Errorf("selection key %q has no reader", k)
		}
	}
	for k := range selKeyReaders {
		if !slices.Contains(selKeys, k) {
			t.Errorf("reader of selection key %q: the key is not in selKeys", k)
		}
	}
}
