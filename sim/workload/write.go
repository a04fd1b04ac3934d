package workload

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Write writes t as an SWF file that [Parse] reads back to the same
// header, machine size (when it came from the header) and records, with
// no drops. Header keys come in sorted order, one "; Key: value" line per
// line of a value (a line that could not be mistaken for a key becomes an
// indented continuation); job lines carry the fields of [Record] and -1 in
// the others. Write expects a header as [Read] makes it: keys of letters,
// digits and '_', values without surrounding spaces.
func Write(w io.Writer, t *Trace) error {
	if t == nil {
		return errors.New("write trace: nil trace")
	}
	bw := bufio.NewWriter(w)
	keys := make([]string, 0, len(t.Header))
	for k := range t.Header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for i, v := range strings.Split(t.Header[k], "\n") {
			switch {
			case v == "":
				fmt.Fprintf(bw, "; %s:\n", k)
			case i > 0 && !looksLikeKey(v):
				fmt.Fprintf(bw, ";   %s\n", v)
			default:
				fmt.Fprintf(bw, "; %s: %s\n", k, v)
			}
		}
	}
	var line []byte
	for _, r := range t.Records {
		line = line[:0]
		for f := 1; f <= NumFields; f++ {
			if f > 1 {
				line = append(line, ' ')
			}
			line = strconv.AppendInt(line, recordField(&r, f), 10)
		}
		line = append(line, '\n')
		bw.Write(line) // a write error is kept and returned by Flush
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write trace %s: %w", t.Name, err)
	}
	return nil
}

// looksLikeKey reports whether a continuation line v would be read back as
// a "Key: value" line or lose characters to trimming.
func looksLikeKey(v string) bool {
	b := []byte(v)
	if len(trimSpace(b)) != len(b) {
		return true
	}
	_, _, ok := splitKey(b)
	return ok
}

// recordField returns the value of the 1-based SWF field f of r (-1 for
// fields a Record does not keep).
func recordField(r *Record, f int) int64 {
	switch f {
	case fieldID:
		return r.ID
	case fieldSubmit:
		return int64(r.Submit)
	case fieldWait:
		return int64(r.Wait)
	case fieldRuntime:
		return int64(r.Runtime)
	case fieldAllocProcs:
		return int64(r.AllocProcs)
	case fieldReqProcs:
		return int64(r.ReqProcs)
	case fieldReqTime:
		return int64(r.ReqTime)
	case fieldStatus:
		return int64(r.Status)
	case fieldUser:
		return int64(r.User)
	case fieldGroup:
		return int64(r.Group)
	case fieldExecutable:
		return int64(r.Executable)
	case fieldQueue:
		return int64(r.Queue)
	case fieldPartition:
		return int64(r.Partition)
	case fieldPreceding:
		return r.Preceding
	case fieldThinkTime:
		return int64(r.ThinkTime)
	}
	return -1
}
