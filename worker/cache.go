package worker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/natsutil"
)

// ErrTraceMismatch means a trace fetched from the object store does not
// have the sha256 the task asks for. Retrying fetches the same bytes, so a
// task that meets it fails for good.
var ErrTraceMismatch = errors.New("trace sha256 mismatch")

var shaPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// traceDamaged is an error about a trace the trace object store has
// lost in part or in whole. Retrying would fetch the same damage: the
// worker reports it as an environment error, which stops the sweep, and
// the coordinator uploads the trace again when the sweep is run again.
type traceDamaged struct{ err error }

func (e *traceDamaged) Error() string { return e.err.Error() }
func (e *traceDamaged) Unwrap() error { return e.err }

// traceCache keeps trace files fetched from the trace object store in a
// local directory, one sub-directory per sha256 holding the file under its
// original name. A file is verified against its sha256 once per process
// before first use; a corrupt or partial file (a crash mid-download leaves
// only a temporary file) is fetched again.
type traceCache struct {
	dir string
	obs jetstream.ObjectStore
	js  jetstream.JetStream // reads the chunks of obs's objects
	// stall bounds the wait for the next chunk of a trace being fetched.
	stall time.Duration

	mu       sync.Mutex
	locks    map[string]*sync.Mutex // one per sha256, held while fetching
	verified map[string]string      // sha256 -> verified path
}

func newTraceCache(dir string, js jetstream.JetStream, obs jetstream.ObjectStore, stall time.Duration) *traceCache {
	return &traceCache{dir: dir, js: js, obs: obs, stall: stall, locks: map[string]*sync.Mutex{}, verified: map[string]string{}}
}

// path returns the local path of the trace with the given sha256, fetching
// it if needed. It fails with [ErrTraceMismatch] if the fetched bytes do
// not hash to sha.
func (c *traceCache) path(ctx context.Context, sha string) (string, error) {
	if !shaPattern.MatchString(sha) {
		return "", fmt.Errorf("%w: bad trace sha256 %q", ErrTraceMismatch, sha)
	}
	c.mu.Lock()
	if p, ok := c.verified[sha]; ok {
		c.mu.Unlock()
		return p, nil
	}
	l := c.locks[sha]
	if l == nil {
		l = &sync.Mutex{}
		c.locks[sha] = l
	}
	c.mu.Unlock()

	l.Lock()
	defer l.Unlock()
	c.mu.Lock()
	p, ok := c.verified[sha]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := c.local(sha)
	if err != nil {
		return "", err
	}
	if p == "" {
		if p, err = c.fetch(ctx, sha); err != nil {
			return "", err
		}
	}
	c.mu.Lock()
	c.verified[sha] = p
	c.mu.Unlock()
	return p, nil
}

// forget drops a trace from the cache, so the next use fetches it again.
func (c *traceCache) forget(sha string) {
	c.mu.Lock()
	p, ok := c.verified[sha]
	delete(c.verified, sha)
	c.mu.Unlock()
	if ok {
		os.Remove(p)
	}
}

// local returns the path of an already cached, intact copy, or "".
func (c *traceCache) local(sha string) (string, error) {
	dir := filepath.Join(c.dir, sha)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read trace cache: %w", err)
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || e.Name()[0] == '.' {
			continue
		}
		p := filepath.Join(dir, e.Name())
		got, err := fileSHA256(p)
		if err == nil && got == sha {
			return p, nil
		}
		// Corrupt or unreadable: drop it and fetch again.
		os.Remove(p)
	}
	return "", nil
}

