package preempt

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/sim/metrics"
)

// Limits are the category means of the TSS limit given outright instead
// of taken from a run ([SSConfig.TSSLimits]): for each machine size (a
// number of processors), the mean bounded slowdown of every ss16
// category, by label. A job's limit is [SSConfig.TSSLimit] times the mean
// of its category on the machine the run has. Kettimuthu et al. (2005)
// print such means for NS in their Tables 4 (CTC, 430 processors) and 5
// (SDSC, 128); the simulator does not hold them: package reproduction
// reads them from the paper's claims file and passes them as the
// tss_limits parameter.
type Limits map[int]map[string]float64

// ParseLimits reads the text form of [Limits] ([Limits.String]): one
// machine after another, separated by "/", each its number of processors,
// ":" and its categories as LABEL MEAN separated by ";", for example
// "128: VS Seq 2.53; VS N 14.41; ... / 430: VS Seq 2.6; ...". Spaces
// around the separators are ignored. The text has no "," or "=", so that
// it stays one value in a parameter list (name=value,...). Every machine
// must give every ss16 category once, each mean a finite number >= 1 (a
// bounded slowdown is at least 1), and no machine size may come twice.
func ParseLimits(s string) (Limits, error) {
	out := Limits{}
	for _, m := range strings.Split(s, "/") {
		head, cells, ok := strings.Cut(m, ":")
		if !ok {
			return nil, fmt.Errorf("%w: TSS limits %q: want PROCS: LABEL MEAN; ... for each machine", ErrInvalidConfig, strings.TrimSpace(m))
		}
		procs, err := strconv.Atoi(strings.TrimSpace(head))
		if err != nil || procs < 1 {
			return nil, fmt.Errorf("%w: TSS limits: machine size %q is not a number of processors >= 1", ErrInvalidConfig, strings.TrimSpace(head))
		}
		if _, dup := out[procs]; dup {
			return nil, fmt.Errorf("%w: TSS limits: %d processors given twice", ErrInvalidConfig, procs)
		}
		means := map[string]float64{}
		for _, c := range strings.Split(cells, ";") {
			f := strings.Fields(c)
			var v float64
			if len(f) >= 2 {
				v, err = strconv.ParseFloat(f[len(f)-1], 64)
			}
			if len(f) < 2 || err != nil {
				return nil, fmt.Errorf("%w: TSS limits for %d processors: %q is not LABEL MEAN", ErrInvalidConfig, procs, strings.TrimSpace(c))
			}
			label := strings.Join(f[:len(f)-1], " ")
			if _, dup := means[label]; dup {
				return nil, fmt.Errorf("%w: TSS limits for %d processors: %s given twice", ErrInvalidConfig, procs, label)
			}
			means[label] = v
		}
		out[procs] = means
	}
	// The text is read; what it says is checked as any Limits are.
	if err := out.Validate(); err != nil {
		return nil, err
	}
	return out, nil
}

// String returns the canonical text of l, which [ParseLimits] reads back:
// machines by ascending size, categories in the ss16 scheme's order, each
// mean as the shortest decimal that reads back to it.
func (l Limits) String() string {
	labels, _ := ss16Labels()
	var b strings.Builder
	for i, procs := range slices.Sorted(maps.Keys(l)) {
		if i > 0 {
			b.WriteString(" / ")
		}
		b.WriteString(strconv.Itoa(procs))
		b.WriteString(":")
		sep := " "
		for _, lab := range labels {
			v, ok := l[procs][lab]
			if !ok {
				continue
			}
			b.WriteString(sep)
			b.WriteString(lab)
			b.WriteByte(' ')
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			sep = "; "
		}
	}
	return b.String()
}

// Validate reports limits that [ParseLimits] would refuse: no machine, a
// machine size below 1, a category missing or not of ss16, a mean not a
// finite number >= 1.
func (l Limits) Validate() error {
	if len(l) == 0 {
		return fmt.Errorf("%w: TSS limits for no machine", ErrInvalidConfig)
	}
	labels, err := ss16Labels()
	if err != nil {
		return err
	}
	for _, procs := range slices.Sorted(maps.Keys(l)) {
		m := l[procs]
		if procs < 1 {
			return fmt.Errorf("%w: TSS limits: machine size %d, want >= 1", ErrInvalidConfig, procs)
		}
		for _, lab := range slices.Sorted(maps.Keys(m)) {
			if !slices.Contains(labels, lab) {
				return fmt.Errorf("%w: TSS limits for %d processors: %q is no ss16 category (%s)", ErrInvalidConfig, procs, lab, strings.Join(labels, ", "))
			}
			if v := m[lab]; math.IsInf(v, 0) || !(v >= 1) {
				return fmt.Errorf("%w: TSS limits for %d processors: %s %v, want a mean bounded slowdown >= 1", ErrInvalidConfig, procs, lab, v)
			}
		}
		for _, lab := range labels {
			if _, ok := m[lab]; !ok {
				return fmt.Errorf("%w: TSS limits for %d processors: no mean for %s (every ss16 category needs one)", ErrInvalidConfig, procs, lab)
			}
		}
	}
	return nil
}

// forMachine returns the means for a machine of procs processors (a copy).
func (l Limits) forMachine(procs int) (map[string]float64, error) {
	m, ok := l[procs]
	if !ok {
		return nil, fmt.Errorf("%w: the TSS limits given are for machines of %s processors, not %d", ErrInvalidConfig, sizes(l), procs)
	}
	return maps.Clone(m), nil
}

func sizes(l Limits) string {
	var s []string
	for _, p := range slices.Sorted(maps.Keys(l)) {
		s = append(s, strconv.Itoa(p))
	}
	return strings.Join(s, " or ")
}

// ss16Labels returns the ss16 categories in the scheme's order.
func ss16Labels() ([]string, error) {
	s, err := metrics.LookupScheme("ss16")
	if err != nil {
		return nil, err
	}
	return s.Labels(), nil
}
