package sim

// queueFor adds to r.QueueTime that n jobs were queued from since to now
// (nothing when since < 0, before the first instant).
func (r *Result) queueFor(n int, since, now Time) {
	if since < 0 || now <= since {
		return
	}
	for len(r.QueueTime) <= n {
		r.QueueTime = append(r.QueueTime, 0)
	}
	r.QueueTime[n] += now - since
}

// QueueQuantile returns the smallest queue length k such that the queue
// held at most k jobs during at least the fraction p of the run (from
// its first instant to End), from [Result.QueueTime]; 0 for an empty run.
// QueueQuantile(0.9) is the length exceeded during at most a tenth of
// the time.
func (r *Result) QueueQuantile(p float64) int {
	var total Time
	for _, d := range r.QueueTime {
		total += d
	}
	if total == 0 {
		return 0
	}
	var acc Time
	for k, d := range r.QueueTime {
		acc += d
		if float64(acc) >= p*float64(total)-1e-9 {
			return k
		}
	}
	return len(r.QueueTime) - 1
}

// QueueMean returns the time-average queue length over the run, from
// [Result.QueueTime]; 0 for an empty run.
func (r *Result) QueueMean() float64 {
	var total Time
	var sum float64
	for k, d := range r.QueueTime {
		total += d
		sum += float64(k) * float64(d)
	}
	if total == 0 {
		return 0
	}
	return sum / float64(total)
}
