package main

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

// memProfileFlag is reproduce's --memprofile: heap profiles for finding
// where its memory goes (go tool pprof; -sample_index=alloc_space for
// what was allocated over the run, inuse_space for what was live).
func memProfileFlag() cli.Flag {
	return &cli.StringFlag{Name: "memprofile", Usage: "write a heap profile of the run to `FILE` at the end, and one at the largest live heap seen to FILE.peak"}
}

// peakSampleInterval is how often the live heap is compared with the
// largest seen; the live heap changes only at a collection, and a peak
// profile shows the heap of the collection before it was written.
const peakSampleInterval = 20 * time.Millisecond

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

// watchPeak writes the heap profile to path whenever the live heap after
// a collection is larger than at any earlier sample, until ctx ends.
func watchPeak(ctx context.Context, path string) error {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var peak uint64
	t := time.NewTicker(peakSampleInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return fmt.Errorf("memprofile: runtime metric %s not supported", sample[0].Name)
		}
		if live := sample[0].Value.Uint64(); live > peak {
			peak = live
			if err := writeHeapProfile(path); err != nil {
				return err
			}
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
