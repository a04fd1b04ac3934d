package coordinator

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
)

// Large results are kept in files of their own under the state
// directory's spool sub-directory, and Badger keeps only a small
// reference to each (its size and checksum). Badger would put any value
// over its value threshold into its value log, which it reads through
// memory maps: every page of a result read once to write the outputs
// would then count in the coordinator's resident memory until the log
// file is closed (about 900 MB for a sweep of 30 million job rows).
// Spool files are read with plain reads instead, through the page cache,
// outside the process's memory.
//
// A spool file is written to a temporary file, synced and renamed into
// place before the reference is recorded, and the reference is recorded
// before the result message is acked, so killing the coordinator at any
// point loses nothing acknowledged. A file that is missing, of the wrong
// size or with the wrong checksum when it is read (a crash of the
// machine, a damaged disk, a file removed by hand) makes the result
// unreadable: the task is run again, like a result that does not decode.
const (
	// spoolDir is the state directory's sub-directory of spool files.
	spoolDir = "spool"
	// spoolMin is the size from which a result is spooled; smaller ones
	// (most of a sweep of many small tasks) stay in Badger, whose
	// memtables hold them without a file and a sync per result.
	spoolMin = 64 << 10
	// spoolMagic starts a reference value; a marshalled result starts
	// with "SFTR", so the two cannot be confused.
	spoolMagic = "SFSP"
	// spoolRefLen is the length of a reference: magic, uint64 size and
	// uint32 CRC-32C of the file's bytes, big-endian.
	spoolRefLen = len(spoolMagic) + 8 + 4
)

// ErrResultDamaged is wrapped by [Store.Result] errors about a spooled
// result whose file is missing or does not match its reference.
var ErrResultDamaged = errors.New("stored result damaged")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// spoolRef returns the reference of a spooled result.
func spoolRef(b []byte) []byte {
	ref := make([]byte, 0, spoolRefLen)
	ref = append(ref, spoolMagic...)
	ref = binary.BigEndian.AppendUint64(ref, uint64(len(b)))
	return binary.BigEndian.AppendUint32(ref, crc32.Checksum(b, castagnoli))
}

// isSpoolRef reports whether a stored value is a reference to a spool
// file.
func isSpoolRef(v []byte) bool {
	return len(v) == spoolRefLen && bytes.HasPrefix(v, []byte(spoolMagic))
}

// spoolable reports whether a result of key (a prefixRes or prefixErr key)
// is large enough to be spooled and its task ID safe as a file name.
func spoolable(key string, size int) bool {
	if size < spoolMin {
		return false
	}
	id := key[strings.IndexByte(key, '/')+1:]
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range id {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// spoolPath returns the spool file of key: "res/ab12" is spool/res-ab12.
func (s *Store) spoolPath(key string) string {
	return filepath.Join(s.dir, spoolDir, strings.Replace(key, "/", "-", 1))
}

// writeSpool writes b to key's spool file: through a synced temporary
// file renamed into place, so the file under the final name is always
// whole. It returns the reference to store.
func (s *Store) writeSpool(key string, b []byte) ([]byte, error) {
	path := s.spoolPath(key)
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("spool result: %w", err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return nil, fmt.Errorf("spool result: %w", err)
	}
	return spoolRef(b), nil
}

// readSpool reads the spool file of key and checks it against ref.
func (s *Store) readSpool(key string, ref []byte) ([]byte, error) {
	size := binary.BigEndian.Uint64(ref[len(spoolMagic):])
	sum := binary.BigEndian.Uint32(ref[len(spoolMagic)+8:])
	b, err := os.ReadFile(s.spoolPath(key))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("%w: spool file %s missing", ErrResultDamaged, filepath.Base(s.spoolPath(key)))
	case err != nil:
		return nil, fmt.Errorf("read spool file: %w", err)
	case uint64(len(b)) != size:
		return nil, fmt.Errorf("%w: spool file %s has %d bytes, want %d", ErrResultDamaged, filepath.Base(s.spoolPath(key)), len(b), size)
	case crc32.Checksum(b, castagnoli) != sum:
		return nil, fmt.Errorf("%w: spool file %s checksum mismatch", ErrResultDamaged, filepath.Base(s.spoolPath(key)))
	}
	return b, nil
}

// removeSpool removes key's spool file, if any.
func (s *Store) removeSpool(key string) error {
	if err := os.Remove(s.spoolPath(key)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove spool file: %w", err)
	}
	return nil
}

// cleanSpool creates the spool directory and removes temporary files
// left by a killed process.
func cleanSpool(dir string) error {
	sd := filepath.Join(dir, spoolDir)
	if err := os.MkdirAll(sd, 0o755); err != nil {
		return fmt.Errorf("create spool dir: %w", err)
	}
	stale, err := filepath.Glob(filepath.Join(sd, ".tmp-*"))
	if err != nil {
		return fmt.Errorf("clean spool dir: %w", err)
	}
	for _, p := range stale {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("clean spool dir: %w", err)
		}
	}
	return nil
}
