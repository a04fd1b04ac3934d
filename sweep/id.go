package sweep

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
)

// idView is what a task's ID covers: the workload (with the trace's
// sha256), the policy and its parameters, the replication and seed, and
// the simulator version, and the time series' step when there is one. Sweep, Label and Schemes are left out: they do
// not change the simulation (category labels and aggregates are computed
// from the per-job records when outputs are written).
type idView struct {
	Workload    Workload          `json:"workload"`
	Policy      string            `json:"policy"`
	Params      map[string]string `json:"params"`
	Replication int               `json:"replication"`
	Seed        uint64            `json:"seed"`
	SimVersion  string            `json:"sim_version"`
	SeriesStep  int64             `json:"series_step,omitempty"`
	PolicyFiles []PolicyFile      `json:"policy_files,omitempty"`
}

// ComputeID returns the hex sha256 of the task's canonical JSON: the
// fields listed in [Task] as part of the identity, with map keys sorted.
// Numeric parameters are written as the shortest text of their float64
// value, so a task gives the same ID before and after a JSON round trip
// (which turns int64 values into float64).
func (t *Task) ComputeID() string {
	v := idView{
		Workload:    t.Workload,
		Policy:      t.Policy,
		Params:      make(map[string]string, len(t.Params)),
		Replication: t.Replication,
		Seed:        t.Seed,
		SimVersion:  t.SimVersion,
		SeriesStep:  t.SeriesStep,
		PolicyFiles: t.PolicyFiles,
	}
	for k, p := range t.Params {
		v.Params[k] = canonicalParam(p)
	}
	b, err := json.Marshal(v)
	if err != nil {
		// Unreachable: strings, integers and a workload of plain fields
		// always marshal, except a NaN or infinite load.
		b = fmt.Appendf(nil, "%#v", v)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// canonicalParam returns a parameter value's canonical text.
func canonicalParam(p any) string {
	if f, ok := paramNumber(p); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	switch x := p.(type) {
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return "string:" + x.String()
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return fmt.Sprintf("%T:%v", p, p)
}

// paramNumber returns a numeric parameter value (float64, int64 or int) as
// a float64; ok is false for any other type.
func paramNumber(v any) (f float64, ok bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	}
	return 0, false
}

// DeriveSeed returns the seed of a task: the first 8 bytes of the sha256
// of the base seed, the workload's canonical JSON and the replication. It
// does not depend on the policy, so every policy of a sweep runs on the
// same workload.
func DeriveSeed(base uint64, w Workload, replication int) uint64 {
	wj, err := json.Marshal(w)
	if err != nil {
		wj = fmt.Appendf(nil, "%#v", w) // only a NaN or infinite load gets here
	}
	h := sha256.New()
	var buf [8]byte
	h.Write([]byte("schedfarm seed v1\x00"))
	binary.BigEndian.PutUint64(buf[:], base)
	h.Write(buf[:])
	h.Write(wj)
	binary.BigEndian.PutUint64(buf[:], uint64(replication))
	h.Write(buf[:])
	return binary.BigEndian.Uint64(h.Sum(nil)[:8])
}
