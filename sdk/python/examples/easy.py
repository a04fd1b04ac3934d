"""EASY (aggressive) backfilling: a reservation for the first waiting job
that does not fit; later jobs start if they do not delay it (schedfarm's
easy). The queue order is arrival; sjf_easy.py changes it."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from schedfarm_policy import Policy, Profile, run  # noqa: E402


class EASY(Policy):
    name = "easy-py"

    def init(self):
        # Running jobs by estimate.
        self.prof = Profile(self.procs, 0)

    def finish(self, job):
        # Give back the rest of the job's estimated time.
        self.prof.advance(self.now)
        end = job.start + job.estimate
        if end > self.now:
            self.prof.release(self.now, end - self.now, job.procs)

    def queue(self):
        """The waiting jobs in the order they are served."""
        return list(self.waiting.values())

    def launch(self, job):
        self.start(job)
        self.prof.reserve(self.now, job.estimate, job.procs)

    def schedule(self):
        now, prof = self.now, self.prof
        prof.advance(now)
        q = self.queue()
        i, n = 0, len(q)
        while i < n and q[i].procs <= self.free:
            self.launch(q[i])
            i += 1
        if n - i < 2:
            return
        head = q[i]
        shadow = prof.earliest_start(now, head.procs, head.estimate)
        prof.reserve(shadow, head.estimate, head.procs)
        free_now, at_shadow, window = prof.free_at(now), prof.free_at(shadow), shadow - now
        for job in q[i + 1:]:
            free = self.free
            if free == 0:
                break
            if_short = min(free, free_now)
            if job.procs <= min(if_short, at_shadow) or (job.procs <= if_short and job.estimate <= window):
                self.launch(job)
                free_now -= job.procs
                if job.estimate > window:
                    at_shadow -= job.procs
        prof.release(shadow, head.estimate, head.procs)


if __name__ == "__main__":
    run(EASY())
