// Package policy is the registry of scheduling policies: it maps a policy
// name to its typed, validated parameters and to a constructor. The
// families live in sub-packages (backfill, ...); adding a policy means
// writing it in its family and adding one [Entry] to the table in
// entries.go. The engine knows no policy by name.
package policy

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/sim/policy/external"
)

// Errors wrapped by the registry's validation.
var (
	// ErrUnknownPolicy: no policy has that name.
	ErrUnknownPolicy = errors.New("unknown policy")
	// ErrUnknownParam: the policy has no parameter of that name.
	ErrUnknownParam = errors.New("unknown parameter")
	// ErrBadParam: the value has the wrong type or is out of range.
	ErrBadParam = errors.New("bad parameter value")
	// ErrNoPredictions: the policy cannot plan with runtime predictions.
	ErrNoPredictions = errors.New("makes no runtime predictions")
)

// Kind is the type of a parameter.
type Kind uint8

// Parameter kinds.
const (
	Float  Kind = iota // float64
	Int                // int64
	Bool               // bool
	String             // string, one of the parameter's Choices (any text when it has none)
)

// String returns the kind's name.
func (k Kind) String() string { return [...]string{"float", "int", "bool", "string"}[k] }

// Param describes one parameter of a policy.
type Param struct {
	Name    string
	Kind    Kind
	Default any // float64, int64, bool or string
	// Min and Max bound numeric values (inclusive); NaN means unbounded.
	Min, Max float64
	// Choices are the values a String parameter accepts; nil accepts any text.
	Choices []string
	Doc     string
	// Elide leaves the parameter out of the validated [Values] when it
	// has its default value (set or not), so that a parameter added to a
	// policy after outputs were recorded keeps the tasks that do not use
	// it (their identity, their params text and columns) as they were.
	// Build reads it with [Values.StringOr] and the like.
	Elide bool
}

// Values are a policy's parameter values after validation, defaults
// filled in: float64, int64, bool or string by [Param.Kind].
type Values map[string]any

// Float returns a Float parameter.
func (v Values) Float(name string) float64 { return v[name].(float64) }

// Int returns an Int parameter.
func (v Values) Int(name string) int64 { return v[name].(int64) }

// Bool returns a Bool parameter.
func (v Values) Bool(name string) bool { return v[name].(bool) }

// String returns a String parameter.
func (v Values) String(name string) string { return v[name].(string) }

// Env is what a constructor may know about the run it builds a policy for.
type Env struct {
	// Procs is the machine size.
	Procs int
	// Jobs is the workload (read-only); policies that need a baseline run
	// of the same workload (TSS) use it.
	Jobs []sim.Job
	// Seed seeds any randomness of the policy.
	Seed uint64
	// Predict asks the policy to plan with runtime predictions it makes
	// during the run instead of the jobs' estimates (the workload's
	// estimate model is predicted); only a policy whose entry has
	// Predicts accepts it.
	Predict bool
	// External is what the host lets an external policy do; nil refuses
	// external policies (see [external.Access]).
	External *external.Access
	// Deadlines, when not nil, gives requested deadlines by job ID for
	// policies with deadlines (hand-made scenarios); nil lets them derive
	// their own.
	Deadlines map[int64]sim.Time
	// Command is an external policy's program and arguments as the sweep
	// split them when the spec was read (sweep.Task.Command); the policy
	// runs it as it is. When nil, the policy splits its command parameter
	// ([ExternalCommand]), for a caller that has only its text.
	Command []string
}

// Entry is one registered policy.
type Entry struct {
	Name   string
	Family string
	Doc    string
	Params []Param
	// Validate, if set, checks constraints between parameters after each
	// one was checked alone (a spec's settings are checked at validation,
	// before any run). Each problem is a [*ParamError] naming the
	// parameter it is reported on; join several with errors.Join.
	Validate func(v Values) error
	// Predicts is true for a policy that can plan with runtime
	// predictions ([Env.Predict]).
	Predicts bool
	// Open passes parameters not in Params through (numbers, bools and
	// strings): the external policy's program's own parameters.
	Open bool
	// Moldable is true for a policy that picks job sizes: it needs a
	// workload whose jobs are moldable ([sim.Job.Mold]).
	Moldable bool
	// Elastic is true for a policy that needs elastic jobs
	// ([sim.Job.Elastic]: work and sequential fraction, as the synthetic
	// parsons1997 workload makes); a spec pairing it with rigid jobs is
	// refused when it is checked, not when its tasks run.
	Elastic bool
	// Build makes the policy from validated values.
	Build func(v Values, env Env) (sim.Policy, error)
}

