"""EASY backfilling with the queue in shortest-job-first order: waiting
jobs are served by estimate (ties by arrival), the first that does not fit
gets the reservation (schedfarm's easy with order=sjf)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from easy import EASY, run  # noqa: E402


class SJFEASY(EASY):
    name = "sjf-easy-py"

    def queue(self):
        return sorted(self.waiting.values(), key=lambda j: (j.estimate, j.index))


if __name__ == "__main__":
    run(SJFEASY())
