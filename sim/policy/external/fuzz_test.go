package external

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzDecodeDecisions: the decoder never panics, and a message it accepts
// has a type and an op for every decision.
func FuzzDecodeDecisions(f *testing.F) {
	for _, s := range []string{
		`{"type":"decisions","decisions":[]}`,
		`{"type":"decisions","decisions":[{"op":"start","job":0}]}`,
		`{"type":"decisions","decisions":[{"op":"start","job":1,"set":[2,3],"delay":4}]}`,
		`{"type":"decisions","decisions":[{"op":"suspend","job":0,"overhead":1},{"op":"resume","job":0,"set":[1]}]}`,
		`{"type":"decisions","decisions":[{"op":"timer","at":5,"tag":-1},{"op":"cancel_timer","tag":3}]}`,
		`{"type":"decisions","decisions":[{"op":"admit","job":0,"deadline":9},{"op":"reject","job":1},{"op":"mold","job":2,"procs":4}]}`,
		`{"type":"decisions","decisions":[{"op":"checkpoint","job":0,"cost":3},{"op":"kill","job":1},{"op":"promise","job":2,"at":7}]}`,
		`{"type": "decisions", "decisions": [{"op": "start", "job": 0}]}`,
		`{"type":"decisions","decisions":[{"job":0}]}`,
		`{"type":"decisions","decisions":[]} {}`,
		`{"type":"ready"}`,
		`hello`,
		``,
		`{"type":"decisions","decisions":[{"op":"start","job":1e400}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var msg decisions
		if err := decodeDecisions(b, &msg); err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if msg.Type != "decisions" {
			t.Fatalf("accepted type %q", msg.Type)
		}
		for _, d := range msg.Decisions {
			if d.Op == "" {
				t.Fatal("accepted a decision without op")
			}
		}
		if strings.TrimSpace(string(b)) == "" {
			t.Fatal("accepted an empty line")
		}
	})
}

// FuzzFastDecode: where the fast decoder accepts a message, the strict
// decoder accepts it too and gives the same decisions.
func FuzzFastDecode(f *testing.F) {
	for _, s := range []string{
		`{"type":"decisions","decisions":[]}`,
		`{"type":"decisions","decisions":[{"op":"start","job":0}]}`,
		`{"type":"decisions","decisions":[{"op":"start","job":1,"set":[2,3],"delay":4}]}`,
		`{"type":"decisions","decisions":[{"op":"start","job":1,"set":[]}]}`,
		`{"type":"decisions","decisions":[{"job":-0,"op":"suspend","overhead":1},{"op":"resume","job":0,"set":[1]}]}`,
		`{"type":"decisions","decisions":[{"op":"timer","at":5,"tag":-1},{"op":"cancel_timer","tag":3}]}`,
		`{"type":"decisions","decisions":[{"op":"admit","job":0,"deadline":9},{"op":"reject","job":1},{"op":"mold","job":2,"procs":4}]}`,
		`{"type":"decisions","decisions":[{"op":"checkpoint","job":0,"cost":3},{"op":"kill","job":1},{"op":"promise","job":2,"at":7}]}`,
		`{"type":"decisions","decisions":[{"op":"fly","job":01}]}`,
		`{"type":"decisions","decisions":[{"op":"start","job":0,"job":1}]}`,
		`{"type":"decisions","decisions":[{"op":"start","job":999999999999999999}]}`,
		`{"type":"decisions","decisions":[{"op":"start","job":1.5}]}`,
		`{"type":"decisions","decisions":[{"op":"start","job":1}]}x`,
		`{"type":"decisions","decisions":[{"op":"start","job":1},]}`,
		`{"type":"decisions","decisions":[{"op":"start","Job":1}]}`,
		`{"type":"decisions","decisions":[{"op":"st\u0061rt","job":1}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var fast decisions
		if _, ok := fastDecode(b, &fast, nil); !ok {
			return
		}
		var strict decisions
		if err := decodeDecisions(b, &strict); err != nil {
			t.Fatalf("fast decoder accepted %q, strict one refused it: %v", b, err)
		}
		if len(fast.Decisions) == 0 {
			fast.Decisions = nil
		}
		if len(strict.Decisions) == 0 {
			strict.Decisions = nil
		}
		if !reflect.DeepEqual(fast, strict) {
			t.Fatalf("%q: fast decoder gives %+v, strict one %+v", b, fast, strict)
		}
	})
}
