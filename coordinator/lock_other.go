//go:build !unix

package coordinator

// writerHolds reports false where directory locks cannot be probed:
// the state's files are then checked even while a coordinator writes
// them.
func writerHolds(string) bool { return false }

// lockDir does not lock where directory locks are not available.
func lockDir(string) (func(), error) { return func() {}, nil }
