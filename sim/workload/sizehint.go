package workload

import (
	"encoding/binary"
	"os"
)

// bytesPerRecord is a little under the mean length of a job line in the
// archive's cleaned traces (88-94 bytes), so that a hint from the text's
// size rarely falls short of the number of lines.
const bytesPerRecord = 80

// maxRecordsHint caps a hint, which comes from a file's size or a gzip
// trailer that nothing has checked yet.
const maxRecordsHint = 1 << 22

// recordsHint returns about how many job lines the SWF file f holds, from
// the size of its text: the file's size, or for a gzip file the size of
// the uncompressed data its trailer gives (modulo 2^32). It is only a
// capacity for the parser's list of records, which otherwise grows by
// copying itself several times over: 0 when the size is unknown.
// The hint is capped by lim's limits on bytes and jobs.
func recordsHint(f *os.File, lim Limits) int {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	size := st.Size()
	var head [2]byte
	if n, _ := f.ReadAt(head[:], 0); n == 2 && isGzip(head[:]) {
		var tail [4]byte
		if size < 18 {
			return 0
		}
		if n, _ := f.ReadAt(tail[:], size-4); n != 4 {
			return 0
		}
		size = int64(binary.LittleEndian.Uint32(tail[:]))
	}
	size = min(size, lim.MaxBytes)
	return int(min(size/bytesPerRecord, int64(lim.MaxJobs), maxRecordsHint))
}
