package reproduction

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/internal/atomicfile"
	"github.com/schedfarm/schedfarm/plot"
	"github.com/schedfarm/schedfarm/report"
	"github.com/schedfarm/schedfarm/reproduction/claims"
	"github.com/schedfarm/schedfarm/results"
)

// LSFDisciplines are Table 3's rows: the spec's labels, in order.
var LSFDisciplines = []string{"RTC", "RTC-AD", "RTC-ADSUBSET", "PREEMPT", "PREEMPT-AD", "MIG", "MIG-AD", "MIG-ADSUBSET", "MALL-AD", "MALL-ADSUBSET"}

// LSFCases are the four knowledge cases: (know_demand, know_speedup).
var LSFCases = []struct {
	Name            string
	Demand, Speedup bool
}{{"none", false, false}, {"demand", true, false}, {"speedup", false, true}, {"both", true, true}}

// parsonsUnfinished are the measured jobs the paper's run of a cell left
// unfinished (Table 3's parenthesized counts; a cell not listed has none).
// The cells' numbers themselves are read from the paper's claims file.
var parsonsUnfinished = map[string][4]int{
	"PREEMPT-AD":   {2, 0, 0, 0},
	"MIG-AD":       {0, 0, 0, 1},
	"MIG-ADSUBSET": {0, 0, 0, 1},
}

// parsonsTable3 returns the paper's Table 3 cells, MRT/makespan (s), by
// discipline and knowledge case ([LSFCases]), from the expected values of
// the t3-* claims of specs/parsons1997/claims.yaml under root, the one
// source of the paper's numbers: "5853/147951", or ">2293/>219105 (2)"
// for a run that left jobs unfinished (a lower bound and their count).
func parsonsTable3(root string) (map[string][4]string, error) {
	f, err := claims.Load(filepath.Join(root, "specs", "parsons1997", claims.FileName), claims.Options{})
	if err != nil {
		return nil, err
	}
	byID := map[string]*claims.Claim{}
	for i := range f.Claims {
		byID[f.Claims[i].ID] = &f.Claims[i]
	}
	num := func(id string) (string, error) {
		c := byID[id]
		switch {
		case c == nil:
			return "", fmt.Errorf("%s: no claim %s for a cell of Table 3", f.Path, id)
		case c.Expected.IsTarget:
			return strconv.FormatFloat(c.Expected.Target, 'f', -1, 64), nil
		case c.Expected.LoStrict && math.IsInf(c.Expected.Hi, 1):
			return ">" + strconv.FormatFloat(c.Expected.Lo, 'f', -1, 64), nil
		}
		return "", fmt.Errorf("%s: claim %s expects %q, not a number or a lower bound", f.Path, id, c.Expected.Text)
	}
	out := map[string][4]string{}
	for _, d := range LSFDisciplines {
		var row [4]string
		for i, kc := range LSFCases {
			id := "t3-" + strings.ToLower(d) + "-" + kc.Name
			m, err := num(id + "-mrt")
			if err != nil {
				return nil, err
			}
			k, err := num(id + "-makespan")
			if err != nil {
				return nil, err
			}
			row[i] = m + "/" + k
			if n := parsonsUnfinished[d][i]; n > 0 {
				row[i] += fmt.Sprintf(" (%d)", n)
			}
		}
		out[d] = row
	}
	return out, nil
}

// lsfCell is the replications of one discipline and knowledge case.
type lsfCell struct {
	mrt, makespan, lb, queue, p90 []float64
	unfinished                    int
}

// lsfCells groups the task rows by discipline (label) and case.
func lsfCells(s *report.Sweep) (map[string]*[4]lsfCell, error) {
	cells := map[string]*[4]lsfCell{}
	for _, t := range s.Tasks {
		if t.Error != "" {
			return nil, fmt.Errorf("task %d failed: %s", t.TaskIndex, t.Error)
		}
		e := t.Stats.Elastic
		if e == nil {
			continue
		}
		kd, _ := t.ParamValues["know_demand"].(bool)
		ks, _ := t.ParamValues["know_speedup"].(bool)
		ci := -1
		for i, c := range LSFCases {
			if c.Demand == kd && c.Speedup == ks {
				ci = i
			}
		}
		if cells[t.Label] == nil {
			cells[t.Label] = &[4]lsfCell{}
		}
		c := &cells[t.Label][ci]
		c.mrt = append(c.mrt, e.MRT)
		c.makespan = append(c.makespan, float64(e.MakespanTagged))
		c.lb = append(c.lb, float64(e.MakespanLB))
		c.queue = append(c.queue, float64(e.MaxQueue))
		c.p90 = append(c.p90, float64(e.QueueP90))
		c.unfinished += e.Unfinished
	}
	if len(cells) == 0 {
		return nil, fmt.Errorf("no task of %s has elastic figures", s.Dir)
	}
	return cells, nil
}

// meanCI returns the mean and the half width of its 95% confidence
// interval (Student t with n-1 degrees of freedom; normal beyond 30).
func meanCI(x []float64) (mean, half float64) {
	n := float64(len(x))
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	for _, v := range x {
		mean += v
	}
	mean /= n
	if n < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	t := 1.96
	if tq := []float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
		2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045}; int(n)-2 < len(tq) {
		t = tq[int(n)-2]
	}
	return mean, t * sd / math.Sqrt(n)
}

