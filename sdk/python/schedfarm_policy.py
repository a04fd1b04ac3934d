"""schedfarm_policy: write a schedfarm scheduling policy in Python.

A dependency-free kit for the schedfarm policy protocol (version 1,
docs/protocol.md). Subclass Policy, override the notifications you need
(arrive, finish, timer, overhead) and schedule, act through the decision
methods (start, suspend, resume, kill, checkpoint, mold, set_timer,
cancel_timer, admit, reject, promise), and call run(YourPolicy()) at the
end of the file. The kit keeps the machine's state: now, free processors,
and the waiting, running and suspended jobs, updated by the events and by
your own decisions. Profile is an availability profile for reservations.

Write logs to standard error (log()); anything else printed on standard
output breaks the protocol.

    from schedfarm_policy import Policy, run

    class FCFS(Policy):
        name = "fcfs"

        def schedule(self):
            for job in list(self.waiting.values()):
                if job.procs > self.free:
                    break
                self.start(job)

    run(FCFS())
"""

import bisect
import json
import sys

PROTOCOL_VERSION = 1
NEVER = float("inf")

__all__ = ["Job", "Policy", "Profile", "run", "log", "NEVER", "PROTOCOL_VERSION"]


def log(*args):
    """Print to standard error (the policy's log)."""
    print(*args, file=sys.stderr, flush=True)


class Job:
    """A job as the policy sees it.

    index is the job's handle in decisions (its place in arrival order),
    id its trace ID; submit, estimate and procs as in the trace (estimate
    and procs change when the job is molded); mold and elastic are the
    bounds of a moldable or elastic job (None otherwise). state is one of
    waiting, running, suspending, suspended, resuming, checkpointing,
    stopped, done, rejected; start is the time of the last start (None
    before); set the processors given in the start decision, if any.
    """

    __slots__ = ("index", "id", "submit", "estimate", "procs", "mold", "elastic", "state", "start", "first_start", "set")

    def __init__(self, ev):
        self.index = ev["job"]
        self.id = ev["id"]
        self.submit = ev["submit"]
        self.estimate = ev["estimate"]
        self.procs = ev["procs"]
        self.mold = ev.get("mold")
        self.elastic = ev.get("elastic")
        self.state = "waiting"
        self.start = None
        self.first_start = None
        self.set = None

    def __repr__(self):
        return "Job(%d, id=%d, procs=%d, estimate=%d, %s)" % (self.index, self.id, self.procs, self.estimate, self.state)


