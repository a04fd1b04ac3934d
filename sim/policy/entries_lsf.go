package policy

import (
	"errors"
	"fmt"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/lsf"
)

var lsfDocs = map[lsf.Discipline]string{
	lsf.RTC:          "LSF run to completion (Parsons & Sevcik 1997): first job whose desired size fits, FCFS or SPT with demand knowledge",
	lsf.RTCAD:        "LSF run to completion, adaptive: first fit on minimum sizes, leftover processors equalized",
	lsf.RTCADSubset:  "LSF run to completion, adaptive, subset-sum: commit N' first-fit jobs, subset-sum minimizes surplus processors",
	lsf.Preempt:      "LSF simple preemption: suspend a running job for a queued one of the same size and a much smaller key",
	lsf.PreemptAD:    "LSF simple preemption, adaptive: the matrix discipline (rows of stopped jobs by processor set)",
	lsf.Mig:          "LSF migratable preemption: first fit by key at desired size, others checkpointed and restarted anywhere",
	lsf.MigAD:        "LSF migratable, adaptive: size chosen at first start (min plus leftover), fixed afterwards",
	lsf.MigADSubset:  "LSF migratable, adaptive, subset-sum selection",
	lsf.MallAD:       "LSF malleable, adaptive: every decision re-sizes unprotected jobs (checkpoint and restart)",
	lsf.MallADSubset: "LSF malleable, adaptive, subset-sum selection",
}

func init() {
	for _, d := range lsf.Disciplines() {
		entries = append(entries, Entry{
			Name: d.String(), Family: "lsf", Doc: lsfDocs[d],
			Elastic:  true,
			Params:   lsfParams(d),
			Validate: validateLSF,
			Build: func(v Values, env Env) (sim.Policy, error) {
				cfg := lsfConfig(d, v)
				cfg.Seed = env.Seed
				p, err := lsf.New(cfg)
				if err != nil {
					return nil, fmt.Errorf("%w: %w", ErrBadParam, err)
				}
				return p, nil
			},
		})
	}
}

// lsfParams returns the parameters of discipline d.
func lsfParams(d lsf.Discipline) []Param {
	def := lsf.DefaultConfig(d)
	return []Param{
		{Name: "know_demand", Kind: Bool, Default: false, Doc: "the scheduler knows each job's service demand"},
		{Name: "know_speedup", Kind: Bool, Default: false, Doc: "the scheduler knows each job's sequential fraction"},
		{Name: "quantum", Kind: Int, Default: int64(def.Quantum), Min: 1, Max: 1e7,
			Doc: "re-evaluation period of the preemptive disciplines while jobs wait, s"},
		{Name: "min_run", Kind: Int, Default: int64(def.MinRun), Min: 0, Max: 1e7,
			Doc: "a job that has run less than this since its last (re)start or resume is not preempted, s"},
		{Name: "acquired_ratio", Kind: Float, Default: def.AcquiredRatio, Min: 0, Max: 1,
			Doc: "lsf-preempt: a queued job preempts when its acquired processor-seconds are below this share of the running job's, (0, 1]"},
		{Name: "demand_ratio", Kind: Float, Default: def.DemandRatio, Min: 0, Max: 1,
			Doc: "lsf-preempt with know_demand: ... when its remaining demand is below this share of the running job's, (0, 1]"},
		{Name: "max_jobs_per_proc", Kind: Int, Default: int64(def.MaxJobsPerProc), Min: 1, Max: 1000,
			Doc: "simple preemption: most jobs (running or suspended) on a processor"},
		{Name: "delta", Kind: Float, Default: def.Delta, Min: 0, Max: 1e6, Doc: "subset variants' δ (> 0)"},
		{Name: "checkpoint_cost", Kind: Int, Default: int64(def.CheckpointCost), Min: 0, Max: 1e7,
			Doc: "seconds a checkpointed job holds its processors idle before releasing them"},
		{Name: "dispatch_delay", Kind: Int, Default: int64(def.DispatchDelay), Min: 0, Max: 1e7,
			Doc: "seconds a (re)started job holds its processors idle before it works"},
		{Name: "dispatch_delay_random", Kind: Int, Default: int64(0), Min: 0, Max: 86400,
			Doc: "each (re)start also holds its processors idle for a delay drawn uniformly from 0..N s (seeded from the task's seed); 0: none"},
		{Name: "rtc_scan", Kind: String, Default: string(lsf.ScanFirstFit), Choices: scanNames(),
			Doc: "lsf-rtc and lsf-preempt's fill: first_fit starts every pending job that fits, in_order stops at the first that does not, one starts at most one per decision"},
		{Name: "preempt_demand", Kind: String, Default: string(lsf.DemandRemaining), Choices: preemptDemandNames(),
			Doc: "lsf-preempt with know_demand: criterion (2) compares remaining demands or whole demands D"},
		{Name: "demand_estimate", Kind: String, Default: string(lsf.EstimateWorkingTime), Choices: estimateNames(),
			Doc: "with know_demand but not know_speedup, the remaining demand: working_time D − Σdt, processor_seconds D − Σk·dt, clamped max(0, D − Σk·dt), demand D"},
		{Name: "preempt_fill", Kind: String, Default: string(lsf.FillResumeFirst), Choices: fillNames(),
			Doc: "lsf-preempt's fill: resume_first resumes suspended jobs whose processors are all free before placing pending jobs, rtc_order scans them with the pending jobs in lsf-rtc's order"},
		{Name: "decision_interval", Kind: Int, Default: int64(def.DecisionInterval), Min: 0, Max: 1e7,
			Doc: "least seconds between two decisions; an event inside the interval is decided at its end"},
	}
}

