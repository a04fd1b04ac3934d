package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/schedfarm/schedfarm/internal/atomicfile"
	"github.com/schedfarm/schedfarm/sim/workload"
	"github.com/schedfarm/schedfarm/traces"
)

// TracesDir is the name of the directory that holds the shipped traces; it
// is searched for in the spec's directory and each of its parents.
const TracesDir = "traces"

// shippedTraces maps the short names a spec may use to the files of the
// Parallel Workloads Archive shipped in the repository's traces/ directory.
var shippedTraces = map[string]string{
	"ctc":      "CTC-SP2-1996-3.1-cln.swf.gz",
	"kth":      "KTH-SP2-1996-2.1-cln.swf.gz",
	"sdsc":     "SDSC-SP2-1998-4.2-cln.swf.gz",
	"sdsc-par": "SDSC-Par-1996-3.1-cln.swf.gz",
}

// ShippedTraces returns the short trace names a spec may use, sorted.
func ShippedTraces() []string {
	names := make([]string, 0, len(shippedTraces))
	for k := range shippedTraces {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// ShippedTraceFile returns the file name behind a short trace name.
func ShippedTraceFile(name string) (string, bool) {
	f, ok := shippedTraces[name]
	return f, ok
}

// traceRef is a resolved trace.
type traceRef struct {
	Name, Path, SHA256 string
}

// TraceName returns a trace file's name as tasks carry it: the base name
// without ".gz" and ".swf".
func TraceName(path string) string {
	name := filepath.Base(path)
	name = strings.TrimSuffix(name, ".gz")
	return strings.TrimSuffix(name, ".swf")
}

// embeddedTrace returns the path of a copy of the shipped trace file
// taken from the binary ([traces.FS]), written once into the user's cache
// directory (schedfarm/shipped-traces; the temporary directory if there is
// none). An existing copy is used when its content is the same.
func embeddedTrace(file string) (string, error) {
	data, err := traces.FS.ReadFile(file)
	if err != nil {
		return "", err
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "schedfarm", "shipped-traces")
	path := filepath.Join(dir, file)
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return path, nil
	}
	err = atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
	if err != nil {
		return "", err
	}
	return path, nil
}

// resolveTrace finds the file behind a workload's trace value and hashes it.
func (p *parser) resolveTrace(s string) (traceRef, error) {
	if ref, ok := p.traceCache[s]; ok {
		return ref, nil
	}
	ref, err := resolveTrace(s, p.spec.BaseDir)
	if err == nil {
		p.traceCache[s] = ref
	}
	return ref, err
}

func resolveTrace(s, baseDir string) (traceRef, error) {
	base, err := filepath.Abs(baseDir)
	if err != nil {
		return traceRef{}, problem(ErrUnknownTrace, "resolve spec directory: %v", err)
	}
	var path string
	if file, ok := shippedTraces[s]; ok {
		for dir := base; ; dir = filepath.Dir(dir) {
			cand := filepath.Join(dir, TracesDir, file)
			if fi, err := os.Stat(cand); err == nil && fi.Mode().IsRegular() {
				path = cand
				break
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
		if path == "" {
			if path, err = embeddedTrace(file); err != nil {
				return traceRef{}, problem(ErrUnknownTrace, "trace %q: %s not found in a %s/ directory of the spec's directory or its parents, and the copy in the binary cannot be written: %v", s, file, TracesDir, err)
			}
		}
	} else {
		path = s
		if !filepath.IsAbs(path) {
			path = filepath.Join(base, path)
		}
		fi, err := os.Stat(path)
		switch {
		case err == nil && fi.Mode().IsRegular():
		case err == nil:
			return traceRef{}, problem(ErrUnknownTrace, "trace file %q is not a regular file", s)
		case strings.ContainsAny(s, `/\`) || strings.Contains(s, ".swf"):
			return traceRef{}, problem(ErrUnknownTrace, "trace file %q not found", s)
		default:
			return traceRef{}, problem(ErrUnknownTrace, "unknown trace %q (valid: %s, or a file path relative to the spec)", s, strings.Join(ShippedTraces(), ", "))
		}
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return traceRef{}, problem(ErrUnknownTrace, "read trace %q: %v", s, err)
	}
	return traceRef{Name: TraceName(path), Path: path, SHA256: sum}, nil
}

// shaCache remembers file hashes by path, size and modification time, so
// parsing many specs that share traces hashes each file once.
var shaCache struct {
	sync.Mutex
	m map[shaKey]string
}

type shaKey struct {
	path  string
	size  int64
	mtime time.Time
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	key := shaKey{path, fi.Size(), fi.ModTime()}
	shaCache.Lock()
	sum, ok := shaCache.m[key]
	shaCache.Unlock()
	if ok {
		return sum, nil
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	sum = hex.EncodeToString(h.Sum(nil))
	shaCache.Lock()
	if shaCache.m == nil {
		shaCache.m = map[shaKey]string{}
	}
	shaCache.m[key] = sum
	shaCache.Unlock()
	return sum, nil
}

// jobsCache remembers how many jobs a trace keeps on a machine size, so a
// subset can be checked against the trace without reading it again.
var jobsCache struct {
	sync.Mutex
	m map[jobsKey]jobsInfo
}

type jobsKey struct {
	sha   string
	procs int
}

type jobsInfo struct {
	jobs, procs int
	err         error
}

// traceJobs reads a trace (once per content and machine size in the
// process) and returns the number of jobs kept and the machine size.
func traceJobs(ref traceRef, procs int) (jobs, machine int, err error) {
	key := jobsKey{ref.SHA256, procs}
	jobsCache.Lock()
	info, ok := jobsCache.m[key]
	jobsCache.Unlock()
	if !ok {
		t, err := workload.Read(ref.Path, procs)
		if err != nil {
			info = jobsInfo{err: err}
		} else {
			info = jobsInfo{jobs: len(t.Records), procs: t.Procs}
		}
		jobsCache.Lock()
		if jobsCache.m == nil {
			jobsCache.m = map[jobsKey]jobsInfo{}
		}
		jobsCache.m[key] = info
		jobsCache.Unlock()
	}
	if info.err != nil {
		return 0, 0, fmt.Errorf("read trace: %w", info.err)
	}
	return info.jobs, info.procs, nil
}
