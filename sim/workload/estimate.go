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
)

var estimateModels = enum[EstimateModel]{what: "estimate model", typ: "EstimateModel", names: []string{"trace", "accurate"}}

// String returns the model's name as [ParseEstimateModel] accepts it.
func (m EstimateModel) String() string { return estimateModels.name(m) }

// ParseEstimateModel returns the model named s ("trace" or "accurate").
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
	if m == EstimateTrace && r.ReqTime > r.Runtime {
		return r.ReqTime
	}
	return r.Runtime
}
