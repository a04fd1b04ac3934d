package reproduction

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/sim/metrics"
	"github.com/schedfarm/schedfarm/sim/policy/preempt"
	"github.com/schedfarm/schedfarm/sweep"
	"github.com/schedfarm/schedfarm/yamlerr"
)

// TSS limits printed by a paper. A spec's TSS entry that sets
// tss_paper_limits asks for the category means the paper prints (for
// Kettimuthu et al. 2005, the NS means of Tables 4 and 5); the simulator
// does not hold them, and the specs do not copy them. The paper file
// names, per machine size, the table of the paper's claims file whose
// value claims state them:
//
//	tss_paper_limits:
//	  - {procs: 430, table: Table 4, trace: ctc}
//	  - {procs: 128, table: Table 5, trace: sdsc}
//
// and [LoadSpec] passes them to every such entry as its tss_limits
// parameter ([preempt.Limits]' text), read from the claims file when the
// spec is loaded: the claims file is the numbers' one source, graded
// against the outputs and run by the policy alike.

// LimitsTable is one machine size's entry of a paper file's
// tss_paper_limits: the figure of the claims file (a table of the paper)
// whose value claims, one per ss16 category, on trace Trace, give the
// means for a machine of Procs processors.
type LimitsTable struct {
	Procs int
	Table string
	Trace string
}

// paperLimitsKey is the paper file's key, and the parameter it serves.
const paperLimitsKey = "tss_paper_limits"

// limitsTables reads a paper file's tss_paper_limits.
func (p *paperParser) limitsTables(n *yaml.Node, lp string) []LimitsTable {
	var out []LimitsTable
	items := p.w.List(n, lp)
	if items == nil {
		p.w.Add(lp, n, yamlerr.Problem(yamlerr.ErrRequired, "must list at least one machine size"))
	}
	for i, it := range items {
		ip := fmt.Sprintf("%s[%d]", lp, i)
		var t LimitsTable
		p.w.Mapping(it, ip, func(key string, v *yaml.Node, kp string) {
			switch key {
			case "procs":
				if f, ok := p.w.Number(v, kp); ok {
					if f < 1 || f != float64(int(f)) {
						p.w.Add(kp, v, yamlerr.Problem(yamlerr.ErrValue, "%v, want a whole number of processors >= 1", f))
					}
					t.Procs = int(f)
				}
			case "table":
				t.Table, _ = p.w.NonEmpty(v, kp)
			case "trace":
				t.Trace, _ = p.w.NonEmpty(v, kp)
			default:
				p.w.Add(kp, v, yamlerr.ErrUnknownKey)
			}
		})
		for _, k := range []string{"procs", "table", "trace"} {
			if !has(it, k) {
				p.w.Add(ip+"."+k, it, yamlerr.ErrRequired)
			}
		}
		if t.Procs > 0 && slices.ContainsFunc(out, func(o LimitsTable) bool { return o.Procs == t.Procs }) {
			p.w.Add(ip+".procs", it, yamlerr.Problem(yamlerr.ErrValue, "%d processors listed twice", t.Procs))
		}
		out = append(out, t)
	}
	return out
}

// PaperLimits returns the TSS limits a paper prints, read from its claims
// file f by the tables its paper file names (tables): for each machine
// size, the expected value of each value claim of its table on the
// table's trace of the mean bounded slowdown (bsd_mean) of one ss16
// category. Every ss16 category must have exactly one such claim.
func PaperLimits(f *claims.File, tables []LimitsTable) (preempt.Limits, error) {
	if len(tables) == 0 {
		return nil, fmt.Errorf("%s: the paper file names no tables of TSS limits (%s)", f.Paper, paperLimitsKey)
	}
	l := preempt.Limits{}
	for _, t := range tables {
		if _, dup := l[t.Procs]; dup {
			return nil, fmt.Errorf("%s: %s names %d processors twice", f.Paper, paperLimitsKey, t.Procs)
		}
		cells := map[string]float64{}
		for _, c := range f.Claims {
			s := c.Select
			if c.Figure != t.Table || c.Kind != claims.KindValue || s.Metric != "bsd_mean" || s.Scheme != "ss16" ||
				s.Category == "" || s.Category == metrics.Overall || !c.Expected.IsTarget || !onTrace(s.Where, t.Trace) {
				continue
			}
			if _, dup := cells[s.Category]; dup {
				return nil, fmt.Errorf("%s: %s states %s on %s twice (%s)", f.Paper, t.Table, s.Category, t.Trace, c.ID)
			}
			cells[s.Category] = c.Expected.Target
		}
		l[t.Procs] = cells
	}
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("%s: the claims of %s: %w", f.Paper, tableNames(tables), err)
	}
	return l, nil
}

