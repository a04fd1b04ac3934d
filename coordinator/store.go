package coordinator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"

	"github.com/schedfarm/schedfarm/internal/tick"
)

// Errors of the state store.
var (
	// ErrStateLocked means another process (a running coordinator) has the
	// state directory open for writing.
	ErrStateLocked = errors.New("state directory in use by another process")
	// ErrNoSweep means the state holds no sweep of that name.
	ErrNoSweep = errors.New("no such sweep in the state")
	// ErrOutLocked means another process (a coordinator of another
	// state) is writing to the same output directory.
	ErrOutLocked = errors.New("output directory in use by another process")
)

// badgerDir is the state directory's sub-directory holding the database.
const badgerDir = "badger"

// Key layout (all values but results are JSON):
//
//	sweep/<name>            SweepRecord: the sweep's latest run
//	res/<task ID>           marshalled result of a successful task (the result cache),
//	                        or for a large one a reference to its spool file
//	err/<task ID>           the same for the task's latest failure
//	run/<run ID>/<task ID>  TaskState: the task is finished in that run
//	prov/<task ID>          Provenance of res/<task ID>: the simulator version and
//	                        the build that produced it
const (
	prefixSweep = "sweep/"
	prefixRes   = "res/"
	prefixErr   = "err/"
	prefixRun   = "run/"
	prefixProv  = "prov/"
)

// Provenance says what produced a cached result. A cached result is
// reused only by a task of the same simulator version; results recorded
// before provenance was kept have none and are computed again.
type Provenance struct {
	// SimVersion is the simulator version of the worker that ran the
	// task; Build its build identity (see worker.BuildIdentity); Worker
	// its name.
	SimVersion string `json:"sim_version"`
	Build      string `json:"build,omitempty"`
	Worker     string `json:"worker,omitempty"`
}

// SweepRecord is what the state remembers of a sweep: its latest run.
type SweepRecord struct {
	// Name and Hash are the spec's name and hash.
	Name string `json:"name"`
	Hash string `json:"hash"`
	// RunID identifies the run; a resumed run keeps it.
	RunID string `json:"run_id"`
	// Total is the number of tasks; Cached how many were taken from the
	// result cache when the run started.
	Total  int `json:"total"`
	Cached int `json:"cached"`
	// Force is set when the run ignored the result cache.
	Force bool `json:"force,omitempty"`
	// OutDir is where the outputs go.
	OutDir string `json:"out_dir"`
	// Started is when the run began; Finished when its outputs were
	// written (zero while it is unfinished).
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitzero"`
	// Unpurged lists earlier unfinished runs of the sweep whose tasks and
	// results may still be on the NATS server; the next connected
	// session purges them.
	Unpurged []string `json:"unpurged,omitempty"`
	// Publications counts the run's task publications (each publishes
	// a set of tasks under fresh message IDs, see
	// natsutil.PublishMsgID); it only grows.
	Publications int `json:"publications,omitempty"`
}

// TaskState records that a task finished in a run.
type TaskState struct {
	// Index is the task's position in the sweep.
	Index int `json:"index"`
	// Cached is set when the result came from the result cache.
	Cached bool `json:"cached,omitempty"`
	// Err is the failure of a failed task ("" when it succeeded).
	Err string `json:"err,omitempty"`
	// Worker and WallTime are where and how long the task ran; SimVersion
	// and Build what produced the result (see [Provenance]).
	Worker     string        `json:"worker,omitempty"`
	WallTime   time.Duration `json:"wall_time,omitempty"`
	SimVersion string        `json:"sim_version,omitempty"`
	Build      string        `json:"build,omitempty"`
	// Verified names the worker whose run of the task gave the same
	// result byte for byte (--verify; "" when not verified).
	Verified string `json:"verified,omitempty"`
	// At is when the result was recorded.
	At time.Time `json:"at"`
}

// Failed reports whether the task failed.
func (s TaskState) Failed() bool { return s.Err != "" }

// Store is a coordinator's durable state: sweeps, per-run task states and
// the result cache, in a Badger database under a state directory, with
// the results themselves beside it: large ones in spool files of their
// own (see spoolMin), the others appended to segment files (see
// segments); Badger keeps a reference to each. A result is written, then
// recorded in one transaction with its task state, before the result
// message is acked, so a crash loses nothing acknowledged.
//
// Badger locks the directory: one process at a time opens it for writing
// ([OpenStore]); any number may open it read-only ([OpenStoreReadOnly])
// while no writer has it. Writes are not synced to disk one by one: a
// crash of the process loses nothing, a crash of the machine may lose the
// last writes (their results are then received again, since they were
// acked only after the write).
type Store struct {
	dir      string
	db       *badger.DB
	readOnly bool
	// seg holds the results under spoolMin (see segments).
	seg *segments
	// touched counts the results read and recorded (see touch).
	touched atomic.Int64
	// stopPageOut stops the page-outs of pageOutLoop.
	stopPageOut func()
}

