package policy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/backfill"
	"github.com/schedfarm/schedfarm/sim/policy/preempt"
)

// entries is the table of every policy, in the order --help lists them.
var entries = []Entry{
	{
		Name: "fcfs", Family: "backfill",
		Doc:      "first come first served, no backfilling (order: the queue order; the first waiting job in it that does not fit blocks the rest)",
		Params:   []Param{orderParam()},
		Predicts: true,
		Build: func(v Values, env Env) (sim.Policy, error) {
			p := backfill.NewFCFS()
			var err error
			p.Rank, err = rankOf(v)
			p.Predict = env.Predict
			return p, err
		},
	},
	{
		Name: "easy", Family: "backfill",
		Doc: "aggressive (EASY) backfilling: a reservation for the head job only",
		Params: []Param{
			orderParam(),
			{Name: "backfill_order", Kind: String, Default: "queue", Choices: []string{"queue", "sjf"}, Elide: true,
				Doc: "order in which the jobs behind the head are tried for backfilling: queue (the queue order) or sjf (shortest estimate first: EASY-SJBF)"},
		},
		Predicts: true,
		Build: func(v Values, env Env) (sim.Policy, error) {
			p := backfill.NewEASY()
			var err error
			p.Rank, err = rankOf(v)
			p.BackfillSJF = v.StringOr("backfill_order", "queue") == "sjf"
			p.Predict = env.Predict
			return p, err
		},
	},
	{
		Name: "conservative", Family: "backfill",
		Doc: "conservative backfilling: every job gets a reservation at arrival; the schedule is compressed when a job ends early",
		Params: []Param{
			{Name: "compress", Kind: String, Default: backfill.StartOrder.String(), Choices: backfill.OrderNames(),
				Doc: "order in which compression re-places reservations: start_order (by reservation start, as Kettimuthu et al. 2005) or queue_order (by arrival, as Mu'alem & Feitelson 2001)"},
			orderParam(),
		},
		Validate: func(v Values) error {
			if v.String("order") != backfill.RankFCFS.String() && v.String("compress") != backfill.StartOrder.String() {
				return &ParamError{Param: "compress", Msg: fmt.Sprintf("%s cannot be combined with order %s, which sets the compression order", v.String("compress"), v.String("order"))}
			}
			return nil
		},
		Build: func(v Values, _ Env) (sim.Policy, error) {
			c := backfill.NewConservative()
			o, err := backfill.ParseOrder(v.String("compress"))
			if err != nil {
				return nil, err
			}
			c.Order = o
			c.Rank, err = rankOf(v)
			return c, err
		},
	},
	{
		Name: "ss", Family: "preempt",
		Doc:      "selective suspension: a waiting job suspends running jobs of at most 1/SF its xfactor; backfilling without reservations",
		Params:   ssParams(true),
		Validate: validateSS,
		Build: func(v Values, env Env) (sim.Policy, error) {
			return buildSS(v, env, v.Bool("tunable"))
		},
	},
	{
		Name: "tss", Family: "preempt",
		Doc:      "tunable selective suspension: ss with tunable=true (limits from an EASY run of the same workload)",
		Params:   ssParams(false),
		Validate: validateSS,
		Build:    func(v Values, env Env) (sim.Policy, error) { return buildSS(v, env, true) },
	},
	{
		Name: "is", Family: "preempt",
		Doc: "immediate service: every arriving job gets a timeslice at once, suspending the running jobs of lowest instantaneous xfactor",
		Params: append([]Param{
			{Name: "timeslice", Kind: Int, Default: int64(preempt.DefaultTimeslice), Min: 1, Max: maxPeriod,
				Doc: "seconds of work an arriving job gets at once, during which it cannot be suspended"},
			{Name: "resume_preempt", Kind: Bool, Default: preempt.DefaultISConfig().ResumePreempt,
				Doc: "a suspended job may suspend the jobs holding its processors when its instantaneous xfactor is higher than each of theirs " +
					"and none is protected by reclaim_hold (false: it resumes only when its processors are free; " +
					"true thrashes on long loaded runs)"},
			{Name: "resume_anywhere", Kind: Bool, Default: preempt.DefaultISConfig().ResumeAnywhere,
				Doc: "a suspended job may resume on any free processors, as many as it had, not only its own (it migrates, as on a shared-memory machine); " +
					"with resume_preempt it suspends jobs anywhere to make room"},
			{Name: "resume_factor", Kind: Float, Default: 1.0, Min: 1, Max: none,
				Doc: "with resume_preempt, a suspended job may suspend a running job only if its instantaneous xfactor exceeds resume_factor x that job's " +
					"(a suspension factor for reclaims, as SS's; 1: the plain comparison)"},
			{Name: "reclaim_hold", Kind: String, Default: string(preempt.ReclaimHoldTimeslice), Choices: preempt.ReclaimHolds(),
				Doc: "with resume_preempt, which running jobs a suspended job may not take its processors back from: " +
					"timeslice, those that have not run a timeslice since they last (re)started; " +
					"first, only those still in their first (arrival's) timeslice, and those (re)started at this instant"},
			{Name: "hold_remembered", Kind: Bool, Default: false,
				Doc: "a job that never ran does not take free processors a suspended job remembers: it suspends running jobs instead, or waits " +
					"(suspensions come from arrivals only; a suspended job gets its processors back as their users leave)"},
			{Name: "timeslice_preemptible", Kind: Bool, Default: false,
				Doc: "a later arrival may suspend a job still in its immediate timeslice (false: that timeslice is not interrupted)"},
			{Name: "timeslice_yield", Kind: Bool, Default: false,
				Doc: "a job that suspended others to start is suspended in turn when its immediate timeslice ends, if one of them is still waiting for processors it holds"},
		}, overheadParams...),
		Validate: checkOverhead,
		Build: func(v Values, env Env) (sim.Policy, error) {
			o, err := overhead(v, env)
			if err != nil {
				return nil, err
			}
			p, err := preempt.NewIS(preempt.ISConfig{Timeslice: sim.Time(v.Int("timeslice")), ResumePreempt: v.Bool("resume_preempt"), ResumeAnywhere: v.Bool("resume_anywhere"), ResumeFactor: v.Float("resume_factor"), ReclaimHold: preempt.ReclaimHold(v.String("reclaim_hold")), HoldRemembered: v.Bool("hold_remembered"), TimeslicePreemptible: v.Bool("timeslice_preemptible"), TimesliceYield: v.Bool("timeslice_yield"), Overhead: o})
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrBadParam, err)
			}
			return p, nil
		},
	},
}

