package results

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
)

// dictCol builds one row group of a string column of jobs.parquet or
// summary.parquet as dictionary indices: the values in the order of their
// first row, and each row's index among them. The column writer then takes
// the dictionary once and the indices as they are ([dictCol.newArray]), instead of
// hashing every row's string; the task columns repeat one value per task
// and the category columns a handful, so most of their rows cost an index.
//
// The Parquet bytes are the same as for the same values written as a plain
// string array: that array's dictionary encoder would find the same
// dictionary in the same order (the order of first occurrence) and the
// same indices, and its statistics (min, max, null count) are those of
// the values referenced. Where they would not be the same, newArray gives
// the plain string array instead:
//   - when the column has nulls or empty strings (arrow-go's statistics of
//     a dictionary leave empty strings out of the minimum, those of a
//     plain array do not);
//   - when the dictionary reaches the writer's dictionary page size limit
//     ([dictPageLimit]), beyond which the encoder would fall back to plain
//     encoding part way through the column (implied by the next one);
//   - when the plain values (their bytes plus a length each) reach the
//     data page size: the encoder cuts a dictionary-encoded page where the
//     plain values it took would have filled one, and dictionary indices
//     given directly do not count towards it, so the column would be one
//     page instead of several. Short values qualify (a full row group of
//     values of up to 11 bytes), such as the policy, estimates and
//     category columns; task IDs do not.
type dictCol struct {
	pos    map[string]int32
	values []string
	size   int     // the dictionary's encoded size: bytes plus a length each
	raw    int     // the rows' plain size: bytes plus a length each
	idx    []int32 // per row; -1 for null
	nulls  int
	empty  bool // "" is a value
}

// newDictCol returns an empty dictCol.
func newDictCol() *dictCol { return &dictCol{pos: map[string]int32{}} }

// dictPageLimit is the dictionary page size limit of the output writers.
// It is far above arrow-go's default (1 MB) so that string columns never
// fall back from dictionary to plain encoding part way through a column
// chunk: arrow-go writes the encoding statistics of such a chunk (a
// dictionary page, dictionary-encoded and plain data pages) in map order,
// which varies from run to run, so the file's bytes would too. A
// dictionary holds at most a row group's values ([rowGroupRows]), which
// the writer has in memory anyway. Columns whose dictionary stays under
// 1 MB, all of them in sweeps of up to about 15,000 tasks, are written as
// with the default.
const dictPageLimit = 1 << 30

// dataPageSize is the data page size of the output writers (arrow-go's
// default).
const dataPageSize = parquet.DefaultDataPageSize

// index returns the index of v in the dictionary, adding it if needed.
func (d *dictCol) index(v string) int32 {
	if k, ok := d.pos[v]; ok {
		return k
	}
	k := int32(len(d.values))
	d.pos[v] = k
	d.values = append(d.values, v)
	d.size += len(v) + arrow.Uint32SizeBytes
	d.empty = d.empty || v == ""
	return k
}

// appendN appends n rows of value v.
func (d *dictCol) appendN(v string, n int) {
	k := d.index(v)
	d.raw += n * (len(v) + arrow.Uint32SizeBytes)
	for range n {
		d.idx = append(d.idx, k)
	}
}

// appendNulls appends n null rows.
func (d *dictCol) appendNulls(n int) {
	for range n {
		d.idx = append(d.idx, -1)
	}
	d.nulls += n
}

// reset empties the column for the next row group, keeping its memory.
func (d *dictCol) reset() {
	clear(d.pos)
	clear(d.values)
	d.values = d.values[:0]
	d.idx = d.idx[:0]
	d.size = 0
	d.raw = 0
	d.nulls = 0
	d.empty = false
}

// direct reports whether the rows are written as a dictionary array: see
// [dictCol].
func (d *dictCol) direct() bool {
	return d.nulls == 0 && !d.empty && int64(d.size) < dictPageLimit && int64(d.raw) < dataPageSize
}

// newArray returns the rows as an Arrow array: a dictionary array of
// string values with int32 indices ([dictCol.dictArray]) where
// [dictCol.direct] allows it, a string array otherwise. The string
// array's value bytes are allocated once at their size: grown by
// doubling, a full row group of a long value (a task's parameters, a few
// hundred bytes a row) took about twice its size at once, and left the
// smaller buffers it grew through to the writers' reuse pool.
func (d *dictCol) newArray(mem memory.Allocator) arrow.Array {
	if d.direct() {
		return d.dictArray(mem)
	}
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.Reserve(len(d.idx))
	b.ReserveData(d.valueBytes())
	for _, k := range d.idx {
		if k < 0 {
			b.AppendNull()
		} else {
			b.Append(d.values[k])
		}
	}
	return b.NewArray()
}

// valueBytes returns the bytes of the rows' values, nulls having none.
func (d *dictCol) valueBytes() int {
	n := 0
	for _, k := range d.idx {
		if k >= 0 {
			n += len(d.values[k])
		}
	}
	return n
}

// dictArray returns the rows as a dictionary array of string values with
// int32 indices. The indices are d's own memory: the array must be
// released before d is reset or appended to.
func (d *dictCol) dictArray(mem memory.Allocator) arrow.Array {
	valid := []*memory.Buffer{nil}
	if d.nulls > 0 {
		bits := make([]byte, (len(d.idx)+7)/8)
		for i, k := range d.idx {
			if k >= 0 {
				bits[i/8] |= 1 << (i % 8)
			}
		}
		valid[0] = memory.NewBufferBytes(bits)
	}
	buf := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(d.idx))
	data := array.NewData(arrow.PrimitiveTypes.Int32, len(d.idx), append(valid, buf), nil, d.nulls, 0)
	indices := array.MakeFromData(data)
	data.Release()
	defer indices.Release()
	vb := array.NewStringBuilder(mem)
	defer vb.Release()
	vb.AppendValues(d.values, nil)
	dict := vb.NewArray()
	defer dict.Release()
	return array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, indices, dict)
}
