// Package join implements join: join lines of two sorted files on a
// common field.
package join

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Arg: tool.RequiredArg},
		{Short: 'e', Arg: tool.RequiredArg},
		{Short: 'i', Long: "ignore-case"},
		{Short: 'j', Arg: tool.RequiredArg},
		{Short: 'o', Arg: tool.RequiredArg},
		{Short: 't', Arg: tool.RequiredArg},
		{Short: 'v', Arg: tool.RequiredArg},
		{Short: '1', Arg: tool.RequiredArg},
		{Short: '2', Arg: tool.RequiredArg},
		{Long: "check-order"},
		{Long: "nocheck-order"},
		{Long: "header"},
		{Short: 'z', Long: "zero-terminated"},
	},
	Help: `Usage: join [OPTION]... FILE1 FILE2
For each pair of input lines with identical join fields, write a line to
standard output.  The default join field is the first, delimited by blanks.

When FILE1 or FILE2 (not both) is -, read standard input.

  -a FILENUM        also print unpairable lines from file FILENUM, where
                      FILENUM is 1 or 2, corresponding to FILE1 or FILE2
  -e STRING         replace missing (empty) input fields with STRING;
                      I.e., missing fields specified with '-12jo' options
  -i, --ignore-case  ignore differences in case when comparing fields
  -j FIELD          equivalent to '-1 FIELD -2 FIELD'
  -o FORMAT         obey FORMAT while constructing output line
  -t CHAR           use CHAR as input and output field separator
  -v FILENUM        like -a FILENUM, but suppress joined output lines
  -1 FIELD          join on this FIELD of file 1
  -2 FIELD          join on this FIELD of file 2
      --check-order   check that the input is correctly sorted, even
                      if all input lines are pairable
      --nocheck-order  do not check that the input is correctly sorted
      --header          treat the first line in each file as field headers,
                          print them without trying to pair them
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Unless -t CHAR is given, leading blanks separate fields and are ignored,
else fields are separated by CHAR.  Any FIELD is a field number counted
from 1.  FORMAT is one or more comma or blank separated specifications,
each being 'FILENUM.FIELD' or '0'.  Default FORMAT outputs the join field,
the remaining fields from FILE1, the remaining fields from FILE2, all
separated by CHAR.  If FORMAT is the keyword 'auto', then the first
line of each file determines the number of fields output for each line.

Important: FILE1 and FILE2 must be sorted on the join fields.
`}

type outSpec struct{ file, field int } // file 0 means the join field

type joiner struct {
	tab      int // -1 for blanks
	keys     [2]int
	ignore   bool
	print    [2]bool // -a
	suppress bool    // -v: no joined lines
	empty    string
	emptySet bool
	format   []outSpec
	auto     bool
	autoN    [2]int
	check    int // 0 default, 1 always, -1 never
	header   bool
	eol      byte
	names    [2]string
	disorder [2]bool
	unpaired bool
	out      *bufio.Writer
	env      *tool.Env
	failed   bool
}

type line struct {
	text   []byte
	fields [][]byte
	no     int
}

func (j *joiner) split(b []byte) [][]byte {
	var fs [][]byte
	if j.tab >= 0 {
		for {
			i := bytes.IndexByte(b, byte(j.tab))
			if i < 0 {
				return append(fs, b)
			}
			fs = append(fs, b[:i])
			b = b[i+1:]
		}
	}
	for {
		for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
			b = b[1:]
		}
		if len(b) == 0 {
			return fs
		}
		i := bytes.IndexAny(b, " \t")
		if i < 0 {
			return append(fs, b)
		}
		fs = append(fs, b[:i])
		b = b[i:]
	}
}

func (j *joiner) key(l *line, f int) []byte {
	k := j.keys[f]
	if k < len(l.fields) {
		return l.fields[k]
	}
	return nil
}

