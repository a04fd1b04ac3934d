package results

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Column describes one column of an output file: what the Parquet
// schema, the readers, the CSV writer and docs/columns.md say of it.
type Column struct {
	// Name is the column's name in every format.
	Name string
	// Type is the Arrow (and Parquet) type.
	Type arrow.DataType
	// Nullable is true when the column may hold nulls (an empty cell in
	// CSV).
	Nullable bool
	// Unit is the unit of the values ("s", "processors", ...; "" for
	// none).
	Unit string
	// Doc says what the value means.
	Doc string
}

// cellValue are the Go types of column values.
type cellValue interface {
	int64 | float64 | bool | string | uint64
}

// colAccess is one column of a table whose rows are built from values of
// type S and read back into values of type D: [def] and [opt] make them.
type colAccess[S, D any] interface {
	// info returns the column's description.
	info() *Column
	// wireNullable reports whether the wire format of task results
	// allows nulls in the column (only job columns are in it).
	wireNullable() bool
	// mayLack reports whether files written before the column was added
	// lack it: readers then leave its value zero.
	mayLack() bool
	// appendN appends s's value n times to b, a builder of the column's
	// type; with wire false, the value of an output file (see nullIf).
	appendN(b array.Builder, s *S, n int, wire bool)
	// strValue returns s's value of a string column, and false for a
	// null.
	strValue(s *S) (string, bool)
	// text returns s's value as a CSV cell ("" for a null).
	text(s *S) string
	// read stores row i of a, an array of the column's type, into d.
	read(a arrow.Array, i int, d *D)
	// readAll stores the rows of a into ds[0], ds[1], ...
	readAll(a arrow.Array, ds []D)
}

// col is a [colAccess]: a column of values of type T taken from an S by
// get and stored into a D by set.
type col[S, D any, T cellValue] struct {
	Column
	// get returns s's value and whether it is present (false: null).
	get func(s *S) (T, bool)
	// set stores a present value; nil for a column derived from others
	// (read back from them, not from its own value).
	set func(d *D, v T)
	// null, when not nil, stores what a null reads as (else nothing is
	// stored: the zero value).
	null func(d *D)
	// nullIf, when not nil, makes the value null in the output files
	// (not in the wire format) where it returns true: the columns a
	// rejected job has no value for.
	nullIf func(s *S) bool
	// wireNull is the wire format's nullability.
	wireNull bool
	// added is true for a column older files lack (see addedLater).
	added bool
	// put appends a value to a builder of the column's type; at reads
	// row i of an array of that type; format writes a value as text.
	put    func(b array.Builder, v T)
	at     func(a arrow.Array, i int) T
	format func(v T) string
}

// def returns a column whose value is always present.
func def[S, D any, T cellValue](name, unit, doc string, get func(s *S) T, set func(d *D, v T)) *col[S, D, T] {
	return newCol(name, unit, doc, false, func(s *S) (T, bool) { return get(s), true }, set)
}

// opt returns a nullable column: get says whether the value is present.
func opt[S, D any, T cellValue](name, unit, doc string, get func(s *S) (T, bool), set func(d *D, v T)) *col[S, D, T] {
	return newCol(name, unit, doc, true, get, set)
}

func newCol[S, D any, T cellValue](name, unit, doc string, nullable bool, get func(s *S) (T, bool), set func(d *D, v T)) *col[S, D, T] {
	c := &col[S, D, T]{Column: Column{Name: name, Nullable: nullable, Unit: unit, Doc: doc}, get: get, set: set, wireNull: nullable}
	var zero T
	switch any(zero).(type) {
	case int64:
		c.Type = arrow.PrimitiveTypes.Int64
		c.put = any(func(b array.Builder, v int64) { b.(*array.Int64Builder).Append(v) }).(func(array.Builder, T))
		c.at = any(func(a arrow.Array, i int) int64 { return a.(*array.Int64).Value(i) }).(func(arrow.Array, int) T)
		c.format = any(func(v int64) string { return strconv.FormatInt(v, 10) }).(func(T) string)
	case float64:
		c.Type = arrow.PrimitiveTypes.Float64
		c.put = any(func(b array.Builder, v float64) { b.(*array.Float64Builder).Append(v) }).(func(array.Builder, T))
		c.at = any(func(a arrow.Array, i int) float64 { return a.(*array.Float64).Value(i) }).(func(arrow.Array, int) T)
		c.format = any(func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }).(func(T) string)
	case bool:
		c.Type = arrow.FixedWidthTypes.Boolean
		c.put = any(func(b array.Builder, v bool) { b.(*array.BooleanBuilder).Append(v) }).(func(array.Builder, T))
		c.at = any(func(a arrow.Array, i int) bool { return a.(*array.Boolean).Value(i) }).(func(arrow.Array, int) T)
		c.format = any(strconv.FormatBool).(func(T) string)
	case string:
		c.Type = arrow.BinaryTypes.String
		c.put = any(func(b array.Builder, v string) { b.(*array.StringBuilder).Append(v) }).(func(array.Builder, T))
		c.at = any(func(a arrow.Array, i int) string { return a.(*array.String).Value(i) }).(func(arrow.Array, int) T)
		c.format = any(func(v string) string { return v }).(func(T) string)
	case uint64:
		c.Type = arrow.PrimitiveTypes.Uint64
		c.put = any(func(b array.Builder, v uint64) { b.(*array.Uint64Builder).Append(v) }).(func(array.Builder, T))
		c.at = any(func(a arrow.Array, i int) uint64 { return a.(*array.Uint64).Value(i) }).(func(arrow.Array, int) T)
		c.format = any(func(v uint64) string { return strconv.FormatUint(v, 10) }).(func(T) string)
	}
	return c
}

