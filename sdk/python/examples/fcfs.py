"""First come, first served without backfilling (schedfarm's fcfs)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from schedfarm_policy import Policy, run  # noqa: E402


class FCFS(Policy):
    name = "fcfs-py"

    def schedule(self):
        for job in list(self.waiting.values()):
            if job.procs > self.free:
                break
            self.start(job)


if __name__ == "__main__":
    run(FCFS())
