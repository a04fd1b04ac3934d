package coordinator

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// ErrStateDamaged is wrapped by the errors of opening a state whose files
// are damaged (truncated, overwritten, from another program). The error
// names the file and the recovery.
var ErrStateDamaged = errors.New("state damaged")

// damaged returns an error wrapping ErrStateDamaged about file (a path
// under the state directory dir) with the recovery: the results in the
// state cannot be trusted, so the sweep is computed again in a fresh
// state; the outputs already written are not touched.
func damaged(dir, file, what string) error {
	return fmt.Errorf("%w: %s: %s. Recovery: move the state directory %s aside (keep it if you want to inspect it) and run the sweep again with a fresh --state: every result is computed again; outputs already written are not affected",
		ErrStateDamaged, file, what, dir)
}

// checkStoreFiles looks for the damage Badger cannot report as an
// error: a table file whose footer points outside the file (Badger opens
// tables in goroutines of its own and panics on it), and a MANIFEST that
// lost its record of the tables (Badger would then start empty, silently
// dropping every stored result, and delete the tables).
func checkStoreFiles(dir string) error {
	bdir := filepath.Join(dir, badgerDir)
	tables, err := filepath.Glob(filepath.Join(bdir, "*.sst"))
	if err != nil {
		return fmt.Errorf("open state %s: %w", dir, err)
	}
	for _, p := range tables {
		if err := checkTableFooter(p); err != nil {
			return damaged(dir, p, err.Error())
		}
	}
	mp := filepath.Join(bdir, "MANIFEST")
	f, err := os.Open(mp)
	if errors.Is(err, os.ErrNotExist) {
		if len(tables) > 0 {
			return damaged(dir, mp, fmt.Sprintf("missing, while %d table files are there", len(tables)))
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("open state %s: %w", dir, err)
	}
	defer f.Close()
	m, _, err := badger.ReplayManifestFile(f, 0, badger.DefaultOptions(bdir).WithLogger(nil))
	if err != nil {
		return damaged(dir, mp, err.Error())
	}
	if len(m.Tables) == 0 && len(tables) > 0 {
		return damaged(dir, mp, fmt.Sprintf("records none of the %d table files (truncated or overwritten?)", len(tables)))
	}
	return nil
}

// checkTableFooter checks that a Badger table file's footer (from the
// end: checksum length, checksum, index length, index) lies within the
// file.
func checkTableFooter(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	u32 := func(at int64) (int64, error) {
		var b [4]byte
		if at < 0 || at+4 > size {
			return 0, io.ErrUnexpectedEOF
		}
		if _, err := f.ReadAt(b[:], at); err != nil {
			return 0, err
		}
		return int64(binary.BigEndian.Uint32(b[:])), nil
	}
	pos := size - 4
	sumLen, err := u32(pos)
	if err != nil {
		return fmt.Errorf("table file of %d bytes is too short (truncated?)", size)
	}
	pos -= sumLen + 4
	indexLen, err := u32(pos)
	if err != nil || pos-indexLen < 0 {
		return fmt.Errorf("table file of %d bytes has a footer pointing outside it (truncated?)", size)
	}
	return nil
}

// openError turns an error of badger.Open into one naming the damaged
// file and the recovery where the text says which file it is.
func openError(dir string, err error) error {
	bdir := filepath.Join(dir, badgerDir)
	msg := err.Error()
	switch {
	case strings.Contains(msg, "manifest"), strings.Contains(msg, "MANIFEST"):
		return damaged(dir, filepath.Join(bdir, "MANIFEST"), msg)
	case strings.Contains(msg, "Encryption key mismatch"), strings.Contains(msg, "KEYREGISTRY"), strings.Contains(msg, "key registry"):
		return damaged(dir, filepath.Join(bdir, "KEYREGISTRY"), msg+" (the state is not encrypted: the file is damaged)")
	case strings.Contains(msg, ".sst"), strings.Contains(msg, ".vlog"), strings.Contains(msg, ".mem"), strings.Contains(msg, "checksum"), strings.Contains(msg, "corrupt"):
		return damaged(dir, bdir, msg)
	}
	return fmt.Errorf("open state %s: %w", dir, err)
}