// overheadParams are the suspension overhead parameters of the preempt
// family (Kettimuthu et al. 2005, section 5.1).
var overheadParams = []Param{
	{Name: "overhead", Kind: Bool, Default: false,
		Doc: "charge suspend and resume overheads: memory / overhead_rate seconds, processors held, no work done"},
	{Name: "overhead_rate", Kind: Float, Default: preempt.DefaultOverheadRate, Min: 0.001, Max: none,
		Doc: "MB/s per processor written on suspend and read on resume"},
	{Name: "mem_min", Kind: Float, Default: preempt.DefaultMemMin, Min: 0, Max: none,
		Doc: "least memory per processor of a job, MB (drawn uniformly per job from the seed and job id)"},
	{Name: "mem_max", Kind: Float, Default: preempt.DefaultMemMax, Min: 0, Max: none,
		Doc: "most memory per processor of a job, MB (>= mem_min)"},
}

// ssParams returns the parameters of ss (with tunable) or tss (without).
func ssParams(tunable bool) []Param {
	ps := []Param{
		{Name: "suspension_factor", Kind: Float, Default: preempt.DefaultSuspensionFactor, Min: 1, Max: none,
			Doc: "SF: a job may suspend running jobs whose xfactor is at most its own / SF"},
		{Name: "width_ratio", Kind: Float, Default: preempt.DefaultWidthRatio, Min: 0, Max: none,
			Doc: "a job that never ran may suspend only jobs using at most width_ratio x its processors (0: never)"},
		{Name: "interval", Kind: Int, Default: int64(preempt.DefaultInterval), Min: 1, Max: maxPeriod,
			Doc: "seconds between runs of the preemption routine while jobs wait (it also runs at every event)"},
		{Name: "hold_remembered", Kind: Bool, Default: false,
			Doc: "a job that never ran may take processors a suspended job remembers only if it could suspend that job were it running"},
		{Name: "hold_backfill", Kind: Bool, Default: false,
			Doc: "with hold_remembered, a job that never ran may also use free processors a suspended job remembers if, by its estimate, " +
				"it ends before that job could resume (before each running job on the job's other processors ends or becomes suspendable by it)"},
		{Name: "stop_scan", Kind: Bool, Default: false,
			Doc: "a job that never ran gives up at the first running job (in ascending xfactor) it may not suspend by width or TSS limit, as the pseudocode of section 4.3 " +
				"(false: such jobs are skipped, as the candidate set C_i)"},
		{Name: "marks_only", Kind: Bool, Default: false,
			Doc: "suspend jobs only at multiples of interval (the routine 'after every minute'); at other events idle jobs only start or resume on free processors " +
				"(false: the whole routine also runs at every event)"},
		{Name: "defer_start", Kind: Bool, Default: false,
			Doc: "a job that never ran and needs all its candidates suspended does not start in that pass (the end of section 4.3's suspend_jobs_1 loop) but at the next pass, " +
				"the next event or multiple of interval, if its processors are still free (false: it starts at once)"},
		{Name: "defer_backfill", Kind: Bool, Default: false,
			Doc: "with defer_start, the next pass is a backfilling pass right after the routine, at the same instant: waiting jobs, in descending xfactor, " +
				"start where they fit on free processors (false: the next event or multiple of interval)"},
	}
	if tunable {
		ps = append(ps, Param{Name: "tunable", Kind: Bool, Default: false,
			Doc: "TSS: suspensions limited by tss_limit x the victim category's mean slowdown under EASY (see tss_protect_victim)"})
	}
	ps = append(ps,
		Param{Name: "tss_limit", Kind: Float, Default: preempt.DefaultTSSLimit, Min: 0, Max: none,
			Doc: "TSS limit factor on the EASY mean bounded slowdown of the victim's ss16 category"},
		Param{Name: "tss_protect_victim", Kind: Bool, Default: preempt.DefaultSSConfig().TSSProtectVictim,
			Doc: "TSS reading (section 4.5): true, a running job cannot be suspended while its own xfactor exceeds its category's limit (the prose); " +
				"false, a job cannot suspend once its own xfactor exceeds the victim's limit (the formulas)"},
		Param{Name: "tss_baseline_ss", Kind: Bool, Default: false,
			Doc: "TSS limits from the category means of a plain SS run with the same settings instead of an EASY run"},
		Param{Name: "tss_paper_limits", Kind: Bool, Default: false,
			Doc: "the TSS limits are the NS category means Kettimuthu et al. print in Tables 4 and 5, given in tss_limits: schedfarm reproduce passes them " +
				"from the paper's claims file to every entry that sets this (true without tss_limits is an error)"},
		Param{Name: "tss_limits", Kind: String, Default: "", Elide: true,
			Doc: "TSS category means given outright, by machine size: 'PROCS: LABEL MEAN; ... / PROCS: ...' with every ss16 category " +
				"(empty: from the EASY run, or the SS run with tss_baseline_ss); a run on a machine size not given is an error"})
	return append(ps, overheadParams...)
}

