package preempt

// deferred reports whether, under [SSConfig.DeferStart], a Waiting job
// that suspends the first k of its n candidates (largest first) to make
// room is left waiting instead of starting. Section 4.3's suspend_jobs_1
// loop reaches "schedule the idle job" only at a candidate it need not
// suspend: when every candidate is needed (k == n), the last suspension
// ends the loop and the job is not scheduled in that run of the routine.
// It starts at the next pass (the next event or multiple of the interval)
// if its processors are still free; in the meantime the rest of the pass
// sees them free, as after any suspension.
func (p *SS) deferred(k, n int) bool {
	return p.cfg.DeferStart && k == n
}