// ParamError is a problem of one parameter's value found by an
// [Entry.Validate] hook, for example a bound below another parameter. It
// wraps [ErrBadParam].
type ParamError struct {
	// Param is the parameter the problem is reported on.
	Param string
	// Msg says what is wrong, for example
	// "must be >= class_bound_1 (100), got 50".
	Msg string
}

// Error returns "param: msg".
func (e *ParamError) Error() string { return e.Param + ": " + e.Msg }

// Unwrap returns [ErrBadParam].
func (e *ParamError) Unwrap() error { return ErrBadParam }

// Lookup returns the entry called name, or an error wrapping
// [ErrUnknownPolicy] that quotes it and lists the valid names.
func Lookup(name string) (*Entry, error) {
	for i := range entries {
		if entries[i].Name == name {
			return &entries[i], nil
		}
	}
	if name == ExternalName {
		return &externalEntry, nil
	}
	return nil, fmt.Errorf("%w %q (valid: %s)", ErrUnknownPolicy, name, strings.Join(Names(), ", "))
}

// Names returns the registered policy names in table order, then
// external.
func Names() []string {
	out := make([]string, len(entries), len(entries)+1)
	for i, e := range entries {
		out[i] = e.Name
	}
	return append(out, ExternalName)
}

// External returns the entry of the external policy.
func External() *Entry { return &externalEntry }

// Entries returns every registered policy the engine runs itself: all
// but external (see [External]).
func Entries() []*Entry {
	out := make([]*Entry, len(entries))
	for i := range entries {
		out[i] = &entries[i]
	}
	return out
}

func (e *Entry) param(name string) *Param {
	for i := range e.Params {
		if e.Params[i].Name == name {
			return &e.Params[i]
		}
	}
	return nil
}

func (e *Entry) paramNames() string {
	if len(e.Params) == 0 {
		return "none"
	}
	var n []string
	for _, p := range e.Params {
		n = append(n, p.Name)
	}
	return strings.Join(n, ", ")
}

// Check validates raw parameter values (as decoded from YAML or JSON:
// numbers as int, int64, float64, bools as bool, or strings holding
// either), fills in defaults and returns the typed values. Every problem
// is reported, one error per parameter joined with errors.Join, each
// starting with the parameter's name.
func (e *Entry) Check(raw map[string]any) (Values, error) {
	v := make(Values, len(e.Params))
	var errs []error
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := e.param(k)
		if p == nil && e.Open {
			val, err := openValue(raw[k])
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", k, err))
				continue
			}
			v[k] = val
			continue
		}
		if p == nil {
			errs = append(errs, fmt.Errorf("%s: %w of policy %q (valid: %s)", k, ErrUnknownParam, e.Name, e.paramNames()))
			continue
		}
		val, err := p.convert(raw[k])
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", k, err))
			continue
		}
		v[k] = val
	}
	for _, p := range e.Params {
		if _, ok := v[p.Name]; !ok {
			v[p.Name] = p.Default
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if e.Validate != nil {
		if err := e.Validate(v); err != nil {
			return nil, err
		}
	}
	for _, p := range e.Params {
		if p.Elide && v[p.Name] == p.Default {
			delete(v, p.Name)
		}
	}
	return v, nil
}

// ParseStrings validates parameters given as text (name=value from a
// command line); see [Entry.Check].
func (e *Entry) ParseStrings(raw map[string]string) (Values, error) {
	m := make(map[string]any, len(raw))
	for k, s := range raw {
		m[k] = s
	}
	return e.Check(m)
}

// convert turns a raw value into the parameter's kind and checks its range.
func (p *Param) convert(raw any) (any, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrBadParam, fmt.Sprintf(format, a...))
	}
	switch p.Kind {
	case String:
		x, ok := raw.(string)
		if !ok || (p.Choices != nil && !slices.Contains(p.Choices, x)) {
			return nil, bad("%v is not one of %s", raw, strings.Join(p.Choices, ", "))
		}
		return x, nil
	case Bool:
		switch x := raw.(type) {
		case bool:
			return x, nil
		case string:
			b, err := strconv.ParseBool(x)
			if err != nil {
				return nil, bad("%q is not true or false", x)
			}
			return b, nil
		}
		return nil, bad("%v is not true or false", raw)
	case Int:
		n, err := toInt(raw)
		if err != nil {
			return nil, bad("%v", err)
		}
		lo, hi := p.IntRange()
		if n < lo {
			return nil, bad("must be >= %d, got %d", lo, n)
		}
		if n > hi {
			return nil, bad("must be <= %d, got %d", hi, n)
		}
		return n, nil
	case Float:
		var f float64
		switch x := raw.(type) {
		case int:
			f = float64(x)
		case int64:
			f = float64(x)
		case uint64:
			f = float64(x)
		case float64:
			f = x
		case string:
			var err error
			if f, err = strconv.ParseFloat(strings.TrimSpace(x), 64); err != nil {
				return nil, bad("%q is not a number", x)
			}
		default:
			return nil, bad("%v is not a number", raw)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, bad("%v is not a finite number", raw)
		}
		if !math.IsNaN(p.Min) && f < p.Min {
			return nil, bad("must be >= %g, got %g", p.Min, f)
		}
		if !math.IsNaN(p.Max) && f > p.Max {
			return nil, bad("must be <= %g, got %g", p.Max, f)
		}
		return f, nil
	}
	return nil, bad("unknown kind")
}

