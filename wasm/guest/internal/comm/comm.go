// Package comm implements comm: compare two sorted files line by line.
package comm

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: '1'}, {Short: '2'}, {Short: '3'},
		{Long: "check-order"},
		{Long: "nocheck-order"},
		{Long: "output-delimiter", Arg: tool.RequiredArg},
		{Long: "total"},
		{Short: 'z', Long: "zero-terminated"},
	},
	Help: `Usage: comm [OPTION]... FILE1 FILE2
Compare sorted files FILE1 and FILE2 line by line.

When FILE1 or FILE2 (not both) is -, read standard input.

With no options, produce three-column output.  Column one contains
lines unique to FILE1, column two contains lines unique to FILE2,
and column three contains lines common to both files.

  -1                      suppress column 1 (lines unique to FILE1)
  -2                      suppress column 2 (lines unique to FILE2)
  -3                      suppress column 3 (lines that appear in both files)

      --check-order       check that the input is correctly sorted, even
                            if all input lines are pairable
      --nocheck-order     do not check that the input is correctly sorted
      --output-delimiter=STR  separate columns with STR
      --total             output a summary
  -z, --zero-terminated   line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`}

type input struct {
	br       *bufio.Reader
	line     []byte
	prev     []byte
	ok       bool
	disorder bool
}

func (in *input) next(eol byte) error {
	in.prev = append(in.prev[:0], in.line...)
	l, err := in.br.ReadBytes(eol)
	if len(l) == 0 {
		in.ok = false
		if err == io.EOF {
			return nil
		}
		return err
	}
	in.line, in.ok = bytes.TrimSuffix(l, []byte{eol}), true
	return nil
}

// Main runs comm.
func Main(env *tool.Env) int {
	flags, ops, code, done := spec.Parse(env)
	if done {
		return code
	}
	var hide [4]bool
	check := 0 // 0 default, 1 always, -1 never
	delim := "\t"
	delimSet := false
	total := false
	eol := byte('\n')
	for _, f := range flags {
		switch f.Name {
		case "1", "2", "3":
			hide[f.Name[0]-'0'] = true
		case "check-order":
			check = 1
		case "nocheck-order":
			check = -1
		case "output-delimiter":
			if delimSet && f.Arg != delim {
				env.Errorf("multiple output delimiters specified")
				return 1
			}
			delim, delimSet = f.Arg, true
			if delim == "" {
				delim = "\x00"
			}
		case "total":
			total = true
		case "z":
			eol = 0
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
	var ins [2]*input
	for i, name := range ops {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			return 1
		}
		defer r.Close()
		ins[i] = &input{br: bufio.NewReaderSize(r, 64<<10)}
		if err := ins[i].next(eol); err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			return 1
		}
		ins[i].prev = nil
	}
	out := env.Out()
	var counts [4]int64
	status := 0
	emit := func(col int, line []byte) {
		counts[col]++
		if hide[col] {
			return
		}
		for c := 1; c < col; c++ {
			if !hide[c] {
				out.WriteString(delim)
			}
		}
		out.Write(line)
		out.WriteByte(eol)
	}
	checkOrder := func(i int) bool {
		in := ins[i]
		if check < 0 || in.disorder || in.prev == nil || !in.ok {
			return true
		}
		if bytes.Compare(in.prev, in.line) > 0 {
			in.disorder = true
			out.Flush()
			fmt.Fprintf(env.Stderr, "comm: file %d is not in sorted order\n", i+1)
			status = 1
			if check > 0 {
				return false
			}
		}
		return true
	}
	for ins[0].ok || ins[1].ok {
		var c int
		switch {
		case !ins[0].ok:
			c = 1
		case !ins[1].ok:
			c = -1
		default:
			c = bytes.Compare(ins[0].line, ins[1].line)
		}
		var err error
		switch {
		case c < 0:
			emit(1, ins[0].line)
			err = ins[0].next(eol)
			if !checkOrder(0) {
				return 1
			}
		case c > 0:
			emit(2, ins[1].line)
			err = ins[1].next(eol)
			if !checkOrder(1) {
				return 1
			}
		default:
			emit(3, ins[0].line)
			err = ins[0].next(eol)
			if err == nil {
				err = ins[1].next(eol)
			}
			if !checkOrder(0) || !checkOrder(1) {
				return 1
			}
		}
		if err != nil {
			env.Errorf("%s", tool.Strerror(err))
			return 1
		}
		if _, werr := out.Write(nil); werr != nil {
			return env.WriteFailed(werr)
		}
	}
	if total {
		fmt.Fprintf(out, "%d%s%d%s%d%stotal%c", counts[1], delim, counts[2], delim, counts[3], delim, eol)
	}
	if status != 0 {
		out.Flush()
		fmt.Fprintf(env.Stderr, "comm: input is not in sorted order\n")
	}
	return status
}
