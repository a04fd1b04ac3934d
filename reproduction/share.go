package reproduction

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// shareSweep makes the sweep output folder to hold the same files as from,
// the output folder of a group with the same spec run earlier in the same
// reproduce: hard links where the file system allows, copies otherwise.
// Groups that share a spec (Lawson and Smirni's Figs 5-7, its Table 1 and
// Figs 1-2) thus write their whole-trace outputs once. Whatever the folder
// held before is removed first.
func shareSweep(from, to string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return fmt.Errorf("share sweep outputs: %w", err)
	}
	if err := os.RemoveAll(to); err != nil {
		return fmt.Errorf("share sweep outputs: %w", err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return fmt.Errorf("share sweep outputs: %w", err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		src, dst := filepath.Join(from, e.Name()), filepath.Join(to, e.Name())
		if os.Link(src, dst) == nil {
			continue
		}
		if err := copyFile(src, dst); err != nil {
			return fmt.Errorf("share sweep outputs: %w", err)
		}
	}
	return nil
}

// copyFile copies a regular file.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
