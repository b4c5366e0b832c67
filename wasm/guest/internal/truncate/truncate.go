// Package truncate implements truncate: shrink or extend the size of files.
package truncate

import (
	"errors"
	"io/fs"
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'c', Long: "no-create"},
		{Short: 'o', Long: "io-blocks"},
		{Short: 'r', Long: "reference", Arg: tool.RequiredArg},
		{Short: 's', Long: "size", Arg: tool.RequiredArg},
	},
	Help: `Usage: truncate OPTION... FILE...
Shrink or extend the size of each FILE to the specified size

A FILE argument that does not exist is created.

If a FILE is larger than the specified size, the extra data is lost.
If a FILE is shorter, it is extended and the sparse extended part (hole)
reads as zero bytes.

  -c, --no-create        do not create any files
  -o, --io-blocks        treat SIZE as number of IO blocks instead of bytes
  -r, --reference=RFILE  base size on RFILE
  -s, --size=SIZE        set or adjust the file size by SIZE bytes
      --help        display this help and exit
      --version     output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y,R,Q (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

SIZE may also be prefixed by one of the following modifying characters:
'+' extend by, '-' reduce by, '<' at most, '>' at least,
'/' round down to multiple of, '%' round up to multiple of.
`}

// blockSize is the I/O block size -o counts in.
const blockSize = 4096

// Main runs truncate.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	var noCreate, ioBlocks bool
	var ref, sizeArg string
	haveSize := false
	for _, f := range flags {
		switch f.Name {
		case "c":
			noCreate = true
		case "o":
			ioBlocks = true
		case "r":
			ref = f.Arg
		case "s":
			sizeArg, haveSize = f.Arg, true
		}
	}
	var op byte
	var size int64
	if haveSize {
		s := sizeArg
		if s != "" && (s[0] == '+' || s[0] == '-' || s[0] == '<' || s[0] == '>' || s[0] == '/' || s[0] == '%') {
			op, s = s[0], s[1:]
		}
		v, ok := tool.ParseSize(s)
		if !ok {
			env.Errorf("Invalid number: %s", tool.Quote(sizeArg))
			return 1
		}
		size = v
		if ioBlocks {
			size *= blockSize
		}
		if (op == '/' || op == '%') && size == 0 {
			env.Errorf("division by zero")
			return 1
		}
	}
	if !haveSize && ref == "" {
		return env.Usage(1, "you must specify either '--size' or '--reference'")
	}
	if ioBlocks && !haveSize {
		return env.Usage(1, "'--io-blocks' was specified but '--size' was not")
	}
	if ref != "" && haveSize && op == 0 {
		return env.Usage(1, "you must specify a relative '--size' with '--reference'")
	}
	var refSize int64 = -1
	if ref != "" {
		fi, err := os.Stat(ref)
		if err != nil {
			env.Errorf("cannot stat %s: %s", tool.Quote(ref), tool.Strerror(err))
			return 1
		}
		refSize = fi.Size()
		if !haveSize {
			size = refSize
		}
	}
	if len(files) == 0 {
		return env.Usage(1, "missing file operand")
	}
	status := 0
	for _, name := range files {
		fi, err := os.Stat(name)
		if errors.Is(err, fs.ErrNotExist) {
			if noCreate {
				continue
			}
			f, cerr := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o666)
			if cerr != nil {
				env.Errorf("cannot open %s for writing: %s", tool.Quote(name), tool.Strerror(cerr))
				status = 1
				continue
			}
			f.Close()
			fi, err = os.Stat(name)
		}
		if err != nil {
			env.Errorf("cannot open %s for writing: %s", tool.Quote(name), tool.Strerror(err))
			status = 1
			continue
		}
		if fi.IsDir() {
			env.Errorf("cannot open %s for writing: %s", tool.Quote(name), "Is a directory")
			status = 1
			continue
		}
		cur := fi.Size()
		if refSize >= 0 {
			cur = refSize
		}
		n := size
		switch op {
		case '+':
			n = cur + size
		case '-':
			n = max(cur-size, 0)
		case '<':
			n = min(cur, size)
		case '>':
			n = max(cur, size)
		case '/':
			n = cur / size * size
		case '%':
			n = (cur + size - 1) / size * size
		}
		if err := os.Truncate(name, n); err != nil {
			env.Errorf("failed to truncate %s at %d bytes: %s", tool.Quote(name), n, tool.Strerror(err))
			status = 1
		}
	}
	return status
}
