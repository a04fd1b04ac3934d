// Package moldable holds the moldable scheduling policies of Srinivasan,
// Krishnamoorthy and Sadayappan, "A robust scheduling strategy for
// moldable scheduling of parallel jobs" (Cluster 2003): the scheduler
// picks each job's size within the range of its annotation
// ([sim.Moldable], made by the workload's sigma and range_factor), and the
// job's runtime and estimate follow Downey's speedup model.
//
//   - [Submit] (moldable-submit, the paper's section 3, strategies 1-2):
//     conservative backfilling that picks a job's size at arrival, against
//     the profile of running jobs (to their estimated ends) and every
//     reservation, then reserves it; the size is fixed from then on, and
//     the schedule is compressed as in conservative backfilling when a job
//     ends early, in the order its compress parameter names (the embedded
//     [backfill.Conservative]'s Order). Without fair_share this is Cirne's
//     greedy strategy.
//   - [Schedule] (moldable-schedule, section 3 strategy 3 and section 4):
//     aggressive backfilling that picks a job's size when it starts; its
//     defaults are the paper's "base strategy". moldable-combined (section
//     5) is this policy with sqrt_weights, parallel_only,
//     category_reservations and xfactor_reservations all on.
//
// # Choosing a size
//
// Every choice uses estimates: a job's estimated runtime on k processors is
// E(k), scaled from its estimated sequential work est_work = estimate x
// S(trace size).
//
// The fair-share limit (its formula is lost from the paper's text) is
//
//	lim_i = max(min_i, min(max_i, floor(n x min(gap, WF x w_i / sum_j w_j))))
//
// with w = est_work (sqrt(est_work) with sqrt_weights; the sequential work
// L with weights: work), the sum over every running and queued job, i
// included (only jobs with max > 1 with parallel_only). Without
// fair_share, lim_i = max_i.
//
// The candidate sizes are, with choices = c > 0, min + round_half_up(j x
// (lim - min) / (c - 1)) for j = 0..c-1 without duplicates; with c = 0,
// one per profile step from now on: a step starting at t_s with f_s free
// processors is skipped when f_s < min and otherwise gives k = min(f_s,
// lim) tried from t_s, and the walk stops at the first step starting after
// the best completion found so far. Each candidate k gets the earliest
// start s >= its from-time at which k processors are free for E(k); the
// best candidate has the earliest s + E(k), ties going to fewer
// processors, then to the earlier start.
//
// # The schedule-time pass
//
// At every instant with events, [Schedule] makes a pass: the profile holds
// the running jobs, and the queue is taken in submit order. Each job gets
// its best (k, s); it starts (molded to k) when s is now, else it is
// reserved at (s, E(k), k) for the rest of this pass if it qualifies, and
// skipped otherwise. A job qualifies when it is the first
// job of the pass that cannot start, or (category_reservations) the first
// of its weight10 category that cannot start, the category of trace size
// x estimate (upper bounds 1024 x 4^j, j = 0..8), or
// (xfactor_reservations) when its xfactor (now - submit + est_work) /
// est_work exceeds xfactor_threshold. With keep_reservations true the
// profile also holds the reservations kept from earlier passes: a reserved
// job keeps its reservation, moved to the earliest start its size now fits
// (no later than reserved), unless a fresh best ends sooner; the job is
// reserved until it starts if it holds a reservation already or
// qualifies, and a timer makes a pass at each reserved start.
//
// # Interpretations
//
// The paper leaves these open; by default the policies read them so:
//
//   - the "12 choices" of processor counts are spread evenly between the
//     minimum and the limit (the formula above);
//   - all planning uses estimates, with ESRT = est_work (section 4.3's
//     "sequential wall-clock limit"), for the xfactor and for the
//     fair-share weight w;
//   - reservations are recomputed every pass;
//   - load is raised with load_mode: arrival (inter-arrival times divided
//     by the load factor; the paper does not say how).
//
// The other readings are parameters, worth comparing because the text
// supports them too:
//
//   - weights: work weighs the sequential work L = runtime x S(trace
//     size), the "effective sequential run time" as section 2.2 defines it
//     (section 4.2: "total processor-seconds needed"); it is clairvoyant.
//   - keep_reservations: true keeps a reservation until its job starts
//     (section 1: a job may leap forward "only if it does not delay the
//     reserved job"; section 4.3: "all further reservations ... respect the
//     constraint posed by the reserved jobs").
//   - xfactor_base: work or estimate changes the xfactor's divisor.
//   - moldable-submit's compress: queue_order compresses in arrival order,
//     as Mu'alem and Feitelson, the paper's reference for conservative
//     backfilling, do (start_order by default, as conservative's).
//
// The reproduction of the paper (specs/srinivasan2003) sets weights: work
// and keep_reservations: true on its moldable policies and compress:
// queue_order on its rigid baseline and moldable-submit. Measured over its
// 286 claims: 246 agree with these three readings, 227 with est_work
// weights instead, 229 with reservations recomputed every pass instead,
// 220 with both defaults (queue_order kept), 217 with the defaults and
// start_order compression. The scorecard (specs/srinivasan2003/
// scorecard.csv) grades each claim.
//
// # Cost
//
// An arrival under [Submit] costs one EarliestStart per candidate. A pass
// of [Schedule] costs, per queued job that could start now (at least min
// processors free) or that qualifies for a reservation, one EarliestStart
// per candidate; other jobs cost O(log steps).
package moldable
