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
// with w = L, the job's sequential work (sqrt(L) with sqrt_weights; est_work
// with weights: est_work), the sum over every running and queued job, i
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
// the running jobs and the reservations kept from earlier passes, and the
// queue is taken in submit order. Each job gets its best (k, s); a
// reserved job keeps its reservation, moved to the earliest start its
// size now fits (no later than reserved), unless that best ends sooner.
// The job starts (molded to k) when s is now, else it is reserved at (s,
// E(k), k), until it starts, if it holds a reservation already or
// qualifies, and skipped otherwise. A job qualifies when it is the first
// job of the pass that cannot start, or (category_reservations) the first
// of its weight10 category that cannot start, the category of trace size
// x estimate (upper bounds 1024 x 4^j, j = 0..8), or
// (xfactor_reservations) when its xfactor (now - submit + est_work) /
// est_work exceeds xfactor_threshold. A timer makes a pass at each
// reserved start. With keep_reservations false every pass plans afresh
// instead: a reservation holds for the rest of its pass only.
//
// # Interpretations
//
// The paper leaves these open; the policies read them so:
//
//   - the "12 choices" of processor counts are spread evenly between the
//     minimum and the limit (the formula above);
//   - all planning uses estimates, and the xfactor's "sequential
//     wall-clock limit" (section 4.3) is est_work (xfactor_base selects L,
//     or the estimate on the trace size, to compare);
//   - a job's weight, the "effective sequential run time" of section 3
//     ("total processor-seconds needed", section 4.2), is L as section 2.2
//     defines it: runtime x S(trace size), from the trace's runtime
//     (weights: est_work compares the scheduler's estimate instead). With
//     L, strict fair share favours heavy jobs over light ones, as section
//     4.2 reports of it; with est_work the light jobs' overestimates
//     outweigh them and the heavy jobs lose;
//   - a reservation is kept until its job starts (keep_reservations,
//     Config.KeepReservations): it is in the profile before each pass
//     walks the queue, and its job keeps its size and slot unless a fresh
//     choice ends sooner. Aggressive backfilling lets a job leap forward
//     "only if it does not delay the reserved job" (section 1), section
//     4.3 tracks "each unreserved job" and has "all further reservations
//     or occupation of processors by other jobs ... respect the constraint
//     posed by the reserved jobs". Planned afresh at every pass instead, a
//     reserved job's fair-share limit falls as jobs arrive and its
//     completion moves later;
//   - the paper does not say how it raised the load; the reproduction uses
//     load_mode: arrival (inter-arrival times divided by the load factor);
//   - its rigid baseline, conservative backfilling, and moldable-submit
//     compress the schedule in queue (arrival) order (compress:
//     queue_order), as Mu'alem and Feitelson, the paper's reference for
//     conservative backfilling, do.
//
// # Cost
//
// An arrival under [Submit] costs one EarliestStart per candidate. A pass
// of [Schedule] costs, per queued job that could start now (at least min
// processors free) or that qualifies for a reservation, one EarliestStart
// per candidate; other jobs cost O(log steps).
package moldable
