package multiqueue

// PlainPass makes p's pass look at every waiting job, as before the wait
// index: tests compare the two.
func PlainPass(p *Policy) { p.plain = true }