// scanNames lists the values of rtc_scan.
func scanNames() []string {
	out := make([]string, len(lsf.Scans))
	for i, s := range lsf.Scans {
		out[i] = string(s)
	}
	return out
}

// preemptDemandNames lists the values of preempt_demand.
func preemptDemandNames() []string {
	out := make([]string, len(lsf.PreemptDemands))
	for i, s := range lsf.PreemptDemands {
		out[i] = string(s)
	}
	return out
}

// fillNames lists the values of preempt_fill.
func fillNames() []string {
	out := make([]string, len(lsf.Fills))
	for i, s := range lsf.Fills {
		out[i] = string(s)
	}
	return out
}

// estimateNames lists the values of demand_estimate.
func estimateNames() []string {
	out := make([]string, len(lsf.Estimates))
	for i, s := range lsf.Estimates {
		out[i] = string(s)
	}
	return out
}

// validateLSF checks the open bounds.
func validateLSF(v Values) error {
	var errs []error
	for _, name := range []string{"acquired_ratio", "demand_ratio", "delta"} {
		if v.Float(name) <= 0 {
			errs = append(errs, &ParamError{Param: name, Msg: fmt.Sprintf("must be > 0, got %g", v.Float(name))})
		}
	}
	return errors.Join(errs...)
}

func lsfConfig(d lsf.Discipline, v Values) lsf.Config {
	return lsf.Config{
		Discipline:       d,
		KnowDemand:       v.Bool("know_demand"),
		KnowSpeedup:      v.Bool("know_speedup"),
		Quantum:          sim.Time(v.Int("quantum")),
		MinRun:           sim.Time(v.Int("min_run")),
		AcquiredRatio:    v.Float("acquired_ratio"),
		DemandRatio:      v.Float("demand_ratio"),
		MaxJobsPerProc:   int(v.Int("max_jobs_per_proc")),
		Delta:            v.Float("delta"),
		CheckpointCost:   sim.Time(v.Int("checkpoint_cost")),
		DispatchDelay:    sim.Time(v.Int("dispatch_delay")),
		DispatchRandom:   sim.Time(v.Int("dispatch_delay_random")),
		Scan:             lsf.Scan(v.String("rtc_scan")),
		DecisionInterval: sim.Time(v.Int("decision_interval")),
		PreemptDemand:    lsf.PreemptDemand(v.String("preempt_demand")),
		Estimate:         lsf.Estimate(v.String("demand_estimate")),
		Fill:             lsf.Fill(v.String("preempt_fill")),
	}
}
