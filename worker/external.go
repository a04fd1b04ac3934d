package worker

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/sim/policy"
	"github.com/schedfarm/schedfarm/sim/policy/external"
	"github.com/schedfarm/schedfarm/sweep"
)

// WithAllowExternal lets the worker run external policies (sim/policy/
// external) whose command starts one of the named interpreters (for
// example python3). Without it, such tasks fail with an error that says
// how to allow them. Even then a task runs only files that came with its
// sweep (fetched by sha256 from the object store and checked), as
// INTERPRETER SCRIPT [ARGS], in a fresh scratch directory removed after
// the task, with the policy's per-instant and per-run limits.
func WithAllowExternal(interpreters ...string) Option {
	return func(c *config) error {
		for _, s := range interpreters {
			if s == "" || strings.ContainsAny(s, " \t") {
				return fmt.Errorf("%w: --allow-external %q: want an interpreter name such as python3", ErrInvalidOption, s)
			}
		}
		c.allowExternal = append([]string(nil), interpreters...)
		return nil
	}
}

// externalContext prepares an external policy task: it checks the
// command against the task's files, puts the files in a scratch
// directory and returns a context carrying the access the runner gives
// the policy, and a cleanup. Other tasks get ctx unchanged.
func (w *Worker) externalContext(ctx context.Context, t *sweep.Task) (context.Context, func(), error) {
	none := func() {}
	if t.Policy != policy.ExternalName || len(w.cfg.allowExternal) == 0 {
		return ctx, none, nil // the runner refuses external policies without an Access
	}
	deterministic := func(format string, a ...any) error {
		return fmt.Errorf("%w: external policy: %s", runner.ErrDeterministic, fmt.Sprintf(format, a...))
	}
	cmdText, _ := t.Params["command"].(string)
	cmd := t.Command // split when the spec was read
	if len(cmd) == 0 {
		return ctx, none, deterministic("the task carries command %q without its argument list; run a coordinator of this build", cmdText)
	}
	if len(t.PolicyFiles) == 0 || len(cmd) < 2 || cmd[1] != t.PolicyFiles[0].Name {
		return ctx, none, deterministic("command %q does not run the script that came with the sweep", cmdText)
	}
	if err := (&external.Access{Interpreters: w.cfg.allowExternal}).Check(cmd); err != nil {
		return ctx, none, fmt.Errorf("%w: %w", runner.ErrDeterministic, err)
	}
	dir, err := os.MkdirTemp("", "schedfarm-policy-*")
	if err != nil {
		return ctx, none, fmt.Errorf("external policy scratch directory: %w", err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	for _, f := range t.PolicyFiles {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || f.Name[0] == '.' {
			cleanup()
			return ctx, none, deterministic("bad policy file name %q", f.Name)
		}
		src, err := w.cache.path(ctx, f.SHA256)
		if err != nil {
			cleanup()
			return ctx, none, fmt.Errorf("policy file %s: %w", f.Name, err)
		}
		if err := copyFile(src, filepath.Join(dir, f.Name)); err != nil {
			cleanup()
			return ctx, none, fmt.Errorf("policy file %s: %w", f.Name, err)
		}
	}
	a := &external.Access{Interpreters: w.cfg.allowExternal, Dir: dir}
	return external.WithAccess(ctx, a), cleanup, nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
