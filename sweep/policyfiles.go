package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/external"
)

// PolicyFile is a file an external policy's program needs (its script and
// the modules it imports): it travels with the sweep through the farm's
// object store, keyed by its sha256, and the worker puts it, under Name,
// in the scratch directory the program runs in.
type PolicyFile struct {
	// Name is the file's base name.
	Name string `json:"name"`
	// SHA256 is the hex sha256 of its bytes.
	SHA256 string `json:"sha256"`
}

// externalPoint resolves the files of an external policy setting: the
// command's first argument (the script) and the files parameter, paths
// relative to the spec's directory. It returns the values with the paths
// replaced by base names (the task's identity holds names and hashes,
// never local paths), the command as the program and its arguments (the
// script by its base name; its text is the values' command), the files
// and their local copies. The command is split here, once: its tasks
// carry the list ([Task.Command]) to the process start.
func externalPoint(baseDir string, v policy.Values) (policy.Values, []string, []PolicyFile, []TraceFile, error) {
	cmd := policy.ExternalCommand(v)
	if len(cmd) < 2 {
		return nil, nil, nil, nil, fmt.Errorf("command %q: a sweep runs an external policy as INTERPRETER SCRIPT [ARGS]: the script is shipped to the workers", v.String("command"))
	}
	more, err := external.SplitWords(v.String("files"))
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("files: %w", err)
	}
	paths := append([]string{cmd[1]}, more...)
	seen := map[string]string{}
	var files []PolicyFile
	var local []TraceFile
	for _, p := range paths {
		full := p
		if !filepath.IsAbs(full) {
			full = filepath.Join(baseDir, p)
		}
		st, err := os.Stat(full)
		if err != nil || !st.Mode().IsRegular() {
			return nil, nil, nil, nil, fmt.Errorf("policy file %q (relative to the spec): not a readable file", p)
		}
		sha, err := hashFile(full)
		if err != nil {
			return nil, nil, nil, nil, fmt.Errorf("policy file %q: %w", p, err)
		}
		name := filepath.Base(p)
		if old, ok := seen[name]; ok {
			if old != sha {
				return nil, nil, nil, nil, fmt.Errorf("policy files: two different files named %s", name)
			}
			continue
		}
		seen[name] = sha
		files = append(files, PolicyFile{Name: name, SHA256: sha})
		abs, _ := filepath.Abs(full)
		local = append(local, TraceFile{Name: name, Path: abs, SHA256: sha})
	}
	out := make(policy.Values, len(v))
	for k, x := range v {
		out[k] = x
	}
	cmd[1] = filepath.Base(cmd[1])
	out["command"] = external.JoinCommand(cmd)
	names := make([]string, 0, len(files))
	for _, f := range files[1:] {
		names = append(names, f.Name)
	}
	out["files"] = external.JoinCommand(names)
	return out, cmd, files, local, nil
}

// hashFile returns the hex sha256 of a file's bytes.
func hashFile(path string) (string, error) {
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
