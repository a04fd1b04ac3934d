package yamlnode_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/schedfarm/schedfarm/internal/yamlnode"
	"github.com/schedfarm/schedfarm/yamlerr"
)

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		kind     yaml.Kind // 0: nil root
		wantErr  bool
		multi    bool
	}{
		{name: "mapping", in: "a: 1\n", kind: yaml.MappingNode},
		{name: "empty", in: ""},
		{name: "null", in: "~\n"},
		{name: "alias root", in: "--- &x [1]\n", kind: yaml.SequenceNode},
		{name: "syntax", in: "a: [1\n", wantErr: true},
		{name: "two documents", in: "a: 1\n---\nb: 2\n", wantErr: true, multi: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := yamlnode.Decode([]byte(tc.in))
			if (err != nil) != tc.wantErr || errors.Is(err, yamlnode.ErrMultipleDocuments) != tc.multi {
				t.Fatalf("Decode(%q) error %v, want error %v (multiple documents %v)", tc.in, err, tc.wantErr, tc.multi)
			}
			var kind yaml.Kind
			if n != nil {
				kind = n.Kind
			}
			if kind != tc.kind {
				t.Errorf("Decode(%q) root kind %v, want %v", tc.in, kind, tc.kind)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	target := &yaml.Node{Kind: yaml.ScalarNode, Value: "v"}
	alias := &yaml.Node{Kind: yaml.AliasNode, Alias: &yaml.Node{Kind: yaml.AliasNode, Alias: target}}
	if got := yamlnode.Resolve(alias); got != target {
		t.Errorf("Resolve() = %v, want the aliased scalar", got)
	}
	loop := &yaml.Node{Kind: yaml.AliasNode}
	loop.Alias = loop
	if got := yamlnode.Resolve(loop); got != loop {
		t.Errorf("Resolve() of a loop = %v, want it returned after the step bound", got)
	}
}

func TestErrorLine(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		line     int
	}{
		{"decoder gives the line", "a: 1\nb: [1,\nc: 2\n", 0},
		{"block scalar header", ">A", 1},
		{"second document", "a: 1\nb: 2\n---\nc: 3\n", 3},
		{"control character", "a: 1\nb: \"x\"\nc: \x01\n", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := yamlnode.Decode([]byte(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			want := tc.line
			if want == 0 { // the decoder's own line
				want = yamlLine(t, err)
			}
			if got := yamlnode.ErrorLine([]byte(tc.in), err); got != want || got == 0 {
				t.Errorf("ErrorLine = %d, want %d (error %v)", got, want, err)
			}
		})
	}
}

// yamlLine returns the line a decoder error names.
func yamlLine(t *testing.T, err error) int {
	t.Helper()
	var n int
	if _, e := fmt.Sscanf(strings.TrimPrefix(err.Error(), "yaml: "), "line %d:", &n); e != nil {
		t.Fatalf("%v names no line", err)
	}
	return n
}

func TestWalker(t *testing.T) {
	var got []string
	w := &yamlnode.Walker{
		Lines:    map[string]int{},
		Report:   func(path string, line int, err error) { got = append(got, fmt.Sprintf("%d %s: %v", line, path, err)) },
		Describe: func(n *yaml.Node) string { return "shape" },
	}
	root, err := yamlnode.Decode([]byte("a:\n  b: 1\n  b: 2\nc: 3\nd: [x]\n"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	w.Mapping(root, "", func(key string, v *yaml.Node, path string) {
		keys = append(keys, path)
		switch key {
		case "a":
			w.Mapping(v, path, func(_ string, _ *yaml.Node, path string) { keys = append(keys, path) })
		case "c":
			if w.List(v, path) != nil {
				t.Error("List of a scalar is not nil")
			}
		case "d":
			if items := w.List(v, path); len(items) != 1 || items[0].Value != "x" {
				t.Errorf("List = %v", items)
			}
			w.Add(path+"[0].e", nil, errors.New("missing"))
		}
	})
	want := []string{"3 a.b: duplicate key", "4 c: must be a list, got shape", "5 d[0].e: missing"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("problems\n%q\nwant\n%q", got, want)
	}
	if fmt.Sprint(keys) != "[a a.b c d]" {
		t.Errorf("keys %v", keys)
	}
	if !errors.Is(yamlerr.Problem(yamlerr.ErrType, "x %d", 1), yamlerr.ErrType) || yamlerr.Problem(yamlerr.ErrType, "x %d", 1).Error() != "x 1" {
		t.Error("Problem does not wrap its sentinel with its own text")
	}
	if yamlnode.ParentPath("a.b[2].c") != "a.b[2]" || yamlnode.ParentPath("a") != "" || yamlnode.JoinPath("", "a") != "a" || yamlnode.JoinPath("a", "b") != "a.b" ||
		yamlnode.JoinPath("", "") != `""` || yamlnode.JoinPath("a", "") != `a.""` {
		t.Error("ParentPath or JoinPath")
	}
}

func TestDescribe(t *testing.T) {
	doc, err := yamlnode.Decode([]byte("m: {a: 1}\nl: [1]\nn: null\ns: x y\ni: 3\nb: &x true\nr: *x\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"m": "a mapping", "l": "a list", "n": "null", "s": `"x y"`, "i": `"3"`, "b": `"true"`, "r": `"true"`}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k := doc.Content[i].Value
		if got := yamlnode.Describe(doc.Content[i+1]); got != want[k] {
			t.Errorf("Describe(%s) = %s, want %s", k, got, want[k])
		}
	}
	if got := yamlnode.Describe(nil); got != "nothing" {
		t.Errorf("yamlnode.Describe(nil) = %s, want nothing", got)
	}
}

// TestWalker_Scalars checks the scalar readers and the problems Collect
// gathers from them, aliases resolved.
func TestWalker_Scalars(t *testing.T) {
	var errs []*yamlerr.FieldError
	w := yamlnode.Collect(map[string]int{}, &errs, true, yamlnode.Describe)
	root, err := yamlnode.Decode([]byte("s: &a text\nalias: *a\nblank: '  '\nnum: 2.5\nint: 3\nbad: .nan\nword: 'x'\nlist: [1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	nodes := map[string]*yaml.Node{}
	w.Mapping(root, "", func(key string, v *yaml.Node, _ string) { nodes[key] = v })
	if s, ok := w.Str(nodes["alias"], "alias"); !ok || s != "text" {
		t.Errorf("Str(alias)=%q, %v", s, ok)
	}
	if _, ok := w.Str(nodes["num"], "num"); ok {
		t.Error("Str(number) succeeded")
	}
	if _, ok := w.NonEmpty(nodes["blank"], "blank"); ok {
		t.Error("NonEmpty(blank) succeeded")
	}
	if s, ok := w.NonEmpty(nodes["s"], "s"); !ok || s != "text" {
		t.Errorf("NonEmpty(text)=%q, %v", s, ok)
	}
	for key, want := range map[string]float64{"num": 2.5, "int": 3} {
		if f, ok := w.Number(nodes[key], key); !ok || f != want {
			t.Errorf("Number(%s)=%v, %v, want %v", key, f, ok, want)
		}
	}
	for _, key := range []string{"bad", "word", "list"} {
		if _, ok := w.Number(nodes[key], key); ok {
			t.Errorf("Number(%s) succeeded", key)
		}
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	want := []string{
		`line 4: num: must be a string, got "2.5"`,
		`line 3: blank: must not be empty`,
		`line 6: bad: must be a finite number, got ".nan"`,
		`line 7: word: must be a finite number, got "x"`,
		`line 8: list: must be a finite number, got a list`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("problems\n%q\nwant\n%q", got, want)
	}
	if !errors.Is(errs[0], yamlerr.ErrType) || !errors.Is(errs[1], yamlerr.ErrRequired) {
		t.Error("problems do not wrap ErrType and ErrRequired")
	}
}

// TestWalker_Decode checks that a syntax error and a second document are
// reported as ErrSyntax problems of the whole file at their lines.
func TestWalker_Decode(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		ok       bool
		want     string // the problem's text, "" for none
	}{
		{"OK", "a: 1\n", true, ""},
		{"Empty", "", true, ""},
		{"Syntax", "a: 1\nb: [\n", false, "line 2: yaml: line 2: did not find expected node content"},
		{"Second", "a: 1\n---\nb: 2\n", false, "line 2: one document only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errs []*yamlerr.FieldError
			w := yamlnode.Collect(map[string]int{}, &errs, true, yamlnode.Describe)
			_, ok := w.Decode([]byte(tc.in), "one document only")
			var got string
			if len(errs) > 0 && errors.Is(errs[0], yamlerr.ErrSyntax) {
				got = errs[0].Error()
			}
			wantN := 0
			if tc.want != "" {
				wantN = 1
			}
			if ok != tc.ok || len(errs) != wantN || got != tc.want {
				t.Errorf("Decode()=%v with %v, want %v with %q", ok, errs, tc.ok, tc.want)
			}
		})
	}
}

// TestWalker_LastLine checks that a problem's line stays within the text
// Decode read: YAML gives the empty key that "?" ends the text with the
// line after it.
func TestLines(t *testing.T) {
	for in, want := range map[string]int{"": 1, "a": 1, "a\n": 2, "a\r\nb": 2, "a\rb\r": 3, "a\n\rb": 3, "a\u0085b\u2028c\u2029": 4, "\xc2": 1} {
		if got := yamlnode.Lines([]byte(in)); got != want {
			t.Errorf("Lines(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestWalker_LastLine(t *testing.T) {
	for _, in := range []string{"?", "a: 1\n?", "a: 1\r\nb: 2\r?", "a: 1\u2028?"} {
		var errs []*yamlerr.FieldError
		w := yamlnode.Collect(map[string]int{}, &errs, true, yamlnode.Describe)
		root, ok := w.Decode([]byte(in), "one document only")
		if !ok {
			t.Fatalf("%q: %v", in, errs)
		}
		w.Mapping(root, "", func(key string, v *yaml.Node, path string) {
			w.Add(path, v, yamlerr.ErrUnknownKey)
		})
		last := yamlnode.Lines([]byte(in))
		if len(errs) == 0 || errs[len(errs)-1].Line != last {
			t.Errorf("%q: problems %v, want the last on line %d", in, errs, last)
		}
	}
}

func TestWalker_DecodeRoot(t *testing.T) {
	for in, want := range map[string]string{
		"a: 1\n":      "",
		"":            "thing is empty",
		"- a\n":       `line 1: must be a mapping, got a list`,
		"x\n":         `line 1: must be a mapping, got "x"`,
		"a: 1\n---\n": "line 2: one document only",
	} {
		var errs []*yamlerr.FieldError
		w := yamlnode.Collect(map[string]int{}, &errs, true, yamlnode.Describe)
		root, ok := w.DecodeRoot([]byte(in), "one document only", "thing")
		var got string
		if len(errs) > 0 {
			got = errs[0].Error()
		}
		if ok != (want == "") || (ok && root == nil) || len(errs) > 1 || got != want {
			t.Errorf("DecodeRoot(%q) = %v, %v with %v, want %q", in, root != nil, ok, errs, want)
		}
	}
}
