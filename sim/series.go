package sim

// MinSeriesStep is the smallest [Options.SeriesStep]: one minute. A
// finer step would make a long trace's series larger than its jobs.
const MinSeriesStep Time = 60

// Sample is the machine's state over one step of a time series (see
// [Options.SeriesStep]). The counts are the state at the step's start
// Time, after every event of the instants up to and including Time;
// Utilization is the mean over the whole step.
type Sample struct {
	// Time is the start of the step: a multiple of the step.
	Time Time
	// Waiting counts the jobs that arrived and hold no processors, apart
	// from the suspended ones: never started, killed (waiting to start
	// again) or checkpointed (stopped).
	Waiting int
	// Running counts the jobs holding processors (working, or in a
	// suspend, resume or checkpoint overhead).
	Running int
	// Suspended counts the suspended jobs (holding no processors, to
	// resume on their own).
	Suspended int
	// Busy is the number of processors held by jobs.
	Busy int
	// Utilization is the fraction of the machine's processor-seconds
	// held by jobs from Time to the step's end (for the last step, which
	// may be shorter, the end of the last job, or of the run when jobs
	// remain).
	Utilization float64
}

// sampler records a time series as the engine moves from instant to
// instant: [sampler.advance] is called before each instant is simulated,
// when the machine's state is the one left by the previous instant.
type sampler struct {
	step    Time
	started bool
	over    bool  // the series has ended
	prev    Time  // the instant before the current one
	at      Time  // start of the open step
	pending bool  // the open step's counts are still to be read
	last    Time  // the busy area is summed up to here
	area    int64 // processor-seconds held in [at, last)
	snap    Sample
	out     []Sample
}

// advance moves the series to time to: the machine's state holds from
// the last call until to (exclusive). Once every job is done the series
// ends at the instant the last one was (timers of the policy may keep
// the run going, with nothing to show).
func (s *sampler) advance(m *Machine, to Time) {
	switch {
	case s.over:
		return
	case s.started && m.done == len(m.tasks):
		s.finish(m, s.prev)
		s.over = true
		return
	}
	s.prev = to
	s.moveTo(m, to)
}

// moveTo moves the series to time to (see advance).
func (s *sampler) moveTo(m *Machine, to Time) {
	if !s.started {
		s.started = true
		s.at = to - to%s.step
		s.last, s.pending = s.at, true
	}
	for {
		if s.pending {
			if to <= s.at {
				return // the step's first instant is yet to be simulated
			}
			s.snap = s.counts(m)
			s.pending = false
		}
		busy := int64(m.size - m.nfree)
		end := s.at + s.step
		if to <= end {
			s.area += busy * int64(to-s.last)
			s.last = to
			return
		}
		s.area += busy * int64(end-s.last)
		s.emit(m, end)
		s.at, s.last, s.pending = end, end, true
	}
}

// finish ends the series at end (the run's end, or the last job's) and
// returns it.
func (s *sampler) finish(m *Machine, end Time) []Sample {
	if !s.started || s.over {
		return s.out
	}
	s.over = true
	s.moveTo(m, end)
	if s.pending && end > s.at {
		s.snap, s.pending = s.counts(m), false
	}
	if !s.pending && end > s.at {
		s.emit(m, end)
	}
	return s.out
}

// emit closes the open step at end.
func (s *sampler) emit(m *Machine, end Time) {
	smp := s.snap
	smp.Time = s.at
	smp.Utilization = float64(s.area) / (float64(m.size) * float64(end-s.at))
	s.out = append(s.out, smp)
	s.area = 0
}

// counts reads the machine's state.
func (s *sampler) counts(m *Machine) Sample {
	return Sample{Waiting: m.Queued() - m.suspended, Running: len(m.active), Suspended: m.suspended, Busy: m.size - m.nfree}
}