// maxPeriod bounds the time parameters (timeslice, interval): one year in
// seconds.
const maxPeriod = 365 * 24 * 3600

// overhead returns the overhead model the parameters ask for (the zero
// model when overhead is off); the memory range is checked either way,
// the bound on one overhead ([preempt.MaxOverhead]) only when it is on.
func overhead(v Values, env Env) (preempt.Overhead, error) {
	o := preempt.Overhead{Seed: env.Seed, Rate: v.Float("overhead_rate"), MemMin: v.Float("mem_min"), MemMax: v.Float("mem_max")}
	if err := o.Validate(); err != nil && (v.Bool("overhead") || !errors.Is(err, preempt.ErrOverheadBound)) {
		return preempt.Overhead{}, fmt.Errorf("%w: %w", ErrBadParam, err)
	}
	if !v.Bool("overhead") {
		return preempt.Overhead{}, nil
	}
	return o, nil
}

// checkOverhead is the Validate of the preempt entries: a problem of the
// overhead settings is reported on mem_max.
func checkOverhead(v Values) error {
	if _, err := overhead(v, Env{}); err != nil {
		msg := strings.TrimPrefix(err.Error(), ErrBadParam.Error()+": ")
		return &ParamError{Param: "mem_max", Msg: strings.TrimPrefix(msg, preempt.ErrInvalidConfig.Error()+": ")}
	}
	return nil
}

