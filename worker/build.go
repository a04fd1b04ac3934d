package worker

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// BuildIdentity returns this program's build identity, recorded in every
// result it produces: the main module's version, the VCS revision Go
// stamped into the binary ("+dirty" when the tree had changes) and the
// first 16 hex digits of the executable's sha256, for example
// "v0.0.0-20261128170206-48965c1a2b3c rev 48965c1a2b3c exe 5f3a09c1d2e4b6a7".
// Parts that cannot be known are left out ("unknown" when none can). It
// is computed once per process.
func BuildIdentity() string { return buildIdentity() }

var buildIdentity = sync.OnceValue(func() string {
	var id string
	add := func(s string) {
		if id != "" {
			id += " "
		}
		id += s
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" {
			add(v)
		}
		var rev string
		var dirty bool
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			rev = "rev " + rev[:min(12, len(rev))]
			if dirty {
				rev += "+dirty"
			}
			add(rev)
		}
	}
	if sum := exeSHA256(); sum != "" {
		add("exe " + sum[:16])
	}
	if id == "" {
		return "unknown"
	}
	return id
})

// exeSHA256 returns the hex sha256 of the running executable, or "".
func exeSHA256() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
