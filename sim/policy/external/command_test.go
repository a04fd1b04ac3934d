package external

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"python3 easy.py", []string{"python3", "easy.py"}},
		{"  python3\teasy.py \n --alpha 0.5 ", []string{"python3", "easy.py", "--alpha", "0.5"}},
		{`python3 'my policy.py' "a \"quoted\" word" back\ slash`, []string{"python3", "my policy.py", `a "quoted" word`, "back slash"}},
		{`python3 "C:\dir\x" "\\" 'it'\''s'`, []string{"python3", `C:\dir\x`, `\`, "it's"}},
		{`python3 '' ""`, []string{"python3", "", ""}},
		{`python3 a'b'"c"d`, []string{"python3", "abcd"}},
		{`python3 '|' "a>b" \$HOME`, []string{"python3", "|", "a>b", "$HOME"}},
		{`python3 # not a comment`, []string{"python3", "#", "not", "a", "comment"}},
	} {
		got, err := SplitCommand(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"", "empty: it must name a program"},
		{"   ", "empty: it must name a program"},
		{"'' easy.py", "the program's name is empty"},
		{"python3 'easy.py", "the single quote at offset 8 is not closed"},
		{`python3 "easy.py`, "the double quote at offset 8 is not closed"},
		{`python3 "easy.py\"`, "the double quote at offset 8 is not closed"},
		{`python3 easy.py\`, "a backslash ends the command"},
		{"python3 easy.py > log", `'>' at offset 16: no shell runs the command`},
		{"python3 easy.py | tee", `'|' at offset 16`},
		{"python3 $HOME/easy.py", `'$' at offset 8`},
		{"python3 a;b", `';' at offset 9`},
		{"python3 \x00", "a NUL byte at offset 8"},
		{"python3 '\x00'", "a NUL byte at offset 9"},
		{"python3 \"\x00\"", "a NUL byte at offset 9"},
	} {
		_, err := SplitCommand(tt.in)
		if err == nil || !errors.Is(err, ErrCommand) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("SplitCommand(%q): error %v, want one with %q", tt.in, err, tt.want)
		}
	}
}

func TestJoinCommand(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"python3", "easy.py", "--alpha=0.5", "a/b-c_d@e%f+g:h,i"}, "python3 easy.py --alpha=0.5 a/b-c_d@e%f+g:h,i"},
		{[]string{"python3", "my policy.py", "", "it's", "$HOME"}, `python3 'my policy.py' '' 'it'\''s' '$HOME'`},
	} {
		if got := JoinCommand(tt.args); got != tt.want {
			t.Errorf("JoinCommand(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

// FuzzSplitCommand: the splitter never panics; an error wraps
// ErrCommand; a command it accepts is written back by JoinCommand as a
// line that splits into the same arguments, and a join of any arguments
// CheckArgs accepts splits back into them.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{
		"python3 easy.py", `python3 'my policy.py' "a \"b\"" c\ d`, `'it'\''s'`, `"\\\"" ''`,
		"python3 easy.py > log", "a\tb\nc", `x"`, `\`, "$", "\x00", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args, err := SplitCommand(s)
		if err != nil {
			if !errors.Is(err, ErrCommand) {
				t.Fatalf("%q: error %v does not wrap ErrCommand", s, err)
			}
		} else {
			j := JoinCommand(args)
			back, err := SplitCommand(j)
			if err != nil || !slices.Equal(back, args) {
				t.Fatalf("%q splits into %q, joined %q, which splits into %q, %v", s, args, j, back, err)
			}
		}
		// The input's words as arguments of their own.
		words := append([]string{"prog"}, strings.Split(s, " ")...)
		if CheckArgs(words) != nil {
			return
		}
		j := JoinCommand(words)
		back, err := SplitCommand(j)
		if err != nil || !slices.Equal(back, words) {
			t.Fatalf("%q joined %q, which splits into %q, %v", words, j, back, err)
		}
	})
}
