"""Conservative backfilling: every job gets a reservation at its arrival
and starts when it comes; when a job ends before its estimate the schedule
is compressed, every reservation re-placed at the earliest time it fits,
in order of reservation start (schedfarm's conservative)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from schedfarm_policy import Policy, Profile, run  # noqa: E402


class Conservative(Policy):
    name = "conservative-py"

    def init(self):
        self.prof = Profile(self.procs, 0)
        self.plan = []  # [start, index, job] sorted
        self.compress = False
        self.timer_at = None

    def finish(self, job):
        now = self.now
        self.prof.advance(now)
        end = job.start + job.estimate
        if end > now:
            self.prof.release(now, end - now, job.procs)
            self.compress = True

    def compact(self):
        now, prof = self.now, self.prof
        prof.advance(now)
        if not self.compress:
            return
        self.compress = False
        moved = False
        for e in self.plan:
            start, _, job = e
            if start <= now:
                continue
            prof.release(start, job.estimate, job.procs)
            at = prof.earliest_start(now, job.procs, job.estimate)
            prof.reserve(at, job.estimate, job.procs)
            if at != start:
                e[0] = at
                moved = True
        if moved:
            self.plan.sort(key=lambda e: (e[0], e[1]))

    def arrive(self, job):
        self.compact()
        at = self.prof.earliest_start(self.now, job.procs, job.estimate)
        self.prof.reserve(at, job.estimate, job.procs)
        e = [at, job.index, job]
        plan = self.plan
        # Last among equal reservations (indices grow with arrival).
        lo, hi = 0, len(plan)
        while lo < hi:
            mid = (lo + hi) // 2
            if (plan[mid][0], plan[mid][1]) < (at, job.index):
                lo = mid + 1
            else:
                hi = mid
        plan.insert(lo, e)

    def schedule(self):
        self.compact()
        now, plan = self.now, self.plan
        i = 0
        while i < len(plan) and plan[i][0] <= now:
            self.start(plan[i][2])
            i += 1
        if i:
            del plan[:i]
        nxt = plan[0][0] if plan else None
        if nxt != self.timer_at:
            if self.timer_at is not None:
                self.cancel_timer(0)
            if nxt is not None:
                self.set_timer(nxt, 0)
            self.timer_at = nxt


if __name__ == "__main__":
    run(Conservative())