func (j *joiner) cmp(a, b []byte) int {
	if j.ignore {
		return bytes.Compare(bytes.ToLower(a), bytes.ToLower(b))
	}
	return bytes.Compare(a, b)
}

func parseField(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, false
	}
	return n - 1, true
}

// Main runs join.
func Main(env *tool.Env) int {
	flags, ops, code, done := spec.Parse(env)
	if done {
		return code
	}
	j := &joiner{tab: -1, eol: '\n', env: env}
	for _, f := range flags {
		switch f.Name {
		case "a", "v":
			if f.Arg != "1" && f.Arg != "2" {
				env.Errorf("invalid file number: %s", tool.Quote(f.Arg))
				return 1
			}
			j.print[f.Arg[0]-'1'] = true
			if f.Name == "v" {
				j.suppress = true
			}
		case "e":
			j.empty, j.emptySet = f.Arg, true
		case "i":
			j.ignore = true
		case "j", "1", "2":
			n, ok := parseField(f.Arg)
			if !ok {
				env.Errorf("invalid field number: %s", tool.Quote(f.Arg))
				return 1
			}
			switch f.Name {
			case "j":
				j.keys = [2]int{n, n}
			case "1":
				j.keys[0] = n
			case "2":
				j.keys[1] = n
			}
		case "o":
			if f.Arg == "auto" {
				j.auto = true
				continue
			}
			for _, s := range strings.FieldsFunc(f.Arg, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
				if s == "0" {
					j.format = append(j.format, outSpec{0, 0})
					continue
				}
				a, b, ok := strings.Cut(s, ".")
				n, okf := parseField(b)
				if !ok || (a != "1" && a != "2") || !okf {
					env.Errorf("invalid field specifier: %s", tool.Quote(s))
					return 1
				}
				j.format = append(j.format, outSpec{int(a[0] - '0'), n})
			}
		case "t":
			switch {
			case f.Arg == "":
				j.tab = '\n'
			case len(f.Arg) > 1 && f.Arg != `\0`:
				env.Errorf("multi-character tab %s", tool.Quote(f.Arg))
				return 1
			case f.Arg == `\0`:
				j.tab = 0
			default:
				j.tab = int(f.Arg[0])
			}
		case "check-order":
			j.check = 1
		case "nocheck-order":
			j.check = -1
		case "header":
			j.header = true
		case "z":
			j.eol = 0
		}
	}
	switch len(ops) {
	case 0:
		return env.Usage(1, "missing operand")
	case 1:
		return env.Usage(1, "missing operand after %s", tool.Quote(ops[0]))
	case 2:
	default:
		return env.Usage(1, "extra operand %s", tool.Quote(ops[2]))
	}
	var files [2][]*line
	for i, name := range ops {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			return 1
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			return 1
		}
		j.names[i] = name
		no := 0
		for len(data) > 0 {
			k := bytes.IndexByte(data, j.eol)
			var t []byte
			if k < 0 {
				t, data = data, nil
			} else {
				t, data = data[:k], data[k+1:]
			}
			no++
			files[i] = append(files[i], &line{text: t, fields: j.split(t), no: no})
		}
	}
	j.out = env.Out()
	if j.auto {
		for i := range files {
			if len(files[i]) > 0 {
				j.autoN[i] = len(files[i][0].fields)
			}
		}
	}
	a, b := files[0], files[1]
	if j.header && len(a) > 0 && len(b) > 0 {
		j.emit(a[0], b[0])
		a, b = a[1:], b[1:]
	} else if j.header {
		if len(a) > 0 {
			j.emit(a[0], nil)
			a = a[1:]
		} else if len(b) > 0 {
			j.emit(nil, b[0])
			b = b[1:]
		}
	}
	for len(a) > 0 || len(b) > 0 {
		if j.failed {
			return 1
		}
		var c int
		switch {
		case len(a) == 0:
			c = 1
		case len(b) == 0:
			c = -1
		default:
			c = j.cmp(j.key(a[0], 0), j.key(b[0], 1))
		}
		if c < 0 {
			j.unpairedLine(0, a[0])
			a = j.advance(0, a, 1)
			continue
		}
		if c > 0 {
			j.unpairedLine(1, b[0])
			b = j.advance(1, b, 1)
			continue
		}
		// Groups of equal keys.
		na, nb := 1, 1
		for na < len(a) && j.cmp(j.key(a[na], 0), j.key(a[0], 0)) == 0 {
			na++
		}
		for nb < len(b) && j.cmp(j.key(b[nb], 1), j.key(b[0], 1)) == 0 {
			nb++
		}
		if !j.suppress {
			for _, x := range a[:na] {
				for _, y := range b[:nb] {
					j.emit(x, y)
				}
			}
		}
		a = j.advance(0, a, na)
		b = j.advance(1, b, nb)
		if _, err := j.out.Write(nil); err != nil {
			return env.WriteFailed(err)
		}
	}
	if j.failed {
		return 1
	}
	if j.disorder[0] || j.disorder[1] {
		j.out.Flush()
		fmt.Fprintf(env.Stderr, "join: input is not in sorted order\n")
		return 1
	}
	return 0
}

