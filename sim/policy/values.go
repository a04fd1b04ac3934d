package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/sim"
)

// FormatValue returns the canonical text of a parameter value: an Int as
// a decimal integer, a Float as the shortest decimal that reads back to
// the same float64 (strconv's 'g' format: 1e+06 for a million), a Bool as
// true or false, a String as it is. It is the text of the params column
// and of the tables; [Entry.ParseStrings] reads it back to the same
// value.
func FormatValue(v any) string {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// Canonical returns v as name=value pairs sorted by name and joined by
// commas, each value in its canonical text ([FormatValue]); "" for no
// values.
func (v Values) Canonical() string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(FormatValue(v[k]))
	}
	return b.String()
}

// Clone returns a copy of v.
func (v Values) Clone() Values {
	if v == nil {
		return nil
	}
	out := make(Values, len(v))
	for k, x := range v {
		out[k] = x
	}
	return out
}

// MarshalJSON encodes v as a JSON object whose values say their kind: an
// Int as an integer literal (exact, whatever its size), a Float as a
// number with a fraction or an exponent (2.0, not 2), a Bool and a String
// as themselves. [Values.UnmarshalJSON] gives back the same typed values
// without consulting the registry.
func (v Values) MarshalJSON() ([]byte, error) {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		kj, _ := json.Marshal(k) // a string always marshals
		b = append(b, kj...)
		b = append(b, ':')
		switch x := v[k].(type) {
		case int64:
			b = strconv.AppendInt(b, x, 10)
		case int:
			b = strconv.AppendInt(b, int64(x), 10)
		case float64:
			s := strconv.FormatFloat(x, 'g', -1, 64)
			if _, err := strconv.ParseFloat(s, 64); err != nil || strings.ContainsAny(s, "IN") {
				return nil, fmt.Errorf("parameter %s: %v is not a finite number", k, x)
			}
			if !strings.ContainsAny(s, ".e") {
				s += ".0"
			}
			b = append(b, s...)
		case bool:
			b = strconv.AppendBool(b, x)
		case string:
			sj, _ := json.Marshal(x)
			b = append(b, sj...)
		default:
			return nil, fmt.Errorf("parameter %s: value %v of type %T", k, x, x)
		}
	}
	return append(b, '}'), nil
}

// UnmarshalJSON decodes what [Values.MarshalJSON] writes: an integer
// literal is an int64, a number with a fraction or an exponent a float64.
func (v *Values) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		*v = nil
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	out := make(Values, len(raw))
	for k, r := range raw {
		r = bytes.TrimSpace(r)
		var err error
		switch {
		case len(r) == 0:
			err = fmt.Errorf("no value")
		case r[0] == '"':
			var s string
			err = json.Unmarshal(r, &s)
			out[k] = s
		case string(r) == "true" || string(r) == "false":
			out[k] = string(r) == "true"
		case bytes.ContainsAny(r, ".eE"):
			var f float64
			f, err = strconv.ParseFloat(string(r), 64)
			out[k] = f
		default:
			var n int64
			n, err = strconv.ParseInt(string(r), 10, 64)
			out[k] = n
		}
		if err != nil {
			return fmt.Errorf("parameter %s: %s: %w", k, r, err)
		}
	}
	*v = out
	return nil
}

// Build builds the policy called name from values that [Entry.Check]
// returned (for a task, in the sweep that made it): the values are not
// validated again, only matched against the entry's parameters by name
// and kind, so that values of another origin give an error rather than a
// panic in the constructor.
func Build(name string, v Values, env Env) (sim.Policy, error) {
	e, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if err := e.matchKinds(v); err != nil {
		return nil, fmt.Errorf("policy %s: %w", name, err)
	}
	if err := e.CheckEnv(env); err != nil {
		return nil, err
	}
	return e.Build(v, env)
}

// matchKinds reports values of unknown parameters (an open entry's own
// parameters apart), of another kind than their parameter's, and missing
// parameters (elided ones apart, see [Param.Elide]).
func (e *Entry) matchKinds(v Values) error {
	for k, x := range v {
		p := e.param(k)
		if p == nil && e.Open {
			if _, ok := kindOf(x); !ok {
				return fmt.Errorf("%s: %w: %v (%T) is not a number, a bool or a string", k, ErrBadParam, x, x)
			}
			continue
		}
		if p == nil {
			return fmt.Errorf("%s: %w of policy %q (valid: %s)", k, ErrUnknownParam, e.Name, e.paramNames())
		}
		if kind, ok := kindOf(x); !ok || kind != p.Kind {
			return fmt.Errorf("%s: %w: %v (%T) is not of kind %s", k, ErrBadParam, x, x, p.Kind)
		}
	}
	for _, p := range e.Params {
		if _, ok := v[p.Name]; !ok && !p.Elide {
			return fmt.Errorf("%s: %w: missing", p.Name, ErrBadParam)
		}
	}
	return nil
}

// kindOf returns the kind of a typed value; false for a value of no
// kind.
func kindOf(x any) (Kind, bool) {
	switch x.(type) {
	case float64:
		return Float, true
	case int64:
		return Int, true
	case bool:
		return Bool, true
	case string:
		return String, true
	}
	return 0, false
}