class Policy:
    """Base class of a policy: override the notifications and schedule.

    Attributes kept by the kit:
      procs    machine size
      params   the policy's own parameters (a dict)
      seed     the run's seed (use it for any randomness)
      now      current simulated time
      free     free processors (updated by the kit's start/suspend/...)
      waiting  jobs waiting to start, by index, in arrival order (a dict)
      running  jobs holding processors, by index
      suspended jobs suspended or stopped, by index
    """

    name = "python"
    #: optional events to receive: "overhead"
    events = ()

    # -- notifications (override) --

    def init(self):
        """Called once after the handshake (procs, params, seed are set)."""

    def arrive(self, job):
        """A job arrived; it is in self.waiting."""

    def finish(self, job):
        """A job completed; its processors are free."""

    def timer(self, tag):
        """A timer set with set_timer fired."""

    def overhead(self, job):
        """An overhead ended (needs events = ("overhead",)); job.state is
        running, suspended or stopped."""

    def schedule(self):
        """Called once per instant after its events: take decisions here."""

    # -- decisions --

    def start(self, job, set=None, delay=0):
        """Start a waiting (or stopped elastic) job on its procs
        lowest-numbered free processors, or on set; with delay > 0 it holds
        them idle that long first."""
        d = {"op": "start", "job": job.index}
        if set is not None:
            d["set"] = list(set)
        if delay:
            d["delay"] = delay
        self._out.append(d)
        self.free -= job.procs
        self.waiting.pop(job.index, None)
        self.suspended.pop(job.index, None)
        self.running[job.index] = job
        job.state = "running" if not delay else "resuming"
        job.start = self.now
        if job.first_start is None:
            job.first_start = self.now
        job.set = set

    def mold(self, job, procs):
        """Set the size of a moldable job (or of an elastic one) before it
        starts; a moldable job's estimate becomes its estimate on procs."""
        self._out.append({"op": "mold", "job": job.index, "procs": procs})
        if job.mold is not None:
            job.estimate = job.mold["estimates"][procs - job.mold["min"]]
        job.procs = procs

    def suspend(self, job, overhead=0):
        """Suspend a running job (it keeps its processors during overhead)."""
        self._out.append({"op": "suspend", "job": job.index, "overhead": overhead})
        if overhead:
            job.state = "suspending"
        else:
            self._release(job, "suspended")

    def resume(self, job, overhead=0, set=None):
        """Resume a suspended job on its own processors (or on set)."""
        d = {"op": "resume", "job": job.index, "overhead": overhead}
        if set is not None:
            d["set"] = list(set)
        self._out.append(d)
        self.suspended.pop(job.index, None)
        self.running[job.index] = job
        self.free -= job.procs
        job.state = "resuming" if overhead else "running"

    def kill(self, job):
        """Kill a running or suspended job: it waits again, work lost."""
        self._out.append({"op": "kill", "job": job.index})
        if job.index in self.running:
            self.free += job.procs
            del self.running[job.index]
        self.suspended.pop(job.index, None)
        job.state = "waiting"
        self.waiting[job.index] = job

    def checkpoint(self, job, cost=0):
        """Checkpoint a running elastic job: it stops and restarts anywhere."""
        self._out.append({"op": "checkpoint", "job": job.index, "cost": cost})
        if cost:
            job.state = "checkpointing"
        else:
            self._release(job, "stopped")

    def set_timer(self, at, tag=0):
        """Ask for timer(tag) at time at (>= now)."""
        self._out.append({"op": "timer", "at": at, "tag": tag})

    def cancel_timer(self, tag=0):
        """Cancel every pending timer with this tag."""
        self._out.append({"op": "cancel_timer", "tag": tag})

    def admit(self, job, deadline=None):
        """Admit a job at its arrival, with a guaranteed completion time."""
        d = {"op": "admit", "job": job.index}
        if deadline is not None:
            d["deadline"] = deadline
        self._out.append(d)

    def reject(self, job):
        """Reject a job at its arrival."""
        self._out.append({"op": "reject", "job": job.index})
        self.waiting.pop(job.index, None)
        job.state = "rejected"

    def promise(self, job, at):
        """Guarantee that job starts by at (checked by the invariants)."""
        self._out.append({"op": "promise", "job": job.index, "at": at})

    # -- internals --

    def _release(self, job, state):
        self.running.pop(job.index, None)
        self.free += job.procs
        job.state = state
        self.suspended[job.index] = job


