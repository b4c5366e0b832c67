// Package sum implements sum: print the BSD (16-bit, 1 KiB blocks) or
// System V (512-byte blocks) checksum and block count of files.
package sum

import (
	"bufio"
	"fmt"
	"io"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = &tool.Spec{
	Options: []tool.Option{
		{Short: 'r'},
		{Short: 's', Long: "sysv"},
	},
	Help: `Usage: sum [OPTION]... [FILE]...
Print or check BSD (16-bit) checksums.

With no FILE, or when FILE is -, read standard input.

  -r              use BSD sum algorithm (the default), use 1K blocks
  -s, --sysv      use System V sum algorithm, use 512 bytes blocks
      --help        display this help and exit
      --version     output version information and exit
`,
}

// Main is the sum command.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	sysv := false
	for _, f := range flags {
		sysv = f.Name == "s"
	}
	named := len(files) > 0
	if !named {
		files = []string{"-"}
	}
	status := 0
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			status = 1
			continue
		}
		var line string
		if sysv {
			line, err = sysvSum(r)
		} else {
			line, err = bsdSum(r)
		}
		r.Close()
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			status = 1
			continue
		}
		if named {
			line += " " + name
		}
		fmt.Fprintln(env.Out(), line)
	}
	return status
}

// bsdSum is the BSD checksum: a 16-bit sum rotated right one bit before
// each byte is added, with the size in 1 KiB blocks.
func bsdSum(r io.Reader) (string, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var sum uint32
	var n int64
	for {
		b, err := br.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		sum = (sum >> 1) + ((sum & 1) << 15)
		sum = (sum + uint32(b)) & 0xffff
		n++
	}
	return fmt.Sprintf("%05d %5d", sum, (n+1023)/1024), nil
}

// sysvSum is the System V checksum: the byte sum folded to 16 bits, with
// the size in 512-byte blocks.
func sysvSum(r io.Reader) (string, error) {
	buf := make([]byte, 64<<10)
	var s uint64
	var n int64
	for {
		k, err := r.Read(buf)
		for _, b := range buf[:k] {
			s += uint64(b)
		}
		n += int64(k)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	r32 := (s & 0xffff) + ((s & 0xffffffff) >> 16)
	sum := (r32 & 0xffff) + (r32 >> 16)
	return fmt.Sprintf("%d %d", sum, (n+511)/512), nil
}