// validateSS is the Validate of ss and tss: the overhead settings
// ([checkOverhead]) and the TSS limits ([tssLimits]).
func validateSS(v Values) error {
	_, err := tssLimits(v)
	return errors.Join(checkOverhead(v), err)
}

// tssLimits returns the limits tss_limits gives (nil when empty). Its
// problems are reported on tss_limits, and tss_paper_limits without them
// on tss_paper_limits.
func tssLimits(v Values) (preempt.Limits, error) {
	text := v.StringOr("tss_limits", "")
	if text == "" {
		if v.Bool("tss_paper_limits") {
			return nil, &ParamError{Param: "tss_paper_limits", Msg: "true needs the paper's means in tss_limits " +
				"(schedfarm reproduce passes them from the paper's claims file, specs/kettimuthu2005/claims.yaml)"}
		}
		return nil, nil
	}
	l, err := preempt.ParseLimits(text)
	if err != nil {
		return nil, &ParamError{Param: "tss_limits", Msg: strings.TrimPrefix(err.Error(), preempt.ErrInvalidConfig.Error()+": ")}
	}
	return l, nil
}

func buildSS(v Values, env Env, tunable bool) (sim.Policy, error) {
	o, err := overhead(v, env)
	if err != nil {
		return nil, err
	}
	limits, err := tssLimits(v)
	if err != nil {
		return nil, err
	}
	cfg := preempt.SSConfig{
		SuspensionFactor: v.Float("suspension_factor"),
		WidthRatio:       v.Float("width_ratio"),
		Interval:         sim.Time(v.Int("interval")),
		Tunable:          tunable,
		TSSLimit:         v.Float("tss_limit"),
		TSSProtectVictim: v.Bool("tss_protect_victim"),
		TSSBaselineSS:    v.Bool("tss_baseline_ss"),
		TSSLimits:        limits,
		HoldRemembered:   v.Bool("hold_remembered"),
		HoldBackfill:     v.Bool("hold_backfill"),
		StopScan:         v.Bool("stop_scan"),
		MarksOnly:        v.Bool("marks_only"),
		DeferStart:       v.Bool("defer_start"),
		DeferBackfill:    v.Bool("defer_backfill"),
		Overhead:         o,
	}
	p, err := preempt.NewSS(cfg, env.Procs, env.Jobs)
	if err != nil {
		if errors.Is(err, preempt.ErrInvalidConfig) {
			return nil, fmt.Errorf("%w: %w", ErrBadParam, err)
		}
		return nil, err
	}
	return p, nil
}

// orderParam is the queue order parameter of fcfs, easy and conservative.
func orderParam() Param {
	return Param{Name: "order", Kind: String, Default: backfill.RankFCFS.String(), Choices: backfill.RankNames(), Elide: true,
		Doc: "queue order: fcfs (arrival), sjf, ljf (estimate), saf, laf (estimate x processors), wfp3, unicep (Tang et al. 2009), f1 (Carastan-Santos & de Camargo 2017), xfactor; ties by arrival; under conservative, the order of compression"}
}

// rankOf returns the order parameter's rank (fcfs when elided).
func rankOf(v Values) (backfill.Rank, error) {
	return backfill.ParseRank(v.StringOr("order", backfill.RankFCFS.String()))
}
