package results

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// writeStringColumn writes col as the only column (a string column named
// s) of a one-row-group Parquet file with the output files' writer
// properties, and returns the file.
func writeStringColumn(t *testing.T, col arrow.Array) []byte {
	t.Helper()
	o := &outputs{mem: newRecycler(1 << 20)}
	var buf bytes.Buffer
	fw, err := o.newFileWriter(&buf, []arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.NewRowGroupChecked(); err != nil {
		t.Fatal(err)
	}
	ch := arrow.NewChunked(col.DataType(), []arrow.Array{col})
	defer ch.Release()
	if err := fw.WriteColumnChunked(ch, 0, int64(col.Len())); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDictCol_SameBytes checks that a column built by dictCol gives the
// bytes of the same values written as a plain string array, whether
// newArray gives a dictionary array or falls back to a string array; and
// that each fallback is needed: where direct says no, the dictionary
// array written anyway gives other bytes.
func TestDictCol_SameBytes(t *testing.T) {
	labels := []string{"VS Seq", "S N", "L W", "VL VW", "S Seq", "VS N"}
	long := strings.Repeat("0123456789abcdef", 4) // a task ID's length
	for _, tc := range []struct {
		name   string
		rows   func(d *dictCol) []*string
		direct bool
	}{
		{"one value", func(d *dictCol) []*string { return runs(d, 65536, "fcfs") }, true},
		{"runs", func(d *dictCol) []*string {
			return runs(d, 20000, "easy", 30000, "fcfs", 15536, "easy")
		}, true},
		{"categories", func(d *dictCol) []*string {
			var out []*string
			for i := range 50000 {
				out = append(out, runs(d, 1, labels[(i*7+i/3)%len(labels)])...)
			}
			return out
		}, true},
		{"just under a page", func(d *dictCol) []*string { return runs(d, 65535, "12345678", 1, "abc") }, true},
		{"more than a page of values", func(d *dictCol) []*string { return runs(d, 65536, "1234567890123") }, false},
		{"long values", func(d *dictCol) []*string { return runs(d, 40000, long, 25536, long+"x") }, false},
		{"empty string", func(d *dictCol) []*string { return runs(d, 1000, "", 2000, "ss") }, false},
		{"nulls", func(d *dictCol) []*string {
			out := runs(d, 1000, "ss")
			d.appendNulls(10)
			out = append(out, make([]*string, 10)...)
			return append(out, runs(d, 1000, "easy")...)
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDictCol()
			want := tc.rows(d)
			if got := d.direct(); got != tc.direct {
				t.Fatalf("direct() = %v, want %v", got, tc.direct)
			}
			mem := memory.NewGoAllocator()
			sb := array.NewStringBuilder(mem)
			for _, v := range want {
				if v == nil {
					sb.AppendNull()
				} else {
					sb.Append(*v)
				}
			}
			plain := sb.NewArray()
			defer plain.Release()
			col := d.newArray(mem)
			defer col.Release()
			if isDict := col.DataType().ID() == arrow.DICTIONARY; isDict != tc.direct {
				t.Fatalf("newArray is a dictionary array: %v, want %v", isDict, tc.direct)
			}
			if !array.Equal(plain, mustDense(t, col)) {
				t.Fatal("newArray's values differ from the rows appended")
			}
			wantBytes := writeStringColumn(t, plain)
			if got := writeStringColumn(t, col); !bytes.Equal(got, wantBytes) {
				t.Fatalf("file differs from the plain array's (%d bytes, want %d)", len(got), len(wantBytes))
			}
			if !tc.direct && d.nulls == 0 {
				forced := d.dictArray(mem)
				defer forced.Release()
				if bytes.Equal(writeStringColumn(t, forced), wantBytes) {
					t.Error("the dictionary array gives the same bytes: the fallback is not needed")
				}
			}
			d.reset()
			if len(d.idx) != 0 || len(d.values) != 0 || d.raw != 0 || d.size != 0 || d.nulls != 0 || d.empty {
				t.Errorf("reset left %+v", d)
			}
		})
	}
}

// runs appends n rows of value v for each (n, v) pair of nv to d and
// returns the values appended.
func runs(d *dictCol, nv ...any) []*string {
	var out []*string
	for i := 0; i < len(nv); i += 2 {
		n, v := nv[i].(int), nv[i+1].(string)
		d.appendN(v, n)
		for range n {
			out = append(out, &v)
		}
	}
	return out
}

// mustDense returns col as a string array.
func mustDense(t *testing.T, col arrow.Array) arrow.Array {
	t.Helper()
	d, ok := col.(*array.Dictionary)
	if !ok {
		return col
	}
	dict := d.Dictionary().(*array.String)
	b := array.NewStringBuilder(memory.NewGoAllocator())
	for i := range d.Len() {
		if d.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(dict.Value(d.GetValueIndex(i)))
		}
	}
	return b.NewArray()
}

// TestDictCol_newArrayMemory checks that newArray, when it falls back to
// a string array, allocates the array's value bytes once: for a full row
// group of a long value (a task's parameters; 14.4 MB of values) it held 25.7 MB at
// once and allocated 34.1 MB while its value buffer grew by doubling.
func TestDictCol_newArrayMemory(t *testing.T) {
	long := strings.Repeat("p", 223)
	d := newDictCol()
	runs(d, 1000, "", rowGroupRows-1000, long)
	if d.direct() {
		t.Fatal("direct() = true, want a string array")
	}
	values := d.valueBytes()
	if want := (rowGroupRows - 1000) * len(long); values != want {
		t.Fatalf("valueBytes() = %d, want %d", values, want)
	}
	mem := &peakAllocator{Allocator: memory.NewGoAllocator()}
	col := d.newArray(mem)
	defer col.Release()
	if got := col.(*array.String).ValueLen(rowGroupRows - 1); got != len(long) {
		t.Fatalf("last value's length %d, want %d", got, len(long))
	}
	// The values and at most 1 MB of offsets and validity bitmap.
	bound := values + 1<<20
	if mem.peak > bound || mem.total > bound {
		t.Errorf("%d bytes held at once and %d allocated, want at most %d (values %d)", mem.peak, mem.total, bound, values)
	}
}

// peakAllocator is a memory.Allocator that records the most bytes
// allocated and not yet freed, and the bytes allocated in all.
type peakAllocator struct {
	memory.Allocator
	cur, peak, total int
}

func (a *peakAllocator) Allocate(size int) []byte {
	a.add(size)
	return a.Allocator.Allocate(size)
}

func (a *peakAllocator) Reallocate(size int, b []byte) []byte {
	a.add(size)
	a.cur -= len(b)
	return a.Allocator.Reallocate(size, b)
}

func (a *peakAllocator) Free(b []byte) {
	a.cur -= len(b)
	a.Allocator.Free(b)
}

func (a *peakAllocator) add(size int) {
	a.cur += size
	a.total += size
	a.peak = max(a.peak, a.cur)
}

func TestDictCol_index(t *testing.T) {
	d := newDictCol()
	for i, v := range []string{"b", "a", "b", "c", "a"} {
		d.appendN(v, i+1)
	}
	if got, want := fmt.Sprint(d.values), "[b a c]"; got != want {
		t.Errorf("values %s, want %s (order of first row)", got, want)
	}
	if got, want := fmt.Sprint(d.idx), "[0 1 1 0 0 0 2 2 2 2 1 1 1 1 1]"; got != want {
		t.Errorf("indices %s, want %s", got, want)
	}
	if want := 3 * (1 + 4); d.size != want {
		t.Errorf("size %d, want %d", d.size, want)
	}
	if want := 15 * (1 + 4); d.raw != want {
		t.Errorf("raw %d, want %d", d.raw, want)
	}
}

// TestWriter_manyDistinctStrings checks that a string column whose
// dictionary exceeds arrow-go's default limit (1 MB: 20,000 task IDs)
// stays dictionary-encoded and gives the same bytes every time it is
// written. With the default limit it fell back to plain encoding part way
// and its encoding statistics came out in map order: two of eight writes
// already differed with probability above 99%.
func TestWriter_manyDistinctStrings(t *testing.T) {
	b := array.NewStringBuilder(memory.NewGoAllocator())
	for i := range 20000 {
		b.Append(fmt.Sprintf("%064x", i*7919))
	}
	col := b.NewArray()
	defer col.Release()
	first := writeStringColumn(t, col)
	for range 7 {
		if !bytes.Equal(writeStringColumn(t, col), first) {
			t.Fatal("the same column written twice gives different bytes")
		}
	}
	r, err := file.NewParquetReader(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	cc, err := r.MetaData().RowGroup(0).ColumnChunk(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, es := range cc.EncodingStats() {
		if fmt.Sprint(es.PageType) == "DATA_PAGE" && es.Encoding != parquet.Encodings.RLEDict {
			t.Errorf("a data page with encoding %v: the dictionary was given up", es.Encoding)
		}
	}
}
