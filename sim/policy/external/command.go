package external

import (
	"errors"
	"fmt"
	"strings"
)

// ErrCommand is wrapped by the errors of [SplitCommand] and [CheckArgs].
var ErrCommand = errors.New("bad command")

// SplitCommand splits a command line into the program and its
// arguments the way a POSIX shell splits words, without running a shell
// and without expanding anything: spaces, tabs and line breaks separate
// words; 'single quotes' keep everything up to the next single quote;
// "double quotes" keep everything up to the next unescaped double quote,
// a backslash escaping only " and \ inside them; outside quotes a
// backslash keeps the next character. Since no shell runs the command,
// the characters a shell would act on (| & ; < > ( ) $ `) are refused
// unless quoted, and so are an unterminated quote, a trailing
// backslash, a NUL byte and an empty command. Errors wrap [ErrCommand]
// and name the byte offset.
func SplitCommand(s string) ([]string, error) {
	args, err := SplitWords(s)
	if err != nil {
		return nil, err
	}
	if err := CheckArgs(args); err != nil {
		return nil, err
	}
	return args, nil
}

// SplitWords splits s into words as [SplitCommand] does, but accepts no
// words at all (an empty or blank s) and an empty first word: it splits
// lists of file names.
func SplitWords(s string) ([]string, error) {
	var args []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0:
			return nil, fmt.Errorf("%w: a NUL byte at offset %d", ErrCommand, i)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				args = append(args, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("%w: the single quote at offset %d is not closed", ErrCommand, i)
			}
			if k := strings.IndexByte(s[i+1:i+1+j], 0); k >= 0 {
				return nil, fmt.Errorf("%w: a NUL byte at offset %d", ErrCommand, i+1+k)
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				switch {
				case s[j] == 0:
					return nil, fmt.Errorf("%w: a NUL byte at offset %d", ErrCommand, j)
				case s[j] == '\\' && j+1 < len(s) && (s[j+1] == '"' || s[j+1] == '\\'):
					j++
				}
				w.WriteByte(s[j])
			}
			if j == len(s) {
				return nil, fmt.Errorf("%w: the double quote at offset %d is not closed", ErrCommand, i)
			}
			i = j
			inWord = true
		case c == '\\':
			if i+1 == len(s) {
				return nil, fmt.Errorf("%w: a backslash ends the command (nothing to escape)", ErrCommand)
			}
			if s[i+1] == 0 {
				return nil, fmt.Errorf("%w: a NUL byte at offset %d", ErrCommand, i+1)
			}
			i++
			w.WriteByte(s[i])
			inWord = true
		case strings.IndexByte(shellChars, c) >= 0:
			return nil, fmt.Errorf("%w: %q at offset %d: no shell runs the command, so pipes, redirections, variables and substitutions do nothing; quote it to pass it as it is", ErrCommand, c, i)
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		args = append(args, w.String())
	}
	return args, nil
}

// shellChars are the characters a shell would act on.
const shellChars = "|&;<>()$`"

// CheckArgs checks a command given as a list of arguments: at least the
// program, whose name is not empty, and no NUL byte anywhere.
func CheckArgs(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: empty: it must name a program", ErrCommand)
	}
	if args[0] == "" {
		return fmt.Errorf("%w: the program's name is empty", ErrCommand)
	}
	for i, a := range args {
		if strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("%w: argument %d holds a NUL byte", ErrCommand, i)
		}
	}
	return nil
}

// JoinCommand is the inverse of [SplitCommand]: it writes args as one
// command line, each argument as it is when it holds only letters,
// digits and _ @ % + = : , . / -, else in single quotes (a single quote
// inside closes them, is written with a backslash, and opens them
// again). SplitCommand(JoinCommand(args)) gives args back for every args
// [CheckArgs] accepts, and a command of plain words is its words joined
// by single spaces.
func JoinCommand(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if plainWord(a) {
			b.WriteString(a)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(a, `'`, `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}

func plainWord(a string) bool {
	if a == "" {
		return false
	}
	for i := 0; i < len(a); i++ {
		c := a[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_@%+=:,./-", c) >= 0) {
			return false
		}
	}
	return true
}
