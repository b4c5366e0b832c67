// Package look implements util-linux look: print the lines of a sorted
// file that begin with a string, found by binary search as util-linux
// finds them (so an unsorted file gives the same partial answers). With
// no file it searches /usr/share/dict/words with -d and -f.
package look

import (
	"bytes"
	"fmt"
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `
Usage:
 look [options] <string> [<file>...]

Display lines beginning with a specified string.

Options:
 -a, --alternative        use the alternative dictionary
 -d, --alphanum           compare only blanks and alphanumeric characters
 -f, --ignore-case        ignore case differences when comparing
 -t, --terminate <char>   define the string-termination character

 -h, --help               display this help
 -V, --version            display version
`

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "alternative"},
		{Short: 'd', Long: "alphanum"},
		{Short: 'f', Long: "ignore-case"},
		{Short: 't', Long: "terminate", Arg: tool.RequiredArg},
		{Short: 'h', Long: "help"},
		{Short: 'V', Long: "version"},
	},
	Help:      help,
	UsageExit: 1,
}

const (
	dictWords = "/usr/share/dict/words"
	dictWeb2  = "/usr/share/dict/web2"
)

type looker struct {
	key         []byte
	alnum, fold bool
}

// Main runs look.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	file := dictWords
	if w := env.Env("WORDLIST"); w != "" {
		file = w
	}
	l := &looker{}
	term := -1
	for _, f := range flags {
		switch f.Name {
		case "a":
			file = dictWeb2
		case "d":
			l.alnum = true
		case "f":
			l.fold = true
		case "t":
			if f.Arg == "" {
				term = 0
			} else {
				term = int(f.Arg[0])
			}
		case "h":
			return env.Help(help)
		case "V":
			return env.PrintVersion()
		}
	}
	switch len(args) {
	case 1:
		l.alnum, l.fold = true, true
	case 2:
		file = args[1]
	default:
		return env.Usage(1, "bad usage")
	}
	key := []byte(args[0])
	if term >= 0 {
		if i := bytes.IndexByte(key[min(1, len(key)):], byte(term)); i >= 0 {
			key = key[:i+2]
		}
	}
	// The key is compared as the lines are: filtered and folded.
	for _, c := range key {
		if l.alnum && !isAlnumOrBlank(c) {
			continue
		}
		l.key = append(l.key, l.foldByte(c))
	}
	data, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(env.Stderr, "%s: %s: %s\n", env.Name(), file, tool.Strerror(err))
		return 1
	}
	front := l.binarySearch(data, 0, len(data))
	if p := l.linearSearch(data, front, len(data)); p >= 0 {
		l.printFrom(env, data, p, len(data))
		return 0
	}
	return 1
}

func isAlnumOrBlank(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == ' ' || c == '\t'
}

func (l *looker) foldByte(c byte) byte {
	if l.fold && c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// compare compares the key with the line at data[p:back]: 0 if the line
// begins with the key, -1 if the key sorts before it, 1 if after.
func (l *looker) compare(data []byte, p, back int) int {
	k := 0
	for ; k < len(l.key) && p < back && data[p] != '\n'; p++ {
		c := data[p]
		if l.alnum && !isAlnumOrBlank(c) {
			continue
		}
		c = l.foldByte(c)
		if l.key[k] != c {
			if l.key[k] > c {
				return 1
			}
			return -1
		}
		k++
	}
	if k < len(l.key) {
		return 1
	}
	return 0
}

// pastNewline returns the position after the next newline from p.
func pastNewline(data []byte, p, back int) int {
	for p < back && data[p] != '\n' {
		p++
	}
	if p < back {
		p++
	}
	return p
}

// binarySearch narrows [front, back) to where lines beginning with the
// key would start: each probe is the line after the midpoint.
func (l *looker) binarySearch(data []byte, front, back int) int {
	p := pastNewline(data, front+(back-front)/2, back)
	for p < back && back > front {
		if l.compare(data, p, back) > 0 {
			front = p
		} else {
			back = p
		}
		p = pastNewline(data, front+(back-front)/2, back)
	}
	return front
}

// linearSearch finds the first matching line from front, or -1 once a
// line sorts after the key.
func (l *looker) linearSearch(data []byte, front, back int) int {
	for front < back {
		switch l.compare(data, front, back) {
		case 0:
			return front
		case -1:
			return -1
		}
		front = pastNewline(data, front, back)
	}
	return -1
}

func (l *looker) printFrom(env *tool.Env, data []byte, front, back int) {
	w := env.Out()
	for front < back && l.compare(data, front, back) == 0 {
		end := pastNewline(data, front, back)
		w.Write(data[front:end])
		front = end
	}
}
