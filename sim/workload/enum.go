package workload

import "fmt"

// enum names the values of an option type (value i is names[i]) for the
// type's String, parsing and validity check.
type enum[T ~uint8] struct {
	what  string // the option in messages, e.g. "estimate model"
	typ   string // the type's name, for a value without a name
	names []string
}

// name returns v's name, or typ(v) for a value without one.
func (e enum[T]) name(v T) string {
	if int(v) < len(e.names) {
		return e.names[v]
	}
	return fmt.Sprintf("%s(%d)", e.typ, v)
}

// parse returns the value named s. Unknown names are an error wrapping
// [ErrInvalidOption] that quotes s and lists valid, the names accepted.
func (e enum[T]) parse(s, valid string) (T, error) {
	for i, name := range e.names {
		if s == name {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown %s %q (valid: %s)", ErrInvalidOption, e.what, s, valid)
}

// validate checks that v has a name.
func (e enum[T]) validate(v T) error {
	if int(v) >= len(e.names) {
		return fmt.Errorf("%w: unknown %s %d", ErrInvalidOption, e.what, v)
	}
	return nil
}

// marshal returns v's name, or the error of validate.
func (e enum[T]) marshal(v T) ([]byte, error) {
	if err := e.validate(v); err != nil {
		return nil, err
	}
	return []byte(e.names[v]), nil
}
