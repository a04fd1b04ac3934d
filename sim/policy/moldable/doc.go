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
// with w = est_work (sqrt(est_work) with sqrt_weights), the sum over every
// running and queued job, i included (only jobs with max > 1 with
// parallel_only). Without fair_share, lim_i = max_i.
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
// At every instant with events, [Schedule] plans afresh: the profile holds
// the running jobs, and the queue is taken in submit order. Each job gets
// its best (k, s); it starts (molded to k) when s is now, else it is
// reserved at (s, E(k), k) for the rest of this pass if it qualifies, and
// skipped otherwise. A job qualifies when it is the first job of the pass
// that cannot start, or (category_reservations) the first of its weight10
// category that cannot start, the category of trace size x estimate (upper
// bounds 1024 x 4^j, j = 0..8), or (xfactor_reservations) when its xfactor
// (now - submit + est_work) / est_work exceeds xfactor_threshold.
//
// # Interpretations
//
// The paper leaves these open; the policies read them so:
//
//   - the "12 choices" of processor counts are spread evenly between the
//     minimum and the limit (the formula above);
//   - all planning uses estimates, and the xfactor's "sequential
//     wall-clock limit" (section 4.3) is est_work;
//   - a job's weight, the "effective sequential run time" of section 3,
//     is est_work as well. Section 2.2 defines the effective sequential
//     run time from the actual runtime (L); the parameters weights and
//     xfactor_base (Config.Weights, Config.XFactorBase) select L, or for
//     the xfactor the estimate on the trace size, to compare the
//     readings (they are not the defaults: a scheduler does not know L);
//   - reservations are recomputed at every pass (none is kept between
//     instants), so a reserved job may be planned later, or narrower, at a
//     later pass (its fair-share limit falls as jobs arrive). With
//     keep_reservations (Config.KeepReservations) a reservation is kept:
//     it is in the profile before each pass walks the queue, and its job
//     keeps its size and slot unless a fresh choice ends sooner (section
//     4.3: "all further reservations or occupation of processors by other
//     jobs should respect the constraint posed by the reserved jobs");
//   - the paper does not say how it raised the load; the reproduction uses
//     load_mode: arrival (inter-arrival times divided by the load factor).
//
// # Cost
//
// An arrival under [Submit] costs one EarliestStart per candidate. A pass
// of [Schedule] costs, per queued job that could start now (at least min
// processors free) or that qualifies for a reservation, one EarliestStart
// per candidate; other jobs cost O(log steps).
package moldable
