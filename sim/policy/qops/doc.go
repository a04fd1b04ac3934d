// Package qops implements QoPS, deadline-guaranteed admission control for
// parallel jobs, as extended by Islam, Balaji, Sadayappan and Panda,
// "Towards Provision of Quality of Service Guarantees in Job Scheduling"
// (Cluster 2004): feedback on the earliest feasible deadline, user
// tolerance, artificial slack, kill-and-restart and jobs without
// deadlines, with the paper's resource and QoS charges.
//
// Every job is decided at its arrival ([sim.Machine.Admit] with a
// guaranteed completion time, or [sim.Machine.Reject]); no admitted job
// ever ends after its guaranteed deadline, because every job starts at
// its reservation, reservations end by their deadlines, and no estimate
// is below its runtime ([Policy.Init] refuses such a workload). Where the
// paper is silent or ambiguous, the choices below are this package's.
//
// # Deadlines (section 5)
//
// EASY backfilling runs on the originals (jobs with [sim.Job.Origin] equal
// to their ID: the workload before the duplicate load transform), on the
// same machine with the same estimates. A job's requested deadline is
// d = submit + max(runtime, floor((1-S) x (EASY end - submit))), S being
// [Config.Stringency]; a copy keeps its original's d. The paper does not
// state its estimates; the reproduction uses accurate ones. With
// [Config.DeadlineFraction] below 1, each original requests a deadline
// with that probability, drawn from (task seed, origin id), and its
// copies follow it. Note that the duplicate transform copies each job
// independently with probability LF-1, not exactly 20% of them.
//
// # Schedule
//
// A [sim.Profile] holds the running jobs (by estimate, from their last
// start) and one reservation per admitted waiting job. Positions 0..N-1
// order those jobs by reserved start (ties: arrival index). A job starts
// when its reservation comes. After a job ends before its estimate, the
// schedule is compressed in position order before the instant's arrivals
// are decided, as conservative backfilling does ([sim.Profile.Compress]);
// the paper is silent here, and compression never moves a job later, so
// every deadline still holds.
//
// # Original_QoPS (section 2.1, Figure 1)
//
// The insertion points are p_k = N - floor(N/2^k) for k = 0, 1, ...:
// 0, N/2, 3N/4, 7N/8, ..., ending with N (the new job at its earliest fit,
// nothing moved). Each distinct point is tried once, in increasing order,
// from the current schedule (a clone of the profile per point):
//
//  1. positions >= p are released into a temporary list TL, with the new
//     job J;
//  2. TL is sorted by deadline (ties: submit, then arrival index), or by
//     deadline - estimate with [Config.LeastLaxity]; with
//     [Config.NewJobFirst], J goes first at points after 0 (the prose of
//     section 2.1);
//  3. the head Jc of TL is reserved at its earliest fit from now;
//  4. if Jc ends after its deadline, that is a violation, and more than
//     K ([Config.KFactor]) violations fail the point. Otherwise T is the
//     number of other reservations starting at or before Jc's, m =
//     floor((p+T)/2), and Jc and positions m..T-1 go back to TL, which is
//     sorted again with Jc at its head. When m >= T nothing else moves,
//     Jc would land on the same slot again and again, and the point fails
//     at once (the outcome of repeating it until more than K violations).
//
// An empty TL is a success: the new schedule is committed. Figure 1
// returns FAILED from inside its loop over the points, but the prose
// makes the points alternatives; they are alternatives here: the first
// point that succeeds is taken, and the job fails only if every point
// fails. Point N is included (section 2.1 says "at most log2(N)" points):
// with an infinite deadline it always succeeds, which the feedback needs.
//
// # Feedback (section 4, Figure 2), tolerance (section 6), slack (section 7)
//
// When the requested deadline d fails (and kill-and-restart, if on, finds
// nothing) and the job's tolerance TF_j exceeds the slack factor SF, the
// job gets an offer; otherwise it is rejected: for TF <= SF the scheme
// "behaves like our original QoPS" (section 7). The offer: E0 is J's end
// under Original_QoPS with an infinite deadline; lo = d, hi = E0; then
// [Config.RetryCount] times, mid = floor((lo+hi)/2) and Original_QoPS with
// deadline mid: on success hi = mid (keeping that schedule), else lo =
// mid. E = max(hi, d) is the earliest deadline found, and the offer is
// O = submit + ceil(SF x (E - submit)). The user accepts iff O - submit <=
// TF_j x (d - submit): TF scales the response time (section 1's
// "relative increase in response-time"; section 6's "TF x Requested
// Deadline" read as a response time, since deadlines are absolute). An
// accepted job is admitted on E's schedule with deadline O. TF_j is
// [Config.Tolerance], or with [Config.ToleranceRandom] drawn from U[0,
// 2 x Tolerance] by (task seed, job id) (section 6.1).
//
// # Kill-and-restart (section 8)
//
// Tried before any offer, for jobs that requested a deadline. Running jobs
// are taken in ascending used processor-seconds (processors x work done
// so far; ties: arrival index). A job that, restarted now, could not end
// by its own deadline is skipped (Original_QoPS would fail for it). For
// each other candidate r, r's remaining time is dropped from the profile,
// then Original_QoPS(J, d) and Original_QoPS(r, r's deadline) with r's
// full estimate are tried; if both succeed, r is killed (it restarts from
// scratch, [sim.Machine.Kill]) and the schedule is committed, else the
// next candidate is tried. At most one job is killed per arrival.
//
// # Jobs without deadlines (section 8)
//
// They are always admitted, on the schedule of Original_QoPS with an
// infinite deadline (J's end E0), with the artificial deadline submit +
// ceil([Config.NodeadlineSlack] x (E0 - submit)); the paper says only that
// they get "sufficient slack". They may be victims of kill-and-restart.
//
// # Charges (section 3)
//
// The resource charge of an admitted job is processors x runtime. Its QoS
// charge is category_bsd / requested_bsd for a job that requested a
// deadline, 0 for others: category_bsd is the mean bounded slowdown of the
// job's ss16 category under EASY on the same loaded workload (copies
// included; [Policy.Baseline], cached like the TSS baseline of package
// preempt), and requested_bsd the bounded slowdown of ending exactly at
// the guaranteed deadline, so that a job admitted late pays "a lesser QoS
// charge" (section 6.1). The text says "slowdown"; bounded slowdown (10 s
// threshold) is used on both sides. The stringency factor does not affect
// the EASY run (section 5's "several stringency factors" notwithstanding).
//
// # Baselines
//
// The paper has no EASY or conservative admission baseline: its
// baselines are QoPS itself (TF 1, SF 1, no kill-and-restart). EASY only
// sets the deadlines and the category slowdowns.
//
// # Costs
//
// One Original_QoPS call re-places about 2N reservations in the worst
// case (the points' suffixes halve), each an earliest-fit search and a
// reservation in a profile of O(N + running) steps, plus a profile clone
// per point: O(N (N + R) log N) per call.
//
// Within a point, the searches need not start from now each time. Until
// the next release (a violation's), the point only adds reservations, so
// free processors only shrink: when a search for p processors and d
// seconds ended at time a and passed no run of p free processors longer
// than l, a later search for p' >= p processors and d' > l seconds
// cannot end before a, and its earliest start from a is its earliest
// start from now ([sim.Profile.EarliestRun]). The point keeps such memos
// (by decreasing a, none made useless by another) and starts each
// search at the best that applies; most jobs placed at the end of the
// schedule then no longer scan it from the start. The results are the
// plain scans' exactly (TestQoPS_SearchReference).
//
// A point's temporary list is base's later jobs in list order, taken
// from one sort of base per call with the new job merged in; after a
// violation, the moved jobs alone are sorted and merged with the rest of
// the list, which is still in order (the order is total: ties by submit,
// then index). A point's profile is made from whichever side needs fewer
// edits: base's profile without the later reservations, or the running
// jobs' profile with the earlier ones (equal, since a profile is a
// merged step function; TestQoPS_SearchReference also checks that every
// base profile is the running jobs' plus its reservations). Point 0, the
// one every call tries, thus costs no release at all. The profile edits
// of the placements, which move O(N) steps, remain. A rejected job costs one call;
// an offer costs 2 + RetryCount calls; kill-and-restart up to two calls
// per running job. Memory is O(jobs) plus the schedule.
package qops
