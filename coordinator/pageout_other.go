//go:build !linux

package coordinator

// pageOutTables does nothing where MADV_PAGEOUT is unknown: the kernel
// reclaims the store's mapped tables under memory pressure alone.
func pageOutTables(string) {}
