package coordinator

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Status is the progress of a sweep's latest run.
type Status struct {
	// Sweep, Hash and RunID identify the sweep and the run.
	Sweep, Hash, RunID string
	// Total is the number of tasks; Done how many finished (failed ones
	// included, cached ones included); Failed how many failed; Cached how
	// many came from the result cache.
	Total, Done, Failed, Cached int
	// Running is the number of tasks workers reported starting and not
	// yet finished (known only when Live).
	Running int
	// Rate and ETA are the live session's throughput and estimated time
	// to finish (known only when Live; 0: unknown).
	Rate float64
	ETA  time.Duration
	// Live is set when the figures come from a running coordinator's
	// progress file, because it holds the state store.
	Live bool
	// Started, Finished (zero: unfinished) and Updated (the last recorded
	// result or progress update) are times in UTC.
	Started, Finished, Updated time.Time
	// OutDir is where the outputs go.
	OutDir string
	// Failures lists failed tasks by index (not when Live). Their Task
	// field is empty: the state does not keep task descriptions.
	Failures []TaskFailure
}

// ReadStatus returns the status of the named sweep, or of every sweep in
// the state when name is "". It opens the state read-only; while a
// coordinator holds the state, it reads the progress file that coordinator
// keeps up to date instead (Live statuses). A sweep absent from the state
// gives an error wrapping [ErrNoSweep].
func ReadStatus(stateDir, name string) ([]Status, error) {
	st, err := OpenStoreReadOnly(stateDir)
	switch {
	case errors.Is(err, ErrStateLocked):
		return liveStatus(stateDir, name)
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("no coordinator state in %s: %w", stateDir, err)
	case err != nil:
		return nil, err
	}
	defer st.Close()
	var recs []*SweepRecord
	if name != "" {
		rec, err := st.Sweep(name)
		if err != nil {
			return nil, err
		}
		recs = []*SweepRecord{rec}
	} else if recs, err = st.Sweeps(); err != nil {
		return nil, err
	}
	out := make([]Status, 0, len(recs))
	for _, rec := range recs {
		states, err := st.RunStates(rec.RunID)
		if err != nil {
			return nil, err
		}
		s := Status{
			Sweep: rec.Name, Hash: rec.Hash, RunID: rec.RunID, Total: rec.Total,
			Started: rec.Started, Finished: rec.Finished, Updated: rec.Started, OutDir: rec.OutDir,
		}
		for id, ts := range states {
			s.Done++
			if ts.Cached {
				s.Cached++
			}
			if ts.Failed() {
				s.Failed++
				s.Failures = append(s.Failures, TaskFailure{Index: ts.Index, ID: id, Err: ts.Err})
			}
			if ts.At.After(s.Updated) {
				s.Updated = ts.At
			}
		}
		sort.Slice(s.Failures, func(i, j int) bool { return s.Failures[i].Index < s.Failures[j].Index })
		out = append(out, s)
	}
	return out, nil
}

// liveStatus reads the progress files of running coordinators.
func liveStatus(stateDir, name string) ([]Status, error) {
	var names []string
	if name != "" {
		names = []string{name}
	} else {
		ents, err := os.ReadDir(filepath.Join(stateDir, "progress"))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("read progress files: %w", err)
		}
		for _, e := range ents {
			if n, ok := strings.CutSuffix(e.Name(), ".json"); ok {
				names = append(names, n)
			}
		}
	}
	var out []Status
	for _, n := range names {
		snap, err := readSnapshot(stateDir, n)
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %q (the state is held by a running coordinator, which has no progress for it)", ErrNoSweep, n)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, Status{
			Sweep: snap.Sweep, RunID: snap.RunID, Total: snap.Total, Done: snap.Done, Failed: snap.Failed,
			Running: snap.Running, Rate: snap.Rate, ETA: snap.ETA, Live: true, Updated: snap.Updated,
		})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("state %s: %w, and it has written no progress yet", stateDir, ErrStateLocked)
	}
	return out, nil
}
