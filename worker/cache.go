package worker

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// ErrTraceStalled means a trace's next chunk did not come from the object
// store within the stall bound ([WithTraceStall]) while the store still
// holds it, or could not be asked whether it does: the server is slow or
// unreachable, which is not proven damage, so nothing is deleted. It is
// an environment error: the sweep stops, and running it again fetches
// the trace again.
var ErrTraceStalled = errors.New("trace fetch stalled")

// probeWait bounds the question, after a stall, whether the store still
// holds the chunk that did not come.
const probeWait = 10 * time.Second

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
	// emptied is the error of the damage for which this cache emptied
	// the trace bucket (nil: none, or the bucket has been filled since):
	// a later task's fetch finds no object and says why.
	emptied error
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
// is now missing is an environment error (*traceDamaged): the
// coordinator uploads it anew when the sweep is run again. One whose
// damage is proven empties the trace bucket (see damaged) besides: its
// stream counts fewer chunk messages than its description says, its
// chunks do not add up to its size or to its digest, or its next chunk
// does not come within the stall bound and the stream holds no further
// chunk of it (the server's store lost the chunk but still counts it:
// nats.go's object reader would wait for it until the task's time
// limit). A chunk that does not come while the stream still holds it, or
// when the stream cannot be asked, is a stall, not damage: the error
// wraps [ErrTraceStalled] and nothing is deleted.
func (c *traceCache) fetch(ctx context.Context, sha string) (string, error) {
	info, err := c.obs.GetInfo(ctx, sha)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		c.mu.Lock()
		emptied := c.emptied
		c.mu.Unlock()
		if emptied != nil {
			return "", emptied
		}
		return "", &traceDamaged{fmt.Errorf("object %s is not in bucket %s (%w); %s", sha, natsutil.TraceBucket, err, fetchAgain)}
	}
	if err != nil {
		return "", fmt.Errorf("get trace %s from %s: %w", sha, natsutil.TraceBucket, err)
	}
	c.mu.Lock()
	c.emptied = nil // uploaded anew
	c.mu.Unlock()
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
	sum := h.Sum(nil)
	if err := checkDigest(info, sum); err != nil {
		return "", c.damaged(ctx, err)
	}
	if got := hex.EncodeToString(sum); got != sha {
		return "", fmt.Errorf("%w: object %s in %s hashes to %s", ErrTraceMismatch, sha, natsutil.TraceBucket, got)
	}
	p := filepath.Join(dir, name)
	if err := os.Rename(tmp.Name(), p); err != nil {
		return "", fmt.Errorf("store trace in cache: %w", err)
	}
	return p, nil
}

// readChunks writes the chunks of the object of info to w in order, each
// waited for at most the stall bound. Chunks that do not add up to the
// object's size, or a chunk that does not come while the stream holds no
// further chunk of the object, give an error wrapping
// natsutil.ErrObjectDamaged; a chunk that does not come otherwise, one
// wrapping ErrTraceStalled (see stalled).
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
	var n, seq uint64 // bytes so far, stream sequence of the last chunk
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
			return c.stalled(ctx, info, k, n, seq)
		case err != nil:
			return fmt.Errorf("read object %s: %w", info.Name, err)
		}
		if _, err := w.Write(m.Data()); err != nil {
			return err
		}
		n += uint64(len(m.Data()))
		if md, err := m.Metadata(); err == nil {
			seq = md.Sequence.Stream
		}
	}
	if n != info.Size {
		return fmt.Errorf("%w: object %s in bucket %s: its %d chunks hold %d bytes, not %d",
			natsutil.ErrObjectDamaged, info.Name, info.Bucket, info.Chunks, n, info.Size)
	}
	return nil
}

// stalled tells a chunk that did not come within the stall bound, after
// k chunks (n bytes) the last of which was at stream sequence seq, from
// a chunk the store lost. It asks the stream for the object's first chunk
// message after seq: none there, while the stream counts every chunk
// (natsutil.CheckObject passed), proves the store lost it (an error
// wrapping natsutil.ErrObjectDamaged); a chunk there, or no answer, is a
// stall (an error wrapping ErrTraceStalled), which deletes nothing.
func (c *traceCache) stalled(ctx context.Context, info *jetstream.ObjectInfo, k int, n, seq uint64) error {
	waited := fmt.Sprintf("no chunk for %v after %d of its %d chunks (%d of %d bytes)", c.stall, k, info.Chunks, n, info.Size)
	probe, cancel := context.WithTimeout(ctx, probeWait)
	defer cancel()
	s, err := c.js.Stream(probe, natsutil.ObjectStream(info.Bucket))
	if err == nil {
		_, err = s.GetMsg(probe, seq+1, jetstream.WithGetMsgSubject(natsutil.ChunkSubject(info)))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return fmt.Errorf("%w: object %s in bucket %s: %s, and its stream holds none of the %d chunks left though it counts them",
				natsutil.ErrObjectDamaged, info.Name, info.Bucket, waited, int(info.Chunks)-k)
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	found := "its stream still holds the next chunk"
	if err != nil {
		found = fmt.Sprintf("asking its stream for the next chunk failed (%v)", err)
	}
	return fmt.Errorf("%w: object %s in bucket %s: %s; %s, so the store is not proven to have lost it and nothing was deleted: "+
		"check that the server is up and not overloaded, then run the sweep again",
		ErrTraceStalled, info.Name, info.Bucket, waited, found)
}

// checkDigest reports, with an error wrapping natsutil.ErrObjectDamaged,
// chunks whose SHA-256 sum is not the digest the object's description
// records (the store changed the bytes it was given). A description
// without a digest is not checked.
func checkDigest(info *jetstream.ObjectInfo, sum []byte) error {
	const prefix = "SHA-256="
	if !strings.HasPrefix(info.Digest, prefix) {
		return nil
	}
	want, err := base64.URLEncoding.DecodeString(info.Digest[len(prefix):])
	if err != nil {
		return nil // not a digest this check knows how to read
	}
	if !bytes.Equal(want, sum) {
		return fmt.Errorf("%w: object %s in bucket %s: its %d chunks hash to %s, not to its recorded digest %s",
			natsutil.ErrObjectDamaged, info.Name, info.Bucket, info.Chunks, base64.URLEncoding.EncodeToString(sum), info.Digest)
	}
	return nil
}

// fetchAgain says what to do about a missing trace object.
const fetchAgain = "run the sweep again: the coordinator uploads a missing trace anew"

// damaged empties the trace bucket's stream after a damaged trace object
// was found, and returns the error that says so (kept for the fetches
// that then find the bucket empty: see traceCache.emptied). A stream whose store
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
	err = &traceDamaged{fmt.Errorf("%w; %s; run the sweep again: the coordinator uploads the traces anew", cause, emptied)}
	c.mu.Lock()
	c.emptied = err
	c.mu.Unlock()
	return err
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
