package worker

import "time"

// WithTraceStallForTest sets the stall bound without WithTraceStall's
// floor of 100ms: a bound already over when a chunk is asked for makes
// every fetch stall, whatever the store holds.
func WithTraceStallForTest(d time.Duration) Option {
	return func(c *config) error {
		c.traceStall = d
		return nil
	}
}
