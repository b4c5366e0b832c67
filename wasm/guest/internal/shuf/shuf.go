// Package shuf implements shuf: write a random permutation of its input
// lines. Randomness comes from the runtime's source, which the sandbox
// seeds, or from --random-source.
package shuf

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'e', Long: "echo"},
		{Short: 'i', Long: "input-range", Arg: tool.RequiredArg},
		{Short: 'n', Long: "head-count", Arg: tool.RequiredArg},
		{Short: 'o', Long: "output", Arg: tool.RequiredArg},
		{Long: "random-source", Arg: tool.RequiredArg},
		{Short: 'r', Long: "repeat"},
		{Short: 'z', Long: "zero-terminated"},
	},
	Help: `Usage: shuf [OPTION]... [FILE]
  or:  shuf -e [OPTION]... [ARG]...
  or:  shuf -i LO-HI [OPTION]...
Write a random permutation of the input lines to standard output.

With no FILE, or when FILE is -, read standard input.

  -e, --echo                treat each ARG as an input line
  -i, --input-range=LO-HI   treat each number LO through HI as an input line
  -n, --head-count=COUNT    output at most COUNT lines
  -o, --output=FILE         write result to FILE instead of standard output
      --random-source=FILE  get random bytes from FILE
  -r, --repeat              output lines can be repeated
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs shuf.
func Main(env *tool.Env) int {
	flags, ops, code, done := spec.Parse(env)
	if done {
		return code
	}
	echo, repeat := false, false
	rangeSet := false
	var lo, hi uint64
	count := int64(-1)
	output, source := "", ""
	eol := byte('\n')
	for _, f := range flags {
		switch f.Name {
		case "e":
			echo = true
		case "i":
			if rangeSet {
				env.Errorf("multiple -i options specified")
				return 1
			}
			a, b, ok := strings.Cut(f.Arg, "-")
			var err1, err2 error
			lo, err1 = strconv.ParseUint(a, 10, 64)
			hi, err2 = strconv.ParseUint(b, 10, 64)
			if !ok || err1 != nil || err2 != nil || hi+1 < lo {
				env.Errorf("invalid input range: %s", tool.Quote(f.Arg))
				return 1
			}
			rangeSet = true
		case "n":
			n, err := strconv.ParseInt(f.Arg, 10, 64)
			if err != nil || n < 0 {
				env.Errorf("invalid line count: %s", tool.Quote(f.Arg))
				return 1
			}
			if count < 0 || n < count {
				count = n
			}
		case "o":
			output = f.Arg
		case "random-source":
			source = f.Arg
		case "r":
			repeat = true
		case "z":
			eol = 0
		}
	}
	if echo && rangeSet {
		return env.Usage(1, "cannot combine -e and -i options")
	}
	var lines [][]byte
	switch {
	case echo:
		for _, a := range ops {
			lines = append(lines, []byte(a))
		}
	case rangeSet:
		if len(ops) > 0 {
			return env.Usage(1, "extra operand %s", tool.Quote(ops[0]))
		}
		for v := lo; v <= hi && hi+1 > lo; v++ {
			lines = append(lines, strconv.AppendUint(nil, v, 10))
			if v == hi {
				break
			}
		}
	default:
		if len(ops) > 1 {
			return env.Usage(1, "extra operand %s", tool.Quote(ops[1]))
		}
		name := "-"
		if len(ops) == 1 {
			name = ops[0]
		}
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			return 1
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			env.Errorf("read error: %s", tool.Strerror(err))
			return 1
		}
		for len(data) > 0 {
			i := bytes.IndexByte(data, eol)
			if i < 0 {
				lines = append(lines, data)
				break
			}
			lines = append(lines, data[:i])
			data = data[i+1:]
		}
	}
	rng, err := newRand(source)
	if err != nil {
		env.Errorf("%s: %s", source, tool.Strerror(err))
		return 1
	}
	w := env.Out()
	var file *os.File
	if output != "" {
		file, err = os.Create(output)
		if err != nil {
			env.Errorf("%s: %s", output, tool.Strerror(err))
			return 1
		}
		w = bufio.NewWriterSize(file, 64<<10)
	}
	emit := func(l []byte) {
		w.Write(l)
		w.WriteByte(eol)
	}
	if repeat {
		if len(lines) == 0 {
			if count != 0 {
				env.Errorf("no lines to repeat")
				return 1
			}
			return 0
		}
		for i := int64(0); count < 0 || i < count; i++ {
			emit(lines[rng.IntN(len(lines))])
			if _, err := w.Write(nil); err != nil {
				return env.WriteFailed(err)
			}
		}
	} else {
		n := len(lines)
		if count >= 0 && int64(n) > count {
			n = int(count)
		}
		// Partial Fisher-Yates: the first n places.
		for i := 0; i < n; i++ {
			j := i + rng.IntN(len(lines)-i)
			lines[i], lines[j] = lines[j], lines[i]
			emit(lines[i])
		}
	}
	if file != nil {
		err := w.Flush()
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			env.Errorf("%s: %s", output, tool.Strerror(err))
			return 1
		}
	}
	if _, err := w.Write(nil); err != nil {
		return env.WriteFailed(err)
	}
	return 0
}

// newRand returns the generator: seeded from the file's bytes, or from
// the process's random source (tool.Seed).
func newRand(source string) (*rand.Rand, error) {
	if source == "" {
		return rand.New(rand.NewPCG(tool.Seed(), tool.Seed())), nil
	}
	f, err := os.Open(source)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	h := fnv.New128a()
	h.Write(buf[:n])
	sum := h.Sum(nil)
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:]))), nil
}
