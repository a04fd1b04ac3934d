package sim

// EarliestRun is [Profile.EarliestStart] that also reports what its scan
// passed: at is EarliestStart(from, procs, dur), and longest is the
// length of the longest run of steps with procs free that starts at or
// after from (a run containing from counts from from) and ends before at
// (0 when there is none). Every such run is shorter than dur, so no run of
// procs free processors longer than longest starts in [from, at): a
// caller that only reserves afterwards may start a later search for at
// least procs processors and a duration above longest at at.
func (p *Profile) EarliestRun(from Time, procs int, dur Time) (at, longest Time) {
	if procs > p.size {
		return Never, 0
	}
	from = max(from, p.times[0])
	i := p.index(from)
	cand := from
	for ; i < len(p.times); i++ {
		if p.free[i] < procs {
			if cand != Never {
				longest = max(longest, p.times[i]-cand)
			}
			cand = Never
			continue
		}
		if cand == Never {
			cand = p.times[i]
		}
		if i+1 == len(p.times) || p.times[i+1]-cand >= dur {
			return cand, longest
		}
	}
	return cand, longest
}
