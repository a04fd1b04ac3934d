//go:build !linux

package coordinator

import "github.com/dgraph-io/badger/v4"

// pageOutTables does nothing where MADV_DONTNEED's effect on shared file
// mappings is not known: the kernel reclaims the store's mapped tables
// under memory pressure alone.
func pageOutTables(*badger.DB, string) {}
