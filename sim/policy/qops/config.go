package qops

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedfarm/schedfarm/sim"
)

// ErrInvalidConfig is wrapped by [Config.Validate] errors.
var ErrInvalidConfig = errors.New("invalid qops configuration")

// Defaults of [Config]. KFactor, RetryCount and NodeadlineSlack are this
// package's choices; the paper gives no values.
const (
	DefaultStringency       = 0.2
	DefaultKFactor          = 5
	DefaultRetryCount       = 10
	DefaultTolerance        = 1.0
	DefaultSlack            = 1.0
	DefaultDeadlineFraction = 1.0
	DefaultNodeadlineSlack  = 4.0
)

// Limits of [Config]'s integer settings.
const (
	MaxKFactor    = 1000
	MaxRetryCount = 40
)

// Config configures QoPS.
type Config struct {
	// Stringency (S, 0..1, default 0.2) tightens the requested deadlines:
	// d = submit + max(runtime, floor((1-S) x (EASY end - submit))).
	Stringency float64
	// KFactor (K, 0..1000, default 5): an insertion point fails after
	// more than K deadline violations.
	KFactor int
	// RetryCount (0..40, default 10) is the number of bisection steps of
	// the feedback search for the earliest deadline.
	RetryCount int
	// LeastLaxity orders the temporary list by deadline - estimate
	// instead of by deadline.
	LeastLaxity bool
	// NewJobFirst places the new job first at insertion points after 0
	// (section 2.1's prose), before the rest of the sorted list.
	NewJobFirst bool
	// Tolerance (TF, >= 1, default 1): a user accepts an offered deadline
	// O when O - submit <= TF x (d - submit).
	Tolerance float64
	// ToleranceRandom draws each job's TF from U[0, 2 x Tolerance].
	ToleranceRandom bool
	// Slack (SF, >= 1, default 1) stretches the offer: O = submit +
	// ceil(SF x (E - submit)).
	Slack float64
	// KillRestart (section 8) tries, before any feedback, to meet a
	// failed requested deadline by killing one running job and restarting
	// it from scratch within its own deadline.
	KillRestart bool
	// DeadlineFraction (0..1, default 1) is the probability that an
	// original job requests a deadline; its copies follow it.
	DeadlineFraction float64
	// NodeadlineSlack (>= 1, default 4) sets the artificial deadline of a
	// job without one: submit + ceil(NodeadlineSlack x (E0 - submit)).
	NodeadlineSlack float64
	// Seed seeds the draws of DeadlineFraction and ToleranceRandom.
	Seed uint64
	// Deadlines, when not nil, gives the requested deadlines by job ID
	// (absolute times) instead of deriving them from an EASY run; a job
	// absent from it requests no deadline. For hand-made scenarios.
	Deadlines map[int64]sim.Time

	// pointNOnly tries only insertion point N (the new job at its
	// earliest fit, nothing moved): a test configuration.
	pointNOnly bool
	// plain runs Original_QoPS the plain way, the reference the tests
	// compare with: every earliest-fit search of an insertion point scans
	// from now ([sim.Profile.EarliestStart]), without the memos of earlier
	// searches; each point's profile is the base's without the later
	// reservations, and its temporary list is sorted whole, also after a
	// violation.
	plain bool
	// checkBase makes every run of Original_QoPS check that the base
	// plan's profile is the running jobs' profile plus its reservations
	// (mismatches are counted in inserter.badBases).
	checkBase bool
}

// DefaultConfig returns the defaults.
func DefaultConfig() Config {
	return Config{
		Stringency:       DefaultStringency,
		KFactor:          DefaultKFactor,
		RetryCount:       DefaultRetryCount,
		Tolerance:        DefaultTolerance,
		Slack:            DefaultSlack,
		DeadlineFraction: DefaultDeadlineFraction,
		NodeadlineSlack:  DefaultNodeadlineSlack,
	}
}

// Validate checks the configuration; errors wrap [ErrInvalidConfig].
func (c Config) Validate() error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("%w: %s = %v, want %s", ErrInvalidConfig, name, v, want)
	}
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	switch {
	case !(c.Stringency >= 0 && c.Stringency <= 1):
		return bad("stringency", c.Stringency, "0..1")
	case c.KFactor < 0 || c.KFactor > MaxKFactor:
		return bad("k_factor", c.KFactor, fmt.Sprintf("0..%d", MaxKFactor))
	case c.RetryCount < 0 || c.RetryCount > MaxRetryCount:
		return bad("retry_count", c.RetryCount, fmt.Sprintf("0..%d", MaxRetryCount))
	case !(c.Tolerance >= 1) || !finite(c.Tolerance):
		return bad("tolerance", c.Tolerance, ">= 1")
	case !(c.Slack >= 1) || !finite(c.Slack):
		return bad("slack", c.Slack, ">= 1")
	case !(c.DeadlineFraction >= 0 && c.DeadlineFraction <= 1):
		return bad("deadline_fraction", c.DeadlineFraction, "0..1")
	case !(c.NodeadlineSlack >= 1) || !finite(c.NodeadlineSlack):
		return bad("nodeadline_slack", c.NodeadlineSlack, ">= 1")
	}
	return nil
}