func tableNames(tables []LimitsTable) string {
	var s []string
	for _, t := range tables {
		s = append(s, t.Table)
	}
	return strings.Join(s, " and ")
}

// onTrace reports whether a claim's filters keep trace alone.
func onTrace(where []claims.Filter, trace string) bool {
	for _, w := range where {
		if w.Key == "trace" {
			return len(w.Values) == 1 && w.Values[0] == trace
		}
	}
	return false
}

// paperTables returns the tss_paper_limits of a paper's file (nil when it
// has none).
func paperTables(paper string) []LimitsTable {
	for _, r := range Recipes {
		if p, _ := Paper(r.Name); p == paper && r.TSSLimits != nil {
			return r.TSSLimits
		}
	}
	return nil
}

// LoadSpecFile loads the spec at path as [LoadSpec] does when the file
// lies in a paper's folder (ROOT/specs/PAPER/NAME.yaml, found from the
// path whether it is given relative or absolute), so that `schedfarm run`,
// `coordinator` and `status` on a shipped paper spec run the tasks
// reproduce runs, with the same IDs; any other spec is loaded as
// [sweep.Load] loads it.
func LoadSpecFile(path string) (*sweep.Spec, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return sweep.Load(path)
	}
	paperDir, file := filepath.Split(abs)
	paperDir = filepath.Clean(paperDir)
	specsDir := filepath.Dir(paperDir)
	if filepath.Base(specsDir) != "specs" {
		return sweep.Load(path)
	}
	root := filepath.Dir(specsDir)
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, root); err == nil {
			root = r
		}
	}
	return LoadSpec(root, filepath.ToSlash(filepath.Join("specs", filepath.Base(paperDir), file)))
}

// LoadSpec loads a spec of the repository at root (spec is relative to
// root: "specs/<paper>/<file>.yaml") as reproduce runs it: when it is a
// paper's spec with TSS entries that set tss_paper_limits: true, each of
// those entries gets the paper's printed means as its tss_limits,
// read from the paper's claims file by [PaperLimits]. A spec without such
// entries is loaded as [sweep.Load] loads it. Problems are reported at
// the lines of the file as written.
func LoadSpec(root, spec string) (*sweep.Spec, error) {
	path := filepath.Join(root, filepath.FromSlash(spec))
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read spec: %w", err)
	}
	entries, err := paperLimitEntries(data)
	switch {
	case err != nil && !errors.Is(err, errNotSpec):
		return nil, fmt.Errorf("%s: %w", spec, err)
	case err != nil || len(entries) == 0:
		// Not a spec that asks for the paper's limits (or not one that
		// decodes): sweep reports its problems.
		return sweep.Load(path)
	}
	var paper string
	if parts := strings.Split(filepath.ToSlash(spec), "/"); len(parts) == 3 && parts[0] == "specs" {
		paper = parts[1]
	}
	tables := paperTables(paper)
	if tables == nil {
		// sweep reports the entries' missing tss_limits.
		return sweep.Load(path)
	}
	cf, err := claims.Load(filepath.Join(root, "specs", paper, claims.FileName), claims.Options{Groups: PaperGroups(paper)})
	if err != nil {
		return nil, fmt.Errorf("%s: the TSS limits of tss_paper_limits: %w", spec, err)
	}
	limits, err := PaperLimits(cf, tables)
	if err != nil {
		return nil, fmt.Errorf("%s: the TSS limits of tss_paper_limits: %w", spec, err)
	}
	filled, inserted, err := fillLimits(data, entries, limits.String())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	s, err := sweep.Parse(filled, filepath.Dir(path))
	if err != nil {
		var ve *yamlerr.ValidationError
		if errors.As(err, &ve) {
			ve.File = path
			for _, fe := range ve.Problems {
				fe.Line = fileLine(fe.Line, inserted)
			}
		}
		return nil, err
	}
	return s, nil
}

