// Package strings implements strings: print the runs of printable
// characters in files.
package strings

import (
	"bufio"
	"io"
	"strconv"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "all"},
		{Short: 'd', Long: "data"},
		{Short: 'f', Long: "print-file-name"},
		{Short: 'n', Long: "bytes", Arg: tool.RequiredArg},
		{Short: 't', Long: "radix", Arg: tool.RequiredArg},
		{Short: 'o'},
		{Short: 'w', Long: "include-all-whitespace"},
		{Short: 'e', Long: "encoding", Arg: tool.RequiredArg},
		{Short: 's', Long: "output-separator", Arg: tool.RequiredArg},
	},
	Help: `Usage: strings [option(s)] [file(s)]
 Display printable strings in [file(s)] (stdin by default)
 The options are:
  -a - --all                Scan the entire file, not just the data section [default]
  -d --data                 Only scan the data sections in the file
  -f --print-file-name      Print the name of the file before each string
  -n <number>               Locate & print any sequence of at least <number>
    --bytes=<number>         displayable characters.  (The default is 4).
  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16
  -w --include-all-whitespace Include all whitespace as valid string characters
  -o                        An alias for --radix=o
  -e --encoding={s,S}       Select character size and endianness:
                            s = 7-bit, S = 8-bit
  -s --output-separator=<string> String used to separate strings in output.
  -h --help                 Display this information
  -v -V --version           Print the program's version number
`}

// Main runs strings.
func Main(env *tool.Env) int {
	// "-NUM" is the old spelling of "-n NUM".
	for i, a := range env.Args[1:] {
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			env.Args[i+1] = "-n" + a[1:]
		}
	}
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	min := 4
	radix := 0
	printName, allWS, eightBit := false, false, false
	sep := "\n"
	for _, f := range flags {
		switch f.Name {
		case "n":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 1 {
				env.Errorf("invalid minimum string length %s", f.Arg)
				return 1
			}
			min = n
		case "t":
			switch f.Arg {
			case "o":
				radix = 8
			case "d":
				radix = 10
			case "x":
				radix = 16
			default:
				env.Errorf("invalid radix")
				return 1
			}
		case "o":
			radix = 8
		case "f":
			printName = true
		case "w":
			allWS = true
		case "e":
			switch f.Arg {
			case "s":
			case "S":
				eightBit = true
			default:
				env.Errorf("invalid encoding")
				return 1
			}
		case "s":
			sep = f.Arg
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	w := env.Out()
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("'%s': %s", name, tool.Strerror(err))
			status = 1
			continue
		}
		label := ""
		if printName {
			label = name
			if name == "-" {
				label = "{standard input}"
			}
			label += ": "
		}
		if err := scan(w, bufio.NewReaderSize(r, 64<<10), min, radix, label, sep, allWS, eightBit); err != nil {
			env.Errorf("%s: %s", name, tool.Strerror(err))
			status = 1
		}
		r.Close()
	}
	return status
}

func printable(c byte, allWS, eightBit bool) bool {
	switch {
	case c >= 0x20 && c < 0x7f, c == '\t':
		return true
	case allWS && (c == '\n' || c == '\r' || c == '\v' || c == '\f'):
		return true
	case eightBit && c >= 0x80:
		return true
	}
	return false
}

func scan(w *bufio.Writer, r *bufio.Reader, min, radix int, label, sep string, allWS, eightBit bool) error {
	run := make([]byte, 0, 256)
	var off, start int64
	flush := func() {
		if len(run) >= min {
			w.WriteString(label)
			switch radix {
			case 8:
				w.WriteString(pad(strconv.FormatInt(start, 8), 7) + " ")
			case 10:
				w.WriteString(pad(strconv.FormatInt(start, 10), 7) + " ")
			case 16:
				w.WriteString(pad(strconv.FormatInt(start, 16), 7) + " ")
			}
			w.Write(run)
			w.WriteString(sep)
		}
		run = run[:0]
	}
	for {
		c, err := r.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if printable(c, allWS, eightBit) {
			if len(run) == 0 {
				start = off
			}
			run = append(run, c)
		} else {
			flush()
		}
		off++
	}
	flush()
	return nil
}

func pad(s string, n int) string {
	for len(s) < n {
		s = " " + s
	}
	return s
}
