package results

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The values of row k of a column read back from the wire format: a null
// row, or a column of another type, reads as the zero value.

func int64At(c arrow.Array, k int) int64 {
	if a, ok := c.(*array.Int64); ok && a.IsValid(k) {
		return a.Value(k)
	}
	return 0
}

func float64At(c arrow.Array, k int) float64 {
	if a, ok := c.(*array.Float64); ok && a.IsValid(k) {
		return a.Value(k)
	}
	return 0
}

func boolAt(c arrow.Array, k int) bool {
	if a, ok := c.(*array.Boolean); ok && a.IsValid(k) {
		return a.Value(k)
	}
	return false
}