class Profile:
    """An availability profile: free processors as a step function of
    time, from an origin to infinity, as sorted breakpoints (times[i],
    free[i]); the last step lasts forever. The same operations as the Go
    sim.Profile: reserve, release, earliest_start, free_at, advance."""

    __slots__ = ("size", "times", "free")

    def __init__(self, size, origin=0):
        self.size = size
        self.times = [origin]
        self.free = [size]

    def free_at(self, t):
        """Free processors at time t."""
        if t <= self.times[0]:
            return self.free[0]
        return self.free[bisect.bisect_right(self.times, t) - 1]

    def earliest_start(self, start, procs, dur):
        """The earliest time >= start at which procs processors are free for
        dur seconds (NEVER when procs exceeds the machine)."""
        if procs > self.size:
            return NEVER
        times, free = self.times, self.free
        if start < times[0]:
            start = times[0]
        i = bisect.bisect_right(times, start) - 1
        cand = start
        n = len(times)
        while i < n:
            if free[i] < procs:
                cand = None
            else:
                if cand is None:
                    cand = times[i]
                if i + 1 == n or times[i + 1] - cand >= dur:
                    return cand
            i += 1
        return cand

    def _split(self, t):
        """Make a breakpoint at t (>= origin) and return its index."""
        times = self.times
        i = bisect.bisect_right(times, t) - 1
        if times[i] == t:
            return i
        times.insert(i + 1, t)
        self.free.insert(i + 1, self.free[i])
        return i + 1

    def _add(self, start, dur, delta):
        times, free = self.times, self.free
        end = start + dur
        if start < times[0]:
            start = times[0]
        if end <= start:
            return
        i = self._split(start)
        j = self._split(end)
        size = self.size
        for k in range(i, j):
            v = free[k] + delta
            if v < 0 or v > size:
                raise ValueError("profile over- or under-committed at %d" % times[k])
            free[k] = v
        # Merge equal neighbours around the changed range.
        if j < len(times) and free[j] == free[j - 1]:
            del times[j], free[j]
        k = j - 1
        while k > i:
            if free[k] == free[k - 1]:
                del times[k], free[k]
            k -= 1
        if i > 0 and free[i] == free[i - 1]:
            del times[i], free[i]

    def reserve(self, start, dur, procs):
        """Take procs processors during [start, start+dur)."""
        self._add(start, dur, -procs)

    def release(self, start, dur, procs):
        """Give back procs processors during [start, start+dur)."""
        self._add(start, dur, procs)

    def advance(self, now):
        """Move the origin to now, forgetting the past."""
        times = self.times
        if now <= times[0]:
            return
        i = bisect.bisect_right(times, now) - 1
        if i > 0:
            del times[:i], self.free[:i]
        times[0] = now

    def __repr__(self):
        return "Profile(%s)" % ", ".join("%d:%d" % tf for tf in zip(self.times, self.free))


_EMPTY = '{"type":"decisions","decisions":[]}\n'


def run(policy, inp=None, out=None):
    """Speak the protocol on standard input and output with policy until
    the end of the run."""
    inp = inp or sys.stdin
    out = out or sys.stdout
    loads, dumps = json.loads, json.dumps
    hello = loads(inp.readline())
    if hello.get("type") != "init":
        raise SystemExit("schedfarm_policy: expected an init message, got %r" % hello)
    policy.procs = hello["procs"]
    policy.njobs = hello["jobs"]
    policy.params = hello.get("params") or {}
    policy.seed = hello.get("seed", 0)
    policy.now = 0
    policy.free = policy.procs
    policy.waiting, policy.running, policy.suspended = {}, {}, {}
    policy._out = []
    jobs = {}
    out.write(dumps({"type": "ready", "version": PROTOCOL_VERSION, "name": policy.name, "events": list(policy.events)},
                    separators=(",", ":")) + "\n")
    out.flush()
    policy.init()
    arrive, finish, timer, overhead, schedule = policy.arrive, policy.finish, policy.timer, policy.overhead, policy.schedule
    waiting, running, suspended = policy.waiting, policy.running, policy.suspended
    for line in inp:
        msg = loads(line)
        kind = msg["type"]
        if kind == "end":
            return
        if kind != "instant":
            raise SystemExit("schedfarm_policy: unexpected message %r" % msg)
        policy.now = msg["now"]
        policy.free = msg["free"]
        for ev in msg["events"]:
            t = ev["type"]
            if t == "arrive":
                job = Job(ev)
                jobs[job.index] = job
                waiting[job.index] = job
                arrive(job)
            elif t == "finish":
                job = jobs.pop(ev["job"])
                running.pop(job.index, None)
                job.state = "done"
                finish(job)
            elif t == "timer":
                timer(ev["tag"])
            elif t == "overhead":
                job = jobs[ev["job"]]
                st = ev["state"]
                job.state = st
                if st == "running":
                    running[job.index] = job
                else:
                    running.pop(job.index, None)
                    suspended[job.index] = job
                overhead(job)
        schedule()
        if policy._out:
            out.write(dumps({"type": "decisions", "decisions": policy._out}, separators=(",", ":")) + "\n")
            policy._out = []
        else:
            out.write(_EMPTY)
        out.flush()