// fetch downloads the object named sha into the cache, verifying it.
//
// A trace the coordinator uploaded before publishing the task and that
// is now missing, has fewer chunks than its description says, or whose
// next chunk does not come within the stall bound (the server's store
// lost it but still counts it: nats.go's object reader would wait for it
// until the task's time limit) is damaged: the error is a *traceDamaged,
// the trace bucket is emptied (see damaged) and the coordinator uploads
// the trace anew when the sweep is run again.
func (c *traceCache) fetch(ctx context.Context, sha string) (string, error) {
	info, err := c.obs.GetInfo(ctx, sha)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return "", &traceDamaged{fmt.Errorf("object %s is not in bucket %s (%w); %s", sha, natsutil.TraceBucket, err, fetchAgain)}
	}
	if err != nil {
		return "", fmt.Errorf("get trace %s from %s: %w", sha, natsutil.TraceBucket, err)
	}
	if err := natsutil.CheckObject(ctx, c.js, info); errors.Is(err, natsutil.ErrObjectDamaged) {
		return "", c.damaged(ctx, err)
	} else if err != nil {
		return "", fmt.Errorf("get trace %s: %w", sha, err)
	}
	name := filepath.Base(info.Metadata[natsutil.TraceFilenameKey])
	if name == "." || name == "/" || name == "" || name[0] == '.' {
		name = "trace.swf"
	}
	dir := filepath.Join(c.dir, sha)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create trace cache: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".fetch-*")
	if err != nil {
		return "", fmt.Errorf("create trace cache file: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	h := sha256.New()
	if err := c.readChunks(ctx, info, io.MultiWriter(tmp, h)); err != nil {
		tmp.Close()
		if errors.Is(err, natsutil.ErrObjectDamaged) {
			return "", c.damaged(ctx, err)
		}
		return "", fmt.Errorf("fetch trace %s: %w", sha, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("write trace cache file: %w", err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != sha {
		return "", fmt.Errorf("%w: object %s in %s hashes to %s", ErrTraceMismatch, sha, natsutil.TraceBucket, got)
	}
	p := filepath.Join(dir, name)
	if err := os.Rename(tmp.Name(), p); err != nil {
		return "", fmt.Errorf("store trace in cache: %w", err)
	}
	return p, nil
}

// readChunks writes the chunks of the object of info to w in order, each
// waited for at most the stall bound. Chunks that do not come, or that
// do not add up to the object's size, give an error wrapping
// natsutil.ErrObjectDamaged.
func (c *traceCache) readChunks(ctx context.Context, info *jetstream.ObjectInfo, w io.Writer) error {
	if info.Chunks == 0 {
		return nil
	}
	cons, err := c.js.OrderedConsumer(ctx, natsutil.ObjectStream(info.Bucket), jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{natsutil.ChunkSubject(info)},
	})
	if err != nil {
		return fmt.Errorf("read object %s: %w", info.Name, err)
	}
	var n uint64
	for k := 0; k < int(info.Chunks); k++ {
		wait, cancel := context.WithTimeout(ctx, c.stall)
		m, err := cons.Next(jetstream.FetchContext(wait))
		// The pull request expires a little before wait (nats.ErrTimeout).
		stalled := wait.Err() != nil || errors.Is(err, nats.ErrTimeout)
		cancel()
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil && stalled:
			return fmt.Errorf("%w: object %s in bucket %s: no chunk for %v after %d of its %d chunks (%d of %d bytes)",
				natsutil.ErrObjectDamaged, info.Name, info.Bucket, c.stall, k, info.Chunks, n, info.Size)
		case err != nil:
			return fmt.Errorf("read object %s: %w", info.Name, err)
		}
		if _, err := w.Write(m.Data()); err != nil {
			return err
		}
		n += uint64(len(m.Data()))
	}
	if n != info.Size {
		return fmt.Errorf("%w: object %s in bucket %s: its %d chunks hold %d bytes, not %d",
			natsutil.ErrObjectDamaged, info.Name, info.Bucket, info.Chunks, n, info.Size)
	}
	return nil
}

// fetchAgain says what to do about a missing trace object.
const fetchAgain = "run the sweep again: the coordinator uploads a missing trace anew"

// damaged empties the trace bucket's stream after a damaged trace object
// was found, and returns the error that says so. A stream whose store
// lost messages it still counts cannot take the trace again (the object
// stays not found after a new upload); emptied, it can, and the
// coordinators upload the traces their sweeps need when they run again.
// Nothing else is lost: every trace object is a copy of a coordinator's
// file, named by its sha256.
func (c *traceCache) damaged(ctx context.Context, cause error) error {
	emptied := "the trace bucket was emptied"
	s, err := c.js.Stream(ctx, natsutil.ObjectStream(natsutil.TraceBucket))
	if err == nil {
		err = s.Purge(ctx)
	}
	if err != nil {
		emptied = fmt.Sprintf("emptying the trace bucket failed (%v): start the server on a fresh store", err)
	}
	return &traceDamaged{fmt.Errorf("%w; %s; run the sweep again: the coordinator uploads the traces anew", cause, emptied)}
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
