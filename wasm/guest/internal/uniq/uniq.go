// Package uniq implements uniq: report or omit repeated adjacent lines.
package uniq

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strconv"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/wc"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'c', Long: "count"},
		{Short: 'd', Long: "repeated"},
		{Short: 'D'},
		{Long: "all-repeated", Arg: tool.OptionalArg},
		{Short: 'f', Long: "skip-fields", Arg: tool.RequiredArg},
		{Long: "group", Arg: tool.OptionalArg},
		{Short: 'i', Long: "ignore-case"},
		{Short: 's', Long: "skip-chars", Arg: tool.RequiredArg},
		{Short: 'u', Long: "unique"},
		{Short: 'z', Long: "zero-terminated"},
		{Short: 'w', Long: "check-chars", Arg: tool.RequiredArg},
	},
	Help: `Usage: uniq [OPTION]... [INPUT [OUTPUT]]
Filter adjacent matching lines from INPUT (or standard input),
writing to OUTPUT (or standard output).

With no options, matching lines are merged to the first occurrence.

  -c, --count           prefix lines by the number of occurrences
  -d, --repeated        only print duplicate lines, one for each group
  -D                    print all duplicate lines
      --all-repeated[=METHOD]  like -D, but allow separating groups
                                 with an empty line;
                                 METHOD={none(default),prepend,separate}
  -f, --skip-fields=N   avoid comparing the first N fields
      --group[=METHOD]  show all items, separating groups with an empty line;
                          METHOD={separate(default),prepend,append,both}
  -i, --ignore-case     ignore differences in case when comparing
  -s, --skip-chars=N    avoid comparing the first N characters
  -u, --unique          only print unique lines
  -z, --zero-terminated     line delimiter is NUL, not newline
  -w, --check-chars=N   compare no more than N characters in lines
      --help        display this help and exit
      --version     output version information and exit

A field is a run of blanks (usually spaces and/or TABs), then non-blank
characters.  Fields are skipped before chars.
`}

type uniq struct {
	count, repeated, unique, all, ignoreCase bool
	allMethod, group                         string
	skipFields, skipChars, checkChars        int64
	delim                                    byte
}

// Main runs uniq.
func Main(env *tool.Env) int {
	flags, ops, code, done := spec.Parse(env)
	if done {
		return code
	}
	u := &uniq{delim: '\n', checkChars: -1}
	for _, f := range flags {
		switch f.Name {
		case "c":
			u.count = true
		case "d":
			u.repeated = true
		case "D", "all-repeated":
			u.all = true
			u.allMethod = "none"
			if f.HasArg {
				switch f.Arg {
				case "none", "prepend", "separate":
					u.allMethod = f.Arg
				default:
					env.Errorf("invalid argument %s for '--all-repeated'", tool.Quote(f.Arg))
					return env.Usage(1, "Valid arguments are:\n  - 'none'\n  - 'prepend'\n  - 'separate'")
				}
			}
		case "group":
			u.group = "separate"
			if f.HasArg {
				switch f.Arg {
				case "separate", "prepend", "append", "both":
					u.group = f.Arg
				default:
					env.Errorf("invalid argument %s for '--group'", tool.Quote(f.Arg))
					return env.Usage(1, "")
				}
			}
		case "f", "s", "w":
			v, err := strconv.ParseInt(f.Arg, 10, 64)
			if err != nil || v < 0 {
				what := map[string]string{"f": "number of fields to skip", "s": "number of bytes to skip", "w": "number of bytes to compare"}[f.Name]
				env.Errorf("%s: invalid %s", f.Arg, what)
				return 1
			}
			switch f.Name {
			case "f":
				u.skipFields = v
			case "s":
				u.skipChars = v
			default:
				u.checkChars = v
			}
		case "i":
			u.ignoreCase = true
		case "u":
			u.unique = true
		case "z":
			u.delim = 0
		}
	}
	if u.group != "" && (u.count || u.repeated || u.unique || u.all) {
		env.Errorf("--group is mutually exclusive with -c/-d/-D/-u")
		return env.Usage(1, "")
	}
	if u.all && u.count {
		env.Errorf("printing all duplicated lines and repeat counts is meaningless")
		return env.Usage(1, "")
	}
	if len(ops) > 2 {
		return env.Usage(1, "extra operand %s", tool.Quote(ops[2]))
	}
	in := "-"
	if len(ops) > 0 {
		in = ops[0]
	}
	r, err := env.Open(in)
	if err != nil {
		env.Errorf("%s: %s", in, tool.Strerror(err))
		return 1
	}
	defer r.Close()
	out := env.Out()
	var file *os.File
	if len(ops) > 1 && ops[1] != "-" {
		file, err = os.Create(ops[1])
		if err != nil {
			env.Errorf("%s: %s", ops[1], tool.Strerror(err))
			return 1
		}
		out = bufio.NewWriterSize(file, 64<<10)
	}
	err = u.run(r, out)
	if file != nil {
		if ferr := out.Flush(); ferr != nil && err == nil {
			err = ferr
		}
		file.Close()
	}
	if _, werr := out.Write(nil); werr != nil {
		return env.WriteFailed(werr)
	}
	if err != nil {
		env.Errorf("%s: %s", in, tool.Strerror(err))
		return 1
	}
	return 0
}