// limitEntry is a policy entry of a spec that sets tss_paper_limits:
// true, by the line and column of that key.
type limitEntry struct {
	line, col int
	path      string
}

// errNotSpec: the text does not decode to a mapping (sweep says why).
var errNotSpec = errors.New("not a spec")

// paperLimitEntries returns the policy entries of a spec that set
// tss_paper_limits: true, in file order; an entry that also gives
// tss_limits is an error (the paper's means have one source), and so is
// one whose params are written in flow style ({...}), where no key can
// be added on a line of its own.
func paperLimitEntries(data []byte) ([]limitEntry, error) {
	root, err := yamlnode.Decode(data)
	if err != nil || root == nil || root.Kind != yaml.MappingNode {
		return nil, errNotSpec
	}
	var policies *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "policies" {
			policies = yamlnode.Resolve(root.Content[i+1])
		}
	}
	if policies == nil || policies.Kind != yaml.SequenceNode {
		return nil, nil
	}
	var out []limitEntry
	for ei, en := range policies.Content {
		entry := yamlnode.Resolve(en)
		if entry == nil || entry.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(entry.Content); i += 2 {
			if entry.Content[i].Value != "params" {
				continue
			}
			params := yamlnode.Resolve(entry.Content[i+1])
			if params == nil || params.Kind != yaml.MappingNode {
				continue
			}
			var key *yaml.Node
			given := false
			for j := 0; j+1 < len(params.Content); j += 2 {
				k, v := params.Content[j], yamlnode.Resolve(params.Content[j+1])
				switch k.Value {
				case paperLimitsKey:
					var b bool
					if v != nil && v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool" && v.Decode(&b) == nil && b {
						key = k
					}
				case "tss_limits":
					given = true
				}
			}
			if key == nil {
				continue
			}
			path := fmt.Sprintf("policies[%d].params", ei)
			if given {
				return nil, fmt.Errorf("line %d: %s.tss_limits: given beside tss_paper_limits: true, whose means come from the paper's claims file", key.Line, path)
			}
			if params.Style&yaml.FlowStyle != 0 || params != entry.Content[i+1] {
				return nil, fmt.Errorf("line %d: %s: tss_paper_limits needs the entry's own params in block style (one key a line) to pass the paper's means", key.Line, path)
			}
			out = append(out, limitEntry{line: key.Line, col: key.Column, path: path})
		}
	}
	return out, nil
}

// fillLimits adds the line "tss_limits: TEXT" after the tss_paper_limits
// line of each entry, indented as it, and returns the new text and the
// lines added (numbers in the new text, ascending).
func fillLimits(data []byte, entries []limitEntry, text string) ([]byte, []int, error) {
	q, err := json.Marshal(text) // a JSON string is a YAML double-quoted scalar
	if err != nil {
		return nil, nil, err
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	var out bytes.Buffer
	var inserted []int
	next := 0
	for i, l := range lines {
		out.Write(l)
		if next < len(entries) && entries[next].line == i+1 {
			if !bytes.HasSuffix(l, []byte("\n")) {
				out.WriteByte('\n')
			}
			fmt.Fprintf(&out, "%stss_limits: %s\n", strings.Repeat(" ", entries[next].col-1), q)
			inserted = append(inserted, i+2+len(inserted))
			next++
		}
	}
	if next != len(entries) {
		return nil, nil, fmt.Errorf("%s.tss_paper_limits: line %d not found", entries[next].path, entries[next].line)
	}
	return out.Bytes(), inserted, nil
}

// fileLine maps a line of the filled text back to the file's: an added
// line is its tss_paper_limits line, the one before it.
func fileLine(line int, inserted []int) int {
	n := 0
	for _, at := range inserted {
		switch {
		case at == line:
			return line - n - 1
		case at < line:
			n++
		}
	}
	return line - n
}
