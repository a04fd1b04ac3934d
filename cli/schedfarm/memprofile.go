package schedfarm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/urfave/cli/v2"
)

// memProfileFlag is the --memprofile of reproduce, run and coordinator: heap profiles for finding
// where its memory goes (go tool pprof; -sample_index=alloc_space for
// what was allocated over the run, inuse_space for what was live).
func memProfileFlag() cli.Flag {
	return &cli.StringFlag{Name: "memprofile", Usage: "write a heap profile of the run to `FILE` at the end, and one at the largest live heap seen to FILE.peak"}
}

// peakSampleInterval is how often the live heap and the count of
// collections are read. It is short because the peak profile has to be
// written in the short time between the start of the collection after the
// peak and the end of that collection's sweep (see watchPeak).
const peakSampleInterval = time.Millisecond

// startMemProfile starts watching the live heap when --memprofile is
// set. The returned function stops watching and writes the profiles;
// call it once the command's work is done.
func startMemProfile(c *cli.Context) (stop func() error) {
	path := c.String("memprofile")
	if path == "" {
		return func() error { return nil }
	}
	ctx, cancel := context.WithCancel(c.Context)
	done := make(chan error, 1)
	go func() { done <- watchPeak(ctx, path+".peak") }()
	return func() error {
		cancel()
		err := <-done
		runtime.GC() // the end profile's live heap as of now
		return errors.Join(err, writeHeapProfile(path))
	}
}

// watchPeak writes to path the heap profile of the collection that found
// the largest live heap, until ctx ends. A heap profile shows the heap as
// of the last collection whose sweep has finished, and the sweep runs in
// the background after the collection: a profile written as soon as a
// larger live heap was seen showed the collection before, often tens of
// MB less (98 MB against a live heap of 177 MB in reproduce --readings
// kettimuthu2005). The collection after the peak finishes the peak's
// sweep before it starts, so the profile is written once that collection
// is seen to have ended, before its own sweep does (the live heap is read
// every peakSampleInterval). At the end, a pending profile is written as
// it is then.
func watchPeak(ctx context.Context, path string) error {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	var peak, cycles uint64
	pending := false // the last collection's live heap is the largest seen
	t := time.NewTicker(peakSampleInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			if pending {
				return writeHeapProfile(path)
			}
			return nil
		case <-t.C:
		}
		metrics.Read(sample)
		for _, s := range sample {
			if s.Value.Kind() != metrics.KindUint64 {
				return fmt.Errorf("memprofile: runtime metric %s not supported", s.Name)
			}
		}
		live, n := sample[0].Value.Uint64(), sample[1].Value.Uint64()
		if n == cycles {
			continue
		}
		cycles = n
		if pending {
			pending = false
			if err := writeHeapProfile(path); err != nil {
				return err
			}
		}
		if live > peak {
			peak = live
			pending = true
		}
	}
}

// writeHeapProfile writes the heap profile to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("memprofile: %w", err)
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("memprofile %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("memprofile: %w", err)
	}
	return nil
}