// key is the part of line that is compared.
func (u *uniq) key(line []byte) []byte {
	i := 0
	for f := int64(0); f < u.skipFields && i < len(line); f++ {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			i++
		}
	}
	i = int(min(int64(len(line)), int64(i)+u.skipChars))
	k := line[i:]
	if u.checkChars >= 0 && int64(len(k)) > u.checkChars {
		k = k[:u.checkChars]
	}
	return k
}

func (u *uniq) equal(a, b []byte) bool {
	if u.skipFields == 0 && u.skipChars == 0 && u.checkChars < 0 && !u.ignoreCase {
		return bytes.Equal(a, b)
	}
	ka, kb := u.key(a), u.key(b)
	if u.ignoreCase {
		return bytes.EqualFold(ka, kb)
	}
	return bytes.Equal(ka, kb)
}

func (u *uniq) run(r io.Reader, out *bufio.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	// The line reader reads through br (bufio keeps a big enough reader).
	lr := tool.NewLineReader(br, u.delim)
	var prev []byte // the first line of the current group, copied
	have := false
	var n int64
	groups := 0
	flush := func() {
		if !have {
			return
		}
		switch {
		case u.group != "":
		case u.all:
			// lines were written as the group went
		case u.repeated && n < 2, u.unique && n > 1:
		default:
			// One write of the whole output line, built in the writer's
			// own free space: under wasm each call costs more than the copy.
			b := out.AvailableBuffer()
			if u.count {
				b = padCount(b, n)
			}
			b = append(b, prev...)
			out.Write(append(b, u.delim))
		}
	}
	if !u.all && u.group == "" {
		// One line out per group at most: compare the lines of whole
		// buffers in place, copying a group's first line only when a
		// buffer ends inside its group. What is left (a last line
		// without its end, a line longer than the buffer) goes to the
		// loop below.
		var held []byte
		for {
			buf, err := br.Peek(max(br.Buffered(), 1))
			end := bytes.LastIndexByte(buf, u.delim) + 1
			if end == 0 {
				if err != nil || len(buf) >= br.Size() {
					break
				}
				if _, err := br.Peek(len(buf) + 1); err != nil {
					break
				}
				continue
			}
			for lines := buf[:end]; len(lines) > 0; {
				i := wc.IndexByte(lines, u.delim)
				line := lines[:i]
				lines = lines[i+1:]
				if have && u.equal(prev, line) {
					n++
					continue
				}
				flush()
				prev, n, have = line, 1, true
			}
			// prev may lie in buf, which the next read overwrites.
			held = append(held[:0], prev...)
			prev = held
			br.Discard(end)
		}
	}
	for {
		line, err := lr.Line()
		if len(line) == 0 {
			flush()
			if u.group != "" && have && (u.group == "append" || u.group == "both") {
				out.WriteByte(u.delim)
			}
			if err == io.EOF {
				err = nil
			}
			return err
		}
		if line[len(line)-1] == u.delim {
			line = line[:len(line)-1]
		}
		same := have && u.equal(prev, line)
		if !same {
			flush()
			if u.group != "" {
				if have && (u.group == "separate" || u.group == "both" || u.group == "append") {
					out.WriteByte(u.delim)
				} else if !have && (u.group == "prepend" || u.group == "both") {
					out.WriteByte(u.delim)
				} else if have && u.group == "prepend" {
					out.WriteByte(u.delim)
				}
			}
			prev, n, have = append(prev[:0], line...), 1, true
		} else {
			n++
			if u.all {
				if n == 2 {
					if groups > 0 && u.allMethod == "separate" || u.allMethod == "prepend" {
						out.WriteByte(u.delim)
					}
					groups++
					out.Write(prev)
					out.WriteByte(u.delim)
				}
				out.Write(line)
				out.WriteByte(u.delim)
			}
		}
		if u.group != "" {
			out.Write(line)
			out.WriteByte(u.delim)
		}
	}
}

// padCount appends n right-aligned in seven columns and a space, as
// GNU's "%7jd ", to dst.
func padCount(dst []byte, n int64) []byte {
	var d [20]byte
	i := len(d)
	for v := uint64(n); ; v /= 10 {
		i--
		d[i] = byte('0' + v%10)
		if v < 10 {
			break
		}
	}
	for k := len(d) - i; k < 7; k++ {
		dst = append(dst, ' ')
	}
	dst = append(dst, d[i:]...)
	return append(dst, ' ')
}