// lsfTableStep writes Table 3: ours (mean ± 95% CI over the replications,
// total unfinished measured jobs) beside the paper's one run per cell.
func lsfTableStep(s *report.Sweep, root, dir, name string) ([]string, error) {
	cells, err := lsfCells(s)
	if err != nil {
		return nil, err
	}
	paper, err := parsonsTable3(root)
	if err != nil {
		return nil, err
	}
	if err := mkdir(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, name)
	err = atomicfile.Write(path, func(w io.Writer) error {
		n := 0
		for _, c := range cells {
			n = max(n, len(c[0].mrt))
		}
		fmt.Fprintf(w, "# %s\n\n", s.Description)
		fmt.Fprintf(w, "Mean response time / makespan of the 200 measured jobs, s: ours as mean ± 95%% CI over %d replications "+
			"(unfinished measured jobs summed over the replications in parentheses), the paper's single run below it.\n\n", n)
		fmt.Fprintf(w, "| discipline | | none | demand | speedup | both |\n|---|---|---|---|---|---|\n")
		for _, d := range LSFDisciplines {
			c := cells[d]
			if c == nil {
				continue
			}
			fmt.Fprintf(w, "| %s | ours |", d)
			for i := range LSFCases {
				m, mh := meanCI(c[i].mrt)
				k, kh := meanCI(c[i].makespan)
				unf := ""
				if c[i].unfinished > 0 {
					unf = fmt.Sprintf(" (%d)", c[i].unfinished)
				}
				fmt.Fprintf(w, " %.0f±%.0f / %.0f±%.0f%s |", m, mh, k, kh, unf)
			}
			fmt.Fprintf(w, "\n| | paper |")
			for i := range LSFCases {
				fmt.Fprintf(w, " %s |", paper[d][i])
			}
			fmt.Fprintln(w)
		}
		for _, qt := range []struct {
			title string
			col   func(*lsfCell) []float64
		}{
			{"Largest queue (pending + stopped jobs), mean over the replications of each run's maximum", func(c *lsfCell) []float64 { return c.queue }},
			{"Queue length exceeded during at most a tenth of the run's time (queue_p90), mean over the replications", func(c *lsfCell) []float64 { return c.p90 }},
		} {
			fmt.Fprintf(w, "\n%s:\n\n", qt.title)
			fmt.Fprintf(w, "| discipline | none | demand | speedup | both |\n|---|---|---|---|---|\n")
			for _, d := range LSFDisciplines {
				if c := cells[d]; c != nil {
					fmt.Fprintf(w, "| %s |", d)
					for i := range LSFCases {
						q, _ := meanCI(qt.col(&c[i]))
						fmt.Fprintf(w, " %.1f |", q)
					}
					fmt.Fprintln(w)
				}
			}
		}
		var lbs []float64
		for _, c := range cells {
			lbs = append(lbs, c[0].lb...)
		}
		lb, lbh := meanCI(lbs)
		fmt.Fprintf(w, "\nMakespan lower bound (largest submit + T(128) of a measured job): %.0f ± %.0f s (paper: \"minimum makespan ... 65412 seconds\").\n", lb, lbh)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return []string{path}, nil
}

// lsfBarsStep draws Figs 3 and 4: MRT (log axis) and makespan per
// discipline, one bar per knowledge case.
func lsfBarsStep(s *report.Sweep, dir string) ([]string, error) {
	cells, err := lsfCells(s)
	if err != nil {
		return nil, err
	}
	if err := mkdir(dir); err != nil {
		return nil, err
	}
	var out []string
	for _, f := range []struct {
		file, title, ylabel string
		log                 bool
		get                 func(c *lsfCell) []float64
	}{
		{"fig03-mrt", "Mean response time of the measured jobs", "MRT (s)", true, func(c *lsfCell) []float64 { return c.mrt }},
		{"fig04-makespan", "Makespan of the measured jobs", "makespan (s)", false, func(c *lsfCell) []float64 { return c.makespan }},
	} {
		b := plot.Bars{Title: f.title, XLabel: "discipline", YLabel: f.ylabel, LogY: f.log}
		for _, d := range LSFDisciplines {
			if cells[d] != nil {
				b.Categories = append(b.Categories, d)
			}
		}
		for i, kc := range LSFCases {
			sr := plot.Series{Name: kc.Name}
			for _, d := range b.Categories {
				m, _ := meanCI(f.get(&cells[d][i]))
				sr.Values = append(sr.Values, m)
			}
			b.Series = append(b.Series, sr)
		}
		paths, err := saveBars(&b, dir, f.file)
		if err != nil {
			return nil, err
		}
		out = append(out, paths...)
	}
	return out, nil
}

// saveBars writes b as dir/name in every figure format ([report.Formats]).
func saveBars(b *plot.Bars, dir, name string) ([]string, error) {
	var out []string
	for _, ext := range report.Formats {
		path := filepath.Join(dir, name+"."+ext)
		if err := b.Save(path); err != nil {
			return nil, err
		}
		out = append(out, path)
	}
	return out, nil
}

// lsfMinClasses are Fig 5's classes of minimum allocation.
var lsfMinClasses = []struct {
	Name     string
	Lo, High int
}{{"8-32", 8, 32}, {"40-64", 40, 64}, {"72-96", 72, 96}, {"104-128", 104, 128}}

// lsfWaitStep writes Fig 5's data: the mean wait of the measured jobs by
// minimum class per discipline (no knowledge), from jobs.parquet, as a
// table and as bars (one bar per class, log wait axis).
func lsfWaitStep(s *report.Sweep, dir, figDir string) ([]string, error) {
	waits, err := lsfWaits(s)
	if err != nil {
		return nil, err
	}
	for _, d := range []string{dir, figDir} {
		if err := mkdir(d); err != nil {
			return nil, err
		}
	}
	path := filepath.Join(dir, "fig05-wait-by-min.md")
	if err := atomicfile.Write(path, func(w io.Writer) error { return writeLSFWaitTable(w, waits) }); err != nil {
		return nil, err
	}
	out := []string{path}
	b := lsfWaitBars(waits)
	figs, err := saveBars(&b, figDir, "fig05-wait-by-min")
	if err != nil {
		return nil, err
	}
	return append(out, figs...), nil
}

// waitSum sums the waits of n jobs.
type waitSum struct{ sum, n float64 }

// lsfWaits sums the waits of the measured jobs run with no knowledge per
// discipline (label) and minimum class, from three columns of
// jobs.parquet with their task columns from tasks.parquet: reading every
// job row whole (results.ReadJobs) took 1.4 GB for table3's 1200 tasks.
func lsfWaits(s *report.Sweep) (map[string]*[4]waitSum, error) {
	tf, err := results.ReadFrame(filepath.Join(s.Dir, results.TasksFile))
	if err != nil {
		return nil, err
	}
	jf, err := results.ReadJobsFrame(filepath.Join(s.Dir, results.JobsFile), tf.Tasks, "tagged", "min_procs", "wait")
	if err != nil {
		return nil, err
	}
	tagged, minProcs, wait := jf.Num["tagged"], jf.Num["min_procs"], jf.Num["wait"]
	if tagged == nil || minProcs == nil || wait == nil {
		return nil, fmt.Errorf("%s: jobs.parquet has no tagged, min_procs or wait column", s.Dir)
	}
	waits := map[string]*[4]waitSum{}
	for i := range jf.Len() {
		if tagged[i] != 1 { // false, or null for a rigid job
			continue
		}
		t := jf.Task(i)
		if kd, _ := t.ParamValues["know_demand"].(bool); kd {
			continue
		}
		if ks, _ := t.ParamValues["know_speedup"].(bool); ks {
			continue
		}
		if waits[t.Label] == nil {
			waits[t.Label] = &[4]waitSum{}
		}
		for c, class := range lsfMinClasses {
			if mp := int(minProcs[i]); mp >= class.Lo && mp <= class.High {
				waits[t.Label][c].sum += wait[i]
				waits[t.Label][c].n++
			}
		}
	}
	return waits, nil
}

// writeLSFWaitTable writes Fig 5's table: a row per discipline with jobs,
// the mean wait of each minimum class ("-" for none).
func writeLSFWaitTable(w io.Writer, waits map[string]*[4]waitSum) error {
	fmt.Fprintf(w, "# Mean wait of the measured jobs by minimum allocation, no knowledge (s)\n\n")
	fmt.Fprintf(w, "| discipline |")
	for _, c := range lsfMinClasses {
		fmt.Fprintf(w, " min %s |", c.Name)
	}
	fmt.Fprintf(w, "\n|---|---|---|---|---|\n")
	for _, d := range LSFDisciplines {
		a := waits[d]
		if a == nil {
			continue
		}
		fmt.Fprintf(w, "| %s |", d)
		for i := range lsfMinClasses {
			if a[i].n == 0 {
				fmt.Fprintf(w, " - |")
				continue
			}
			fmt.Fprintf(w, " %.0f |", a[i].sum/a[i].n)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// lsfWaitBars is Fig 5's chart: per discipline with jobs, a bar per
// minimum class (none for a class without jobs), on a log wait axis.
func lsfWaitBars(waits map[string]*[4]waitSum) plot.Bars {
	b := plot.Bars{Title: "Mean wait of the measured jobs by minimum allocation (no knowledge)", XLabel: "discipline",
		YLabel: "mean wait (s)", LogY: true}
	for _, d := range LSFDisciplines {
		if waits[d] != nil {
			b.Categories = append(b.Categories, d)
		}
	}
	for i, c := range lsfMinClasses {
		sr := plot.Series{Name: "min " + c.Name}
		for _, d := range b.Categories {
			a := waits[d][i]
			v := math.NaN() // no job of the class: no bar
			if a.n > 0 {
				v = a.sum / a.n
			}
			sr.Values = append(sr.Values, v)
		}
		b.Series = append(b.Series, sr)
	}
	return b
}