// pageOutInterval is the interval of the page-outs of a store open for
// writing (see pageOutLoop).
const pageOutInterval = 250 * time.Millisecond

// pageOutLoop pages out the store's tables mapped into the process every
// interval until stop is called (see pageOutTables): Badger's compactions
// read and write whole tables through memory maps whatever the results
// read or recorded (see touch), up to 60 MB between two of those while
// the results of 100,000 small tasks were recorded.
func (s *Store) pageOutLoop(every time.Duration) (stop func()) {
	return tick.Every(every, s.pageOut)
}

// pageOut pages out the store's tables mapped into the process (see
// pageOutTables).
func (s *Store) pageOut() { pageOutTables(s.db, filepath.Join(s.dir, badgerDir)) }

// pageOutEvery is how many results are read or recorded between two
// calls of pageOutTables: the store's tables mapped into the process stay
// resident about as long as it takes to touch this many results (a few
// MB for small results, their tables for large ones).
const pageOutEvery = 256

// touch counts n results read or recorded and, every pageOutEvery of
// them, pages out the store's tables mapped into the process (see
// pageOutTables), so that the coordinator's resident memory does not grow
// with the results of a sweep it has read or recorded.
func (s *Store) touch(n int) {
	after := s.touched.Add(int64(n))
	if (after-int64(n))/pageOutEvery != after/pageOutEvery {
		s.pageOut()
	}
}

// OpenStore opens (creating if needed) the state under dir for reading and
// writing. It fails with [ErrStateLocked] if another process has it open.
func OpenStore(dir string) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, badgerDir), 0o755); err != nil {
		return nil, fmt.Errorf("create state dir: %w", err)
	}
	s, err := openStore(dir, false)
	if err != nil {
		return nil, err
	}
	// Only now that the lock is held: another process may be writing.
	if err := cleanSpool(dir); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// OpenStoreReadOnly opens the state under dir for reading. It fails with
// [ErrStateLocked] while a coordinator has it open, and with an error
// wrapping [os.ErrNotExist] if there is no state.
func OpenStoreReadOnly(dir string) (*Store, error) {
	if _, err := os.Stat(filepath.Join(dir, badgerDir, "MANIFEST")); err != nil {
		return nil, fmt.Errorf("open state %s: %w", dir, err)
	}
	s, err := openStore(dir, true)
	if err != nil && !errors.Is(err, ErrStateLocked) {
		// A database left by a killed process can need a replay that a
		// read-only open refuses; nobody holds the lock (the read-only
		// open took it shared), so replay it with a brief write open.
		w, werr := openStore(dir, false)
		if werr != nil {
			return nil, err
		}
		if cerr := w.Close(); cerr != nil {
			return nil, cerr
		}
		return openStore(dir, true)
	}
	return s, err
}

