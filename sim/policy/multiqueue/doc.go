// Package multiqueue is self-adapting multiple-queue backfilling (Lawson,
// Smirni and Puiu 2002, "Self-adapting backfilling scheduling for parallel
// systems", ICPP 2002): waiting jobs are split into four
// queues by their run-time estimate, the head of every queue holds a
// reservation, and extra-long jobs may be held back by an adaptive delay.
//
// Interpretations of the paper's text, each a choice where the text is
// open or inconsistent:
//
//   - Queues (section 3.2). A job's class comes from its estimate t_e:
//     queue 1 if t_e <= ClassBounds[0], 2 if <= ClassBounds[1], 3 if <=
//     ClassBounds[2], else 4. Each queue is FIFO by arrival.
//   - Partitions (section 3.2). Each queue starts with floor(P/4)
//     processors; the remainder goes to queues 1, 2, ... one each.
//     busy_q is the processors of queue q's running jobs and idle_q =
//     P_q - busy_q.
//   - Pivots. The head of each non-empty queue is its pivot and holds a
//     reservation in a [sim.Profile] of the running jobs (by estimate).
//     A job that becomes pivot is reserved at its earliest fit at or after
//     max(now, not_before), around the existing pivot reservations, and
//     the time is recorded with [sim.Machine.Promise]. At every scheduling
//     instant the pivot reservations are compressed in start order (ties
//     by arrival), which never moves one later; then the queues without a
//     pivot get one, in the arrival order of their heads. Section 3.2
//     forbids delaying any pivot "that arrived earlier": we read "arrived"
//     as "became pivot", since only then does "once a job reaches the
//     front of the queue, it cannot be delayed further" hold. A pivot's
//     promise therefore never moves later.
//   - The pass (Fig. 4). At each submission, completion and delay timer
//     the policy makes one pass over all waiting jobs in arrival order,
//     across queues. A pivot starts when its reservation is at now (step
//     5); the next job of its queue becomes pivot at once. Any other job
//     starts iff now >= its not_before and it fits in the profile over
//     [now, now+estimate) with every pivot reservation in place. This one
//     test covers steps 6a-6c: own idle or extra processors (6a, 6b) and
//     borrowed ones (6c), "such that no pivot is delayed". Read literally,
//     6a and 6b check only the job's own pivot and could delay another
//     queue's pivot that counts on those processors; the guarantee wins.
//     The pass skips the jobs it would pass over without looking at each:
//     the waiting jobs are in an index by arrival with the least width and
//     estimate of each range (sim/policy/internal/waitindex), and a range
//     whose narrowest job is wider than what is free, or than what is free
//     over its shortest job's estimate, holds no job that fits. A pass
//     costs O(log n) per job it starts or pivot it visits, and per range it
//     cannot rule out, instead of O(queue).
//   - Processor moves (bookkeeping only). A job of queue q takes
//     min(w, idle_q) processors from P_q; the rest comes from the other
//     partitions' idle processors, the partition with the most idle first
//     (ties to the lower queue), and joins P_q. A finished job's
//     processors stay idle in their partition until taken: our reading of
//     "redistributed ... according to the ongoing processor demands". A
//     whole-machine job gathers all P. Partitions record and never
//     restrict: the decisions are backfilling with one reservation per
//     class head, and with a single class (all bounds above every
//     estimate) the policy schedules exactly like EASY.
//   - Delay for extra-long jobs (section 4.2), with Delay on. A class-4
//     job submitted at t_s gets not_before = t_s + ceil(D), where D is the
//     global delay at t_s; D is fixed at submission (the text is
//     ambiguous). The job keeps its arrival-order place in queue 4; its
//     reservation and start come at or after not_before, and a timer wakes
//     the policy then.
//   - Adapting D. Completions, ordered by (end, arrival index), form
//     batches of DelayBatch jobs. s_k is the mean slowdown (1 + wait /
//     runtime) of the queue-1 jobs in batch k. For k > 1, delta_k = (s_k -
//     s_{k-1}) / max(s_k, s_{k-1}); for k = 1 the paper prints delta_1 =
//     s_1, which is not a proportion and is probably garbled, so
//     Delta1Unit gives delta_1 = 1 (s_0 = 0) instead. If |delta_k| >
//     DelayThreshold then D_{k+1} = max(D_k + delta_k x D_1, 0), otherwise
//     D_{k+1} = D_k; D_1 = InitialDelay. A batch without queue-1 jobs is
//     skipped: it leaves D unchanged and is not counted in k (s_{k-1} is
//     the last batch that had queue-1 jobs). D_{k+1} applies from the
//     completion that closes batch k, including to jobs arriving at that
//     instant. With AdaptiveDelay off, D stays at D_1.
//
// Figures reported per run ([Policy.Annotate]): per job its queue, the
// delay imposed (0 for classes 1-3 and without Delay) and P_q just after
// its start; per run the time-averaged P_q (from the first arrival to the
// last completion), the processors moved between partitions, the number
// of batches whose |delta| exceeded the threshold (delay updates), and
// the largest and the final D.
package multiqueue
