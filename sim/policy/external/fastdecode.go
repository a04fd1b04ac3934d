package external

import "bytes"

// fastDecode parses the common form of a decisions message without
// reflection: no spaces, "type" then "decisions", every decision an
// object whose keys are lower-case field names, each at most once, with
// integer values (no exponent, fraction or leading zero) or, for "set",
// an array of them, and "op" a lower-case word. It returns false, with
// msg in an unspecified state, on anything else (including every
// malformed message), and the caller decodes the line again with the
// strict decoder, which has the last word and the error messages. Where
// it returns true, msg equals what the strict decoder gives
// (FuzzFastDecode checks this). Set slices share setBuf, which it
// returns grown: they are valid until the next call.
func fastDecode(line []byte, msg *decisions, setBuf []int64) ([]int64, bool) {
	const head = `{"type":"decisions","decisions":[`
	if !bytes.HasPrefix(line, []byte(head)) {
		return setBuf, false
	}
	s := line[len(head):]
	msg.Type = "decisions"
	msg.Decisions = msg.Decisions[:0]
	setBuf = setBuf[:0]
	for len(s) > 0 && s[0] != ']' {
		if len(msg.Decisions) > 0 {
			if s[0] != ',' {
				return setBuf, false
			}
			s = s[1:]
		}
		var d decision
		var ok bool
		if s, setBuf, ok = fastDecision(s, &d, setBuf); !ok {
			return setBuf, false
		}
		msg.Decisions = append(msg.Decisions, d)
	}
	return setBuf, string(s) == "]}"
}

// fastDecision parses one decision object at the start of s and returns
// the rest of s.
func fastDecision(s []byte, d *decision, setBuf []int64) ([]byte, []int64, bool) {
	if len(s) < 2 || s[0] != '{' {
		return s, setBuf, false
	}
	s = s[1:]
	var seen uint16
	for first := true; ; first = false {
		if len(s) > 0 && s[0] == '}' && !first {
			return s[1:], setBuf, d.Op != ""
		}
		if !first {
			if len(s) == 0 || s[0] != ',' {
				return s, setBuf, false
			}
			s = s[1:]
		}
		key, rest, ok := fastString(s)
		if !ok || len(rest) == 0 || rest[0] != ':' {
			return s, setBuf, false
		}
		s = rest[1:]
		bit, ok := fastKeys[string(key)]
		if !ok || seen&bit != 0 {
			return s, setBuf, false
		}
		seen |= bit
		switch string(key) {
		case "op":
			var v []byte
			if v, s, ok = fastString(s); !ok || len(v) == 0 {
				return s, setBuf, false
			}
			for _, c := range v {
				if (c < 'a' || c > 'z') && c != '_' {
					return s, setBuf, false
				}
			}
			if op, ok := knownOps[string(v)]; ok {
				d.Op = op
			} else {
				d.Op = string(v)
			}
		case "set":
			if len(s) == 0 || s[0] != '[' {
				return s, setBuf, false
			}
			s = s[1:]
			start := len(setBuf)
			for len(s) > 0 && s[0] != ']' {
				if len(setBuf) > start {
					if s[0] != ',' {
						return s, setBuf, false
					}
					s = s[1:]
				}
				var v int64
				if v, s, ok = fastInt(s); !ok {
					return s, setBuf, false
				}
				setBuf = append(setBuf, v)
			}
			if len(s) == 0 {
				return s, setBuf, false
			}
			s = s[1:]
			d.Set = setBuf[start:len(setBuf):len(setBuf)]
			if d.Set == nil {
				d.Set = []int64{} // "set":[] is a set, not its absence
			}
		default:
			var v int64
			if v, s, ok = fastInt(s); !ok {
				return s, setBuf, false
			}
			switch string(key) {
			case "job":
				d.Job = &v
			case "procs":
				d.Procs = &v
			case "delay":
				d.Delay = v
			case "overhead":
				d.Overhead = v
			case "cost":
				d.Cost = v
			case "at":
				d.At = &v
			case "tag":
				d.Tag = &v
			case "deadline":
				d.Deadline = &v
			}
		}
	}
}

// fastKeys are the fields of a decision, each with its bit.
var fastKeys = map[string]uint16{
	"op": 1 << 0, "job": 1 << 1, "set": 1 << 2, "procs": 1 << 3, "delay": 1 << 4,
	"overhead": 1 << 5, "cost": 1 << 6, "at": 1 << 7, "tag": 1 << 8, "deadline": 1 << 9,
}

// knownOps interns the ops' names.
var knownOps = map[string]string{}

func init() {
	for _, op := range []string{"start", "mold", "suspend", "resume", "kill", "checkpoint", "timer", "cancel_timer", "admit", "reject", "promise"} {
		knownOps[op] = op
	}
}

// fastString parses a string without escapes.
func fastString(s []byte) (v, rest []byte, ok bool) {
	if len(s) == 0 || s[0] != '"' {
		return nil, s, false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return s[1:i], s[i+1:], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, s, false
		}
	}
	return nil, s, false
}

// fastInt parses a JSON integer of at most 18 digits (so it cannot
// overflow int64).
func fastInt(s []byte) (int64, []byte, bool) {
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	n := 0
	var v int64
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		v = v*10 + int64(s[n]-'0')
		n++
	}
	if n == 0 || n > 18 || (n > 1 && s[0] == '0') {
		return 0, s, false
	}
	if n < len(s) && (s[n] == '.' || s[n] == 'e' || s[n] == 'E') {
		return 0, s, false
	}
	if neg {
		v = -v
	}
	return v, s[n:], true
}
