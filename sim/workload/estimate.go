package workload

import (
	"strings"

	"github.com/schedfarm/schedfarm/sim"
)

// EstimateModel says where a job's run-time estimate comes from. The zero
// value is [EstimateTrace].
type EstimateModel uint8

// Estimate models.
const (
	// EstimateTrace uses the user's requested time (field 9), raised to the
	// runtime when the job ran longer; the runtime when field 9 is unknown.
	EstimateTrace EstimateModel = iota
	// EstimateAccurate uses the runtime: perfect estimates.
	EstimateAccurate
	// EstimateDouble uses twice the trace estimate (as pyss's double
	// estimates, after Mu'alem & Feitelson 2001).
	EstimateDouble
	// EstimatePredicted gives the jobs the trace estimate, which stays
	// the user's estimate and kill limit, and asks the policy to plan
	// with runtime predictions made during the run (EASY++, Tsafrir,
	// Etsion & Feitelson 2007; see package backfill). A policy that
	// makes no predictions refuses such a workload.
	EstimatePredicted
)

var estimateModels = enum[EstimateModel]{what: "estimate model", typ: "EstimateModel", names: []string{"trace", "accurate", "double", "predicted"}}

// String returns the model's name as [ParseEstimateModel] accepts it.
func (m EstimateModel) String() string { return estimateModels.name(m) }

// ParseEstimateModel returns the model named s ("trace", "accurate",
// "double" or "predicted").
// Unknown names are an error wrapping [ErrInvalidOption] that quotes s and
// lists the valid names.
func ParseEstimateModel(s string) (EstimateModel, error) {
	return estimateModels.parse(s, strings.Join(estimateModels.names, ", "))
}

// MarshalText implements [encoding.TextMarshaler].
func (m EstimateModel) MarshalText() ([]byte, error) { return estimateModels.marshal(m) }

// UnmarshalText implements [encoding.TextUnmarshaler] with
// [ParseEstimateModel].
func (m *EstimateModel) UnmarshalText(b []byte) error {
	v, err := ParseEstimateModel(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

func (m EstimateModel) validate() error { return estimateModels.validate(m) }

// estimate returns r's estimate under model m.
func (m EstimateModel) estimate(r *Record) sim.Time {
	user := max(r.ReqTime, r.Runtime)
	switch m {
	case EstimateAccurate:
		return r.Runtime
	case EstimateDouble:
		return 2 * user
	}
	return user
}