// Badger's memory: its memtables are Go heap arenas of MemTableSize each
// (64 MB by default), allocated whole. Values are small: results are in
// spool files and segments, so nothing reaches the value threshold
// (which must stay under 15% of a memtable; results of earlier versions
// stored under the old 1 MB threshold are still read). The block cache
// serves little: results are written once and read once, in task order,
// when the outputs are written. Two 4 MB memtables and a 2 MB block cache
// keep the store under about 20 MB of the coordinator's memory.
//
// Earlier versions kept results under spoolMin in Badger's tables, and
// states they wrote are still read and compacted. Badger builds each
// table it flushes or compacts in the Go heap, up to ten at once, with
// allocators it pools (eight kept, none freed while tables are being
// built). With its defaults that took 250-460 MB of live heap once a
// state held a few thousand results of 10-60 KB (a reproduction's
// readings): a 4 KB block grows twice, to about three times its one
// result, when a result does not fit it; tables grow from 2 MB by a
// factor of two per level; and Snappy compresses each block into a second
// buffer. So a block holds any result under spoolMin without growing,
// every table is at most 1 MB, and blocks are not compressed (results are
// zstd-compressed already; tables written with compression by earlier
// versions are still read, Badger records each table's compression). See
// TestStore_RecordResults_compactionMemory.
func openStore(dir string, readOnly bool) (*Store, error) {
	opts := badger.DefaultOptions(filepath.Join(dir, badgerDir)).
		WithLogger(nil).
		WithReadOnly(readOnly).
		WithMemTableSize(4 << 20).
		WithNumMemtables(2).
		WithValueThreshold(4 * spoolMin).
		WithBlockCacheSize(2 << 20).
		WithValueLogFileSize(256 << 20).
		WithMetricsEnabled(false).
		WithNumCompactors(2).
		WithCompression(options.None).
		WithBaseTableSize(1 << 20).
		WithBlockSize(spoolMin + 4<<10) // a result, its key and the block's trailer
	opts.TableSizeMultiplier = 1
	if writerHolds(filepath.Join(dir, badgerDir)) {
		return nil, fmt.Errorf("open state %s: %w", dir, ErrStateLocked)
	}
	if err := checkStoreFiles(dir); err != nil {
		return nil, err
	}
	db, err := badger.Open(opts)
	if err != nil {
		// Badger does not wrap the lock error; its text is stable.
		if strings.Contains(err.Error(), "Cannot acquire directory lock") {
			return nil, fmt.Errorf("open state %s: %w", dir, ErrStateLocked)
		}
		return nil, openError(dir, err)
	}
	s := &Store{dir: dir, db: db, readOnly: readOnly, seg: newSegments(filepath.Join(dir, spoolDir))}
	if !readOnly {
		s.stopPageOut = s.pageOutLoop(pageOutInterval)
	}
	return s, nil
}

// Dir returns the state directory.
func (s *Store) Dir() string { return s.dir }

// Close closes the database.
func (s *Store) Close() error {
	if s.stopPageOut != nil {
		s.stopPageOut()
	}
	serr := s.seg.close()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close state: %w", err)
	}
	if serr != nil {
		return fmt.Errorf("close state: %w", serr)
	}
	return nil
}

// Sweep returns the record of the named sweep, or an error wrapping
// [ErrNoSweep].
func (s *Store) Sweep(name string) (*SweepRecord, error) {
	var rec SweepRecord
	err := s.db.View(func(txn *badger.Txn) error { return getJSON(txn, prefixSweep+name, &rec) })
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, fmt.Errorf("%w: %q", ErrNoSweep, name)
	}
	if err != nil {
		return nil, fmt.Errorf("read sweep %q: %w", name, err)
	}
	return &rec, nil
}

// Sweeps returns every sweep record, by name.
func (s *Store) Sweeps() ([]*SweepRecord, error) {
	var out []*SweepRecord
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte(prefixSweep), PrefetchValues: true})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			rec := new(SweepRecord)
			if err := it.Item().Value(func(v []byte) error { return json.Unmarshal(v, rec) }); err != nil {
				return fmt.Errorf("decode %s: %w", it.Item().Key(), err)
			}
			out = append(out, rec)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list sweeps: %w", err)
	}
	return out, nil
}

// PutSweep writes a sweep record.
func (s *Store) PutSweep(rec *SweepRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode sweep record: %w", err)
	}
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set([]byte(prefixSweep+rec.Name), b) }); err != nil {
		return fmt.Errorf("write sweep %q: %w", rec.Name, err)
	}
	return nil
}

// RunStates returns the state of every task finished in the run, by task
// ID.
func (s *Store) RunStates(run string) (map[string]TaskState, error) {
	out := map[string]TaskState{}
	prefix := prefixRun + run + "/"
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte(prefix), PrefetchValues: true})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			var st TaskState
			if err := it.Item().Value(func(v []byte) error { return json.Unmarshal(v, &st) }); err != nil {
				return fmt.Errorf("decode %s: %w", it.Item().Key(), err)
			}
			out[strings.TrimPrefix(string(it.Item().Key()), prefix)] = st
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read run %s: %w", run, err)
	}
	return out, nil
}