// nullIfIn makes the column null in the output files where f returns
// true, and sets what such a null reads as (nil: the zero value).
func (c *col[S, D, T]) nullIfIn(f func(s *S) bool, null func(d *D)) *col[S, D, T] {
	c.nullIf, c.null, c.Nullable = f, null, true
	return c
}

// addedLater marks a column that files written before it lack: the
// readers leave its value zero there rather than refusing the file.
func (c *col[S, D, T]) addedLater() *col[S, D, T] {
	c.added = true
	return c
}

func (c *col[S, D, T]) mayLack() bool      { return c.added }
func (c *col[S, D, T]) info() *Column      { return &c.Column }
func (c *col[S, D, T]) wireNullable() bool { return c.wireNull }

func (c *col[S, D, T]) value(s *S, wire bool) (T, bool) {
	if !wire && c.nullIf != nil && c.nullIf(s) {
		var zero T
		return zero, false
	}
	return c.get(s)
}

func (c *col[S, D, T]) appendN(b array.Builder, s *S, n int, wire bool) {
	v, ok := c.value(s, wire)
	if !ok {
		b.AppendNulls(n)
		return
	}
	for range n {
		c.put(b, v)
	}
}

func (c *col[S, D, T]) strValue(s *S) (string, bool) {
	v, ok := c.value(s, false)
	if !ok {
		return "", false
	}
	return c.format(v), true
}

func (c *col[S, D, T]) text(s *S) string {
	v, ok := c.value(s, false)
	if !ok {
		return ""
	}
	return c.format(v)
}

func (c *col[S, D, T]) read(a arrow.Array, i int, d *D) {
	if a.IsNull(i) {
		if c.null != nil {
			c.null(d)
		}
		return
	}
	if c.set != nil {
		c.set(d, c.at(a, i))
	}
}

func (c *col[S, D, T]) readAll(a arrow.Array, ds []D) {
	for i := range ds {
		c.read(a, i, &ds[i])
	}
}

// columnsOf returns the descriptions of a table's columns.
func columnsOf[S, D any](cs []colAccess[S, D]) []Column {
	out := make([]Column, len(cs))
	for i, c := range cs {
		out[i] = *c.info()
	}
	return out
}

// fieldsOf returns the Arrow fields of a table's columns, as in the
// output files, or, with wire, as in the wire format of task results.
func fieldsOf[S, D any](cs []colAccess[S, D], wire bool) []arrow.Field {
	out := make([]arrow.Field, len(cs))
	for i, c := range cs {
		in := c.info()
		out[i] = arrow.Field{Name: in.Name, Type: in.Type, Nullable: in.Nullable}
		if wire {
			out[i].Nullable = c.wireNullable()
		}
	}
	return out
}

// readNamed reads row i of the columns of a table from the batch's arrays
// by name into d. A missing column that is never null, or a column of
// another type than the table's, is an error (kept in c.err).
func readNamed[S, D any](c *cols, cs []colAccess[S, D], i int, d *D) {
	for _, ca := range cs {
		in := ca.info()
		a, ok := c.byName[in.Name]
		if !ok {
			if !in.Nullable && !ca.mayLack() && c.err == nil {
				c.err = fmt.Errorf("no column %q", in.Name)
			}
			continue
		}
		if !arrow.TypeEqual(a.DataType(), in.Type) {
			if c.err == nil {
				c.err = fmt.Errorf("column %q is %s", in.Name, a.DataType())
			}
			continue
		}
		ca.read(a, i, d)
	}
}