// New looks up a policy, validates its raw parameters and builds it.
func New(name string, raw map[string]any, env Env) (sim.Policy, error) {
	e, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	v, err := e.Check(raw)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", name, err)
	}
	if err := e.CheckEnv(env); err != nil {
		return nil, err
	}
	return e.Build(v, env)
}

// CheckEnv reports whether the policy can run in env: predicted
// estimates ([Env.Predict]) need a policy that makes predictions.
func (e *Entry) CheckEnv(env Env) error {
	if env.Predict && !e.Predicts {
		return fmt.Errorf("policy %s %w (estimates: predicted needs one that does)", e.Name, ErrNoPredictions)
	}
	return nil
}

// StringOr returns a String parameter, or def when it is not in v (an
// elided parameter at its default, see [Param.Elide]).
func (v Values) StringOr(name, def string) string {
	if s, ok := v[name].(string); ok {
		return s
	}
	return def
}

var none = math.NaN()

// MaxInt is the largest value of an Int parameter whose [Param.Max] is
// unbounded (NaN): 2^31-1, 68 years in seconds. Every Int parameter thus
// has a maximum, and time arithmetic on it cannot overflow.
const MaxInt = math.MaxInt32

// IntRange returns the inclusive range of an Int parameter: Min and Max
// rounded inwards, an unbounded Min as -MaxInt and an unbounded Max as
// [MaxInt].
func (p *Param) IntRange() (lo, hi int64) {
	lo, hi = -MaxInt, MaxInt
	if !math.IsNaN(p.Min) && p.Min > float64(lo) {
		lo = int64(math.Ceil(p.Min))
	}
	if !math.IsNaN(p.Max) && p.Max < float64(hi) {
		hi = int64(math.Floor(p.Max))
	}
	return lo, hi
}

// toInt converts a raw Int value: integers as they are, whole floats up to
// 2^53 (exact), strings as decimal integers (or whole numbers such as
// "1e3"). It never goes through a float for an integer.
func toInt(raw any) (int64, error) {
	const exact = 1 << 53
	fromFloat := func(f float64, text any) (int64, error) {
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			return 0, fmt.Errorf("%v is not a finite number", text)
		case f != math.Trunc(f):
			return 0, fmt.Errorf("%v is not a whole number", text)
		case math.Abs(f) > exact:
			return 0, fmt.Errorf("%v is out of range", text)
		}
		return int64(f), nil
	}
	switch x := raw.(type) {
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case uint64:
		if x > math.MaxInt64 {
			return 0, fmt.Errorf("%d is out of range", x)
		}
		return int64(x), nil
	case float64:
		return fromFloat(x, x)
	case string:
		t := strings.TrimSpace(x)
		n, err := strconv.ParseInt(t, 10, 64)
		if err == nil {
			return n, nil
		}
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s is out of range", t)
		}
		f, ferr := strconv.ParseFloat(t, 64)
		if ferr != nil {
			return 0, fmt.Errorf("%q is not a number", x)
		}
		return fromFloat(f, t)
	}
	return 0, fmt.Errorf("%v is not a number", raw)
}

// Register adds a policy to the registry, as one more entry of the
// built-in table: a program that uses schedfarm as a library registers its
// own policies this way (from an init function or main, before anything
// looks policies up; Register is not safe for concurrent use). The
// entry's Name must be new, and Build set; its parameters are checked as
// the built-in ones are.
func Register(e Entry) error {
	switch {
	case e.Name == "" || strings.ContainsAny(e.Name, " \t\n,="):
		return fmt.Errorf("register policy %q: the name must be a non-empty word", e.Name)
	case e.Build == nil:
		return fmt.Errorf("register policy %s: no Build function", e.Name)
	case e.Name == ExternalName || slices.ContainsFunc(entries, func(x Entry) bool { return x.Name == e.Name }):
		return fmt.Errorf("register policy %s: a policy of that name exists", e.Name)
	}
	for _, p := range e.Params {
		if _, err := p.convert(p.Default); err != nil {
			return fmt.Errorf("register policy %s: parameter %s: default: %w", e.Name, p.Name, err)
		}
	}
	entries = append(entries, e)
	return nil
}
