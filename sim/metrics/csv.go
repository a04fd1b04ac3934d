package metrics

import (
	"encoding/csv"
	"io"
	"strconv"
)

// CSVHeader is the header row of [WriteCSV] before the category columns.
var CSVHeader = []string{"job_id", "submit", "start", "end", "wait", "runtime", "estimate", "procs",
	"turnaround", "bsd", "slowdown", "suspensions", "suspended_time", "overhead_time", "kills",
	"procs_chosen", "base_runtime", "min_procs", "max_procs", "work", "speedup"}

// WriteCSV writes one row per job with a header row, then one column
// "cat_<scheme>" per scheme holding the job's category label. The
// moldable annotation (min_procs, max_procs, work, speedup) is empty for a
// rigid job. Floats are
// written in the shortest form that reads back exactly.
func WriteCSV(w io.Writer, recs []Record, schemes []*Scheme) error {
	cw := csv.NewWriter(w)
	head := append([]string(nil), CSVHeader...)
	for _, s := range schemes {
		head = append(head, "cat_"+s.Name)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	f64 := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	row := make([]string, len(head))
	for i := range recs {
		r := &recs[i]
		row = append(row[:0], i64(r.JobID), i64(int64(r.Submit)), i64(int64(r.Start)), i64(int64(r.End)),
			i64(int64(r.Wait)), i64(int64(r.Runtime)), i64(int64(r.Estimate)), strconv.Itoa(r.Procs),
			i64(int64(r.Turnaround)), f64(r.BSD), f64(r.Slowdown), strconv.Itoa(r.Suspensions),
			i64(int64(r.SuspendedTime)), i64(int64(r.OverheadTime)), strconv.Itoa(r.Kills),
			strconv.Itoa(r.Chosen()), i64(int64(r.Base())))
		if r.Moldable {
			row = append(row, strconv.Itoa(r.MinProcs), strconv.Itoa(r.MaxProcs), f64(r.Work), f64(r.Speedup))
		} else {
			row = append(row, "", "", "", "")
		}
		for _, s := range schemes {
			row = append(row, s.Classify(r))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