// advance drops n lines of file f, checking that what follows is in order.
func (j *joiner) advance(f int, ls []*line, n int) []*line {
	last := ls[n-1]
	ls = ls[n:]
	if len(ls) > 0 && j.check >= 0 && !j.disorder[f] && j.cmp(j.key(last, f), j.key(ls[0], f)) > 0 {
		if j.check > 0 || j.unpaired || j.print[f] {
			j.disorder[f] = true
			j.out.Flush()
			fmt.Fprintf(j.env.Stderr, "join: %s:%d: is not sorted: %s\n", j.names[f], ls[0].no, ls[0].text)
			if j.check > 0 {
				j.failed = true
			}
		}
	}
	return ls
}

func (j *joiner) unpairedLine(f int, l *line) {
	j.unpaired = true
	if !j.print[f] {
		return
	}
	if f == 0 {
		j.emit(l, nil)
	} else {
		j.emit(nil, l)
	}
}

func (j *joiner) sep() {
	if j.tab >= 0 {
		j.out.WriteByte(byte(j.tab))
	} else {
		j.out.WriteByte(' ')
	}
}

// emit writes one output line from a and b (either may be nil).
func (j *joiner) emit(a, b *line) {
	get := func(l *line, i int) ([]byte, bool) {
		if l == nil || i >= len(l.fields) {
			return nil, false
		}
		return l.fields[i], true
	}
	put := func(v []byte, ok bool) {
		if !ok && j.emptySet {
			j.out.WriteString(j.empty)
			return
		}
		j.out.Write(v)
	}
	ls := [2]*line{a, b}
	if len(j.format) > 0 || j.auto {
		format := j.format
		if j.auto {
			format = []outSpec{{0, 0}}
			for f := 0; f < 2; f++ {
				for i := 0; i < j.autoN[f]; i++ {
					if i != j.keys[f] {
						format = append(format, outSpec{f + 1, i})
					}
				}
			}
		}
		for i, s := range format {
			if i > 0 {
				j.sep()
			}
			if s.file == 0 {
				if a != nil {
					put(get(a, j.keys[0]))
				} else {
					put(get(b, j.keys[1]))
				}
				continue
			}
			put(get(ls[s.file-1], s.field))
		}
		j.out.WriteByte(j.eol)
		return
	}
	if a != nil {
		put(get(a, j.keys[0]))
	} else {
		put(get(b, j.keys[1]))
	}
	for f := 0; f < 2; f++ {
		l := ls[f]
		if l == nil {
			continue
		}
		for i, v := range l.fields {
			if i == j.keys[f] {
				continue
			}
			j.sep()
			j.out.Write(v)
		}
	}
	j.out.WriteByte(j.eol)
}
