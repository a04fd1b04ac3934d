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

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/natsutil"
)

// ErrTraceMismatch means a trace fetched from the object store does not
// have the sha256 the task asks for. Retrying fetches the same bytes, so a
// task that meets it fails for good.
var ErrTraceMismatch = errors.New("trace sha256 mismatch")

var shaPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// traceCache keeps trace files fetched from the trace object store in a
// local directory, one sub-directory per sha256 holding the file under its
// original name. A file is verified against its sha256 once per process
// before first use; a corrupt or partial file (a crash mid-download leaves
// only a temporary file) is fetched again.
type traceCache struct {
	dir string
	obs jetstream.ObjectStore

	mu       sync.Mutex
	locks    map[string]*sync.Mutex // one per sha256, held while fetching
	verified map[string]string      // sha256 -> verified path
}

func newTraceCache(dir string, obs jetstream.ObjectStore) *traceCache {
	return &traceCache{dir: dir, obs: obs, locks: map[string]*sync.Mutex{}, verified: map[string]string{}}
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
func (c *traceCache) fetch(ctx context.Context, sha string) (string, error) {
	obj, err := c.obs.Get(ctx, sha)
	if err != nil {
		return "", fmt.Errorf("get trace %s from %s: %w", sha, natsutil.TraceBucket, err)
	}
	defer obj.Close()
	info, err := obj.Info()
	if err != nil {
		return "", fmt.Errorf("get trace %s info: %w", sha, err)
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
	if _, err := io.Copy(io.MultiWriter(tmp, h), obj); err != nil {
		tmp.Close()
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