// Cached returns which of the tasks (task ID -> simulator version) have a
// successful result in the result cache produced by that simulator
// version, and how many others have a cached result of another or an
// unknown simulator version (not reused).
func (s *Store) Cached(want map[string]string) (map[string]bool, int, error) {
	out := map[string]bool{}
	other := 0
	err := s.db.View(func(txn *badger.Txn) error {
		for id, version := range want {
			s.touch(1)
			_, err := txn.Get([]byte(prefixRes + id))
			if errors.Is(err, badger.ErrKeyNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			var prov Provenance
			err = getJSON(txn, prefixProv+id, &prov)
			switch {
			case err == nil && prov.SimVersion == version:
				out[id] = true
			case err == nil || errors.Is(err, badger.ErrKeyNotFound):
				other++
			default:
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("look up result cache: %w", err)
	}
	return out, other, nil
}

// Provenance returns what produced the cached result of a task, or an
// error wrapping badger.ErrKeyNotFound when the state does not know.
func (s *Store) Provenance(id string) (Provenance, error) {
	var p Provenance
	err := s.db.View(func(txn *badger.Txn) error { return getJSON(txn, prefixProv+id, &p) })
	if err != nil {
		return p, fmt.Errorf("read provenance of task %s: %w", id, err)
	}
	return p, nil
}

// PutState writes a task's state in a run (to record its verification).
func (s *Store) PutState(run, id string, st TaskState) error {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("encode task state: %w", err)
	}
	if err := s.db.Update(func(txn *badger.Txn) error { return txn.Set([]byte(prefixRun+run+"/"+id), b) }); err != nil {
		return fmt.Errorf("write state of task %s: %w", id, err)
	}
	return nil
}

// MarkFinished records task states without results (tasks taken from the
// result cache), in as many transactions as needed.
func (s *Store) MarkFinished(run string, states map[string]TaskState) error {
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	for id, st := range states {
		b, err := json.Marshal(st)
		if err != nil {
			return fmt.Errorf("encode task state: %w", err)
		}
		if err := wb.Set([]byte(prefixRun+run+"/"+id), b); err != nil {
			return fmt.Errorf("record cached tasks: %w", err)
		}
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("record cached tasks: %w", err)
	}
	return nil
}

// RecordResult stores a task's marshalled result (in the result cache if
// it succeeded) and its state in the run, in one transaction. A large
// result goes to a spool file first (see spoolMin), and the transaction
// records a reference to it.
func (s *Store) RecordResult(run, id string, st TaskState, result []byte) error {
	return s.RecordResults(run, []ResultRecord{{ID: id, State: st, Result: result}})
}

// ResultRecord is a task's marshalled result and its state, to record
// with [Store.RecordResults].
type ResultRecord struct {
	ID     string
	State  TaskState
	Result []byte
}

// RecordResults records several results as [Store.RecordResult] does
// one, in as few transactions as Badger's transaction size allows: each
// result and its state are always in the same transaction, so a crash
// leaves every result either recorded with its state or not at all. One
// transaction for a batch of small results costs much less than one per
// result.
func (s *Store) RecordResults(run string, recs []ResultRecord) error {
	// No segment is removed between the results' writing and their
	// references' commit.
	s.seg.gc.RLock()
	defer s.seg.gc.RUnlock()
	entries, err := s.resultEntries(recs)
	if err != nil {
		return err
	}
	// fill sets entries from start on into txn until one does not fit; it
	// returns how many it set.
	fill := func(txn *badger.Txn, start, end int, stale *[]string) (int, error) {
		for i := start; i < end; i++ {
			if err := setResult(txn, run, recs[i].ID, entries[i], stale); err != nil {
				return i - start, err
			}
		}
		return end - start, nil
	}
	for start := 0; start < len(entries); {
		var stale []string
		txn := s.db.NewTransaction(true)
		n, err := fill(txn, start, len(entries), &stale)
		if errors.Is(err, badger.ErrTxnTooBig) && n > 0 {
			// The entry that did not fit may be half set (its result
			// without its state): commit the n whole ones alone.
			txn.Discard()
			stale = stale[:0]
			txn = s.db.NewTransaction(true)
			n, err = fill(txn, start, start+n, &stale)
		}
		if err == nil {
			err = txn.Commit()
		}
		txn.Discard()
		if err != nil {
			return fmt.Errorf("record results from task %s on: %w", recs[start].ID, err)
		}
		for _, key := range stale {
			if err := s.removeSpool(key); err != nil {
				return fmt.Errorf("record results: %w", err)
			}
		}
		start += n
	}
	s.touch(len(recs))
	return nil
}

// resultEntry is a result as [Store.RecordResults] writes it: its key,
// its value (the result, or a reference to its spool file) and its
// encoded state.
type resultEntry struct {
	key, val, state []byte
	prov            []byte // provenance of a successful result (nil for a failure)
	spooled         bool
}

// resultEntries encodes recs' states, writes the large results to
// spool files and the others to a segment.
func (s *Store) resultEntries(recs []ResultRecord) ([]resultEntry, error) {
	entries := make([]resultEntry, len(recs))
	var inSeg []int
	var vals [][]byte
	for i, rc := range recs {
		b, err := json.Marshal(rc.State)
		if err != nil {
			return nil, fmt.Errorf("encode task state: %w", err)
		}
		key := prefixRes + rc.ID
		if rc.State.Failed() {
			key = prefixErr + rc.ID
		}
		e := resultEntry{key: []byte(key), val: rc.Result, state: b, spooled: spoolable(key, len(rc.Result))}
		if !rc.State.Failed() {
			p := Provenance{SimVersion: rc.State.SimVersion, Build: rc.State.Build, Worker: rc.State.Worker}
			if e.prov, err = json.Marshal(p); err != nil {
				return nil, fmt.Errorf("encode provenance: %w", err)
			}
		}
		if e.spooled {
			if e.val, err = s.writeSpool(key, rc.Result); err != nil {
				return nil, fmt.Errorf("record result of task %s: %w", rc.ID, err)
			}
		} else {
			inSeg = append(inSeg, i)
			vals = append(vals, rc.Result)
		}
		entries[i] = e
	}
	if len(vals) > 0 {
		refs, err := s.seg.append(vals)
		if err != nil {
			return nil, fmt.Errorf("record results from task %s on: %w", recs[inSeg[0]].ID, err)
		}
		for k, i := range inSeg {
			entries[i].val = refs[k].encode()
		}
	}
	return entries, nil
}

// setResult puts one result of run and its state into txn, noting in
// stale the spool file the result replaces by a value kept in Badger
// (removed once the transaction is committed).
func setResult(txn *badger.Txn, run, id string, e resultEntry, stale *[]string) error {
	old, err := txn.Get(e.key)
	switch {
	case err == nil:
		if !e.spooled && old.ValueSize() == int64(spoolRefLen) {
			ref, err := old.ValueCopy(nil)
			if err != nil {
				return err
			}
			if isSpoolRef(ref) {
				*stale = append(*stale, string(e.key))
			}
		}
	case !errors.Is(err, badger.ErrKeyNotFound):
		return err
	}
	if err := txn.Set(e.key, e.val); err != nil {
		return err
	}
	if e.prov != nil {
		if err := txn.Set([]byte(prefixProv+id), e.prov); err != nil {
			return err
		}
	}
	return txn.Set([]byte(prefixRun+run+"/"+id), e.state)
}

// Result returns a task's marshalled result: the cached successful one, or
// with failed set, the latest failure. A spooled result whose file is
// missing or damaged gives an error wrapping [ErrResultDamaged].
func (s *Store) Result(id string, failed bool) ([]byte, error) {
	key := prefixRes + id
	if failed {
		key = prefixErr + id
	}
	var out []byte
	// No segment is removed between the reference's reading and the
	// result's.
	s.seg.gc.RLock()
	defer s.seg.gc.RUnlock()
	err := s.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get([]byte(key))
		if err != nil {
			return err
		}
		out, err = item.ValueCopy(nil)
		return err
	})
	if err == nil {
		if ref, ok := parseSegRef(out); ok {
			out, err = s.seg.read(ref)
		} else if isSpoolRef(out) {
			out, err = s.readSpool(key, out)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("read result of task %s: %w", id, err)
	}
	s.touch(1)
	return out, nil
}

// Forget deletes a task's state in a run and its stored results, so the
// task runs again.
func (s *Store) Forget(run, id string) error {
	err := s.db.Update(func(txn *badger.Txn) error {
		for _, k := range []string{prefixRun + run + "/" + id, prefixRes + id, prefixErr + id, prefixProv + id} {
			if err := txn.Delete([]byte(k)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("forget task %s: %w", id, err)
	}
	for _, k := range []string{prefixRes + id, prefixErr + id} {
		if err := s.removeSpool(k); err != nil {
			return fmt.Errorf("forget task %s: %w", id, err)
		}
	}
	return nil
}

// DropRun deletes the task states of a run (not the results).
func (s *Store) DropRun(run string) error {
	prefix := []byte(prefixRun + run + "/")
	var keys [][]byte
	err := s.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			keys = append(keys, it.Item().KeyCopy(nil))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("drop run %s: %w", run, err)
	}
	wb := s.db.NewWriteBatch()
	defer wb.Cancel()
	for _, k := range keys {
		if err := wb.Delete(k); err != nil {
			return fmt.Errorf("drop run %s: %w", run, err)
		}
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("drop run %s: %w", run, err)
	}
	return nil
}

// CollectGarbage reclaims the space left by replaced and forgotten
// results: the value log's, and the segments' (see collectSegments). It
// is cheap when there is nothing to reclaim. What it cannot reclaim stays
// for the next time; nothing stored is lost.
func (s *Store) CollectGarbage() {
	if s.readOnly {
		return
	}
	for s.db.RunValueLogGC(0.5) == nil {
	}
	s.collectSegments()
}

// segSparse is the share of a segment's bytes that stored results must
// still refer to for it to be kept as it is; a segment below it (and
// over segSparseMin bytes) has those results copied to the segment being
// written, and goes.
const segSparse = 0.5

// segSparseMin is the size under which a segment is kept whatever its
// share of results referred to (a variable for the tests).
var segSparseMin int64 = 1 << 20

// collectSegments removes the segments, but the one being written, that
// no stored result refers to, and copies the results still referred to
// out of the segments mostly dead (see segSparse) before removing them.
// A crash in between leaves a copy unreferenced or a segment whose results
// are all referenced elsewhere, both reclaimed the next time.
func (s *Store) collectSegments() {
	s.seg.gc.Lock()
	defer s.seg.gc.Unlock()
	defer s.pageOut()
	segs, err := s.seg.list()
	if err != nil || len(segs) == 0 {
		return
	}
	live := map[uint32]int64{}
	err = s.segRefs(func(_ []byte, r segRef) error {
		live[r.seg] += int64(r.size)
		return nil
	})
	if err != nil {
		return
	}
	writing := s.seg.writing()
	sparse := map[uint32]bool{}
	for _, n := range segs {
		if n == writing {
			continue
		}
		if live[n] == 0 {
			if s.seg.remove(n) != nil {
				return
			}
			continue
		}
		fi, err := os.Stat(filepath.Join(s.seg.dir, segName(n)))
		if err == nil && fi.Size() > segSparseMin && float64(live[n]) < segSparse*float64(fi.Size()) {
			sparse[n] = true
		}
	}
	if len(sparse) == 0 {
		return
	}
	type move struct {
		key []byte
		ref segRef
	}
	var moves []move
	err = s.segRefs(func(key []byte, r segRef) error {
		if sparse[r.seg] {
			moves = append(moves, move{bytes.Clone(key), r})
		}
		return nil
	})
	if err != nil {
		return
	}
	const batch = 256
	for lo := 0; lo < len(moves); lo += batch {
		var ms []move
		var vals [][]byte
		for _, m := range moves[lo:min(len(moves), lo+batch)] {
			b, err := s.seg.read(m.ref)
			if err != nil {
				// A damaged result stays where it is, with its
				// segment, and is found when it is read.
				delete(sparse, m.ref.seg)
				continue
			}
			ms = append(ms, m)
			vals = append(vals, b)
		}
		if len(ms) == 0 {
			continue
		}
		refs, err := s.seg.append(vals)
		if err != nil {
			return
		}
		err = s.db.Update(func(txn *badger.Txn) error {
			for i, m := range ms {
				item, err := txn.Get(m.key)
				if errors.Is(err, badger.ErrKeyNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				cur, err := item.ValueCopy(nil)
				if err != nil {
					return err
				}
				if !bytes.Equal(cur, m.ref.encode()) {
					continue // replaced meanwhile
				}
				if err := txn.Set(m.key, refs[i].encode()); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return
		}
	}
	for n := range sparse {
		if s.seg.remove(n) != nil {
			return
		}
	}
}

// segRefs calls f with the key and reference of every stored result kept
// in a segment.
func (s *Store) segRefs(f func(key []byte, r segRef) error) error {
	return s.db.View(func(txn *badger.Txn) error {
		for _, prefix := range []string{prefixRes, prefixErr} {
			it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte(prefix)})
			for it.Rewind(); it.Valid(); it.Next() {
				item := it.Item()
				if item.ValueSize() != int64(segRefLen) {
					continue
				}
				err := item.Value(func(v []byte) error {
					if r, ok := parseSegRef(v); ok {
						return f(item.Key(), r)
					}
					return nil
				})
				if err != nil {
					it.Close()
					return err
				}
			}
			it.Close()
		}
		return nil
	})
}

func getJSON(txn *badger.Txn, key string, v any) error {
	item, err := txn.Get([]byte(key))
	if err != nil {
		return err
	}
	return item.Value(func(b []byte) error { return json.Unmarshal(b, v) })
}
