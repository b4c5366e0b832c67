// Package dos2unix implements dos2unix and unix2dos: convert line breaks
// between DOS (CR LF) and Unix (LF), in place, into a new file (-n) or from
// standard input to standard output, as dos2unix 7.4 does.
package dos2unix

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// UpstreamVersion is the dos2unix release whose behaviour the commands
// follow.
const UpstreamVersion = "7.4.3"

type conv struct {
	name   string // the command's name
	format string // "Unix" or "DOS"
	toUnix bool
}

// Dos2unix runs dos2unix.
func Dos2unix(env *tool.Env) int { return run(env, conv{"dos2unix", "Unix", true}) }

// Unix2dos runs unix2dos.
func Unix2dos(env *tool.Env) int { return run(env, conv{"unix2dos", "DOS", false}) }

var bom = []byte("\xef\xbb\xbf")

// binary reports whether data holds a byte dos2unix takes as binary: a
// control character other than tab, LF, FF, CR, backspace, ^Z and ESC.
func binary(data []byte) (byte, int, bool) {
	line := 1
	for _, c := range data {
		if c == '\n' {
			line++
		}
		if c < 32 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != 0x1a && c != 0x1b && c != '\b' {
			return c, line, true
		}
	}
	return 0, 0, false
}

// convert converts data; dos2unix drops a UTF-8 byte order mark.
func (cv conv) convert(data []byte) []byte {
	if cv.toUnix {
		data = bytes.TrimPrefix(data, bom)
		return bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	var out bytes.Buffer
	out.Grow(len(data) + len(data)/16)
	for i, c := range data {
		if c == '\n' && (i == 0 || data[i-1] != '\r') {
			out.WriteByte('\r')
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}

func run(env *tool.Env, cv conv) int {
	quiet, force, newFile := false, false, false
	var files []string
	for _, a := range env.Args[1:] {
		switch a {
		case "-q", "--quiet":
			quiet = true
		case "-f", "--force":
			force = true
		case "-n", "--newfile":
			newFile = true
		case "-o", "--oldfile":
			newFile = false
		case "-k", "--keepdate", "-s", "--safe", "-r", "--remove-bom", "--allow-chown", "--no-allow-chown":
		case "-h", "--help":
			fmt.Fprintf(env.Out(), "Usage: %s [options] [file ...] [-n infile outfile ...]\n -f, --force           force conversion of binary files\n -h, --help            display this help text\n -k, --keepdate        keep output file date\n -n, --newfile         write to new file\n -o, --oldfile         write to old file (default)\n -q, --quiet           quiet mode, suppress all warnings\n -V, --version         display version number\n", cv.name)
			return 0
		case "-V", "--version":
			fmt.Fprintf(env.Out(), "%s %s (wasmsand %s)\n", cv.name, UpstreamVersion, tool.Version)
			return 0
		default:
			if len(a) > 1 && a[0] == '-' {
				fmt.Fprintf(env.Stderr, "%s: option '%s' is invalid or not supported.\n", cv.name, a)
				return 1
			}
			files = append(files, a)
		}
	}
	if len(files) == 0 {
		data, err := io.ReadAll(env.Stdin)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: %s\n", cv.name, tool.Strerror(err))
			return 2
		}
		if c, line, bin := binary(data); bin && !force {
			fmt.Fprintf(env.Stderr, "%s: Binary symbol 0x%02X found at line %d\n%s: Skipping binary file stdin\n", cv.name, c, line, cv.name)
			return 1
		}
		env.Out().Write(cv.convert(data))
		return 0
	}
	status := 0
	for i := 0; i < len(files); i++ {
		in, out := files[i], files[i]
		if newFile {
			if i+1 >= len(files) {
				fmt.Fprintf(env.Stderr, "%s: target of file %s not specified in new-file mode\n", cv.name, in)
				return 1
			}
			out = files[i+1]
			i++
		}
		fi, err := os.Stat(in)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: %s: %s\n%s: Skipping %s, not a regular file.\n", cv.name, in, tool.Strerror(err), cv.name, in)
			status = 2
			continue
		}
		if !fi.Mode().IsRegular() {
			fmt.Fprintf(env.Stderr, "%s: Skipping %s, not a regular file.\n", cv.name, in)
			continue
		}
		data, err := os.ReadFile(in)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: %s: %s\n", cv.name, in, tool.Strerror(err))
			status = 2
			continue
		}
		if c, line, bin := binary(data); bin && !force {
			if !quiet {
				fmt.Fprintf(env.Stderr, "%s: Binary symbol 0x%02X found at line %d\n%s: Skipping binary file %s\n", cv.name, c, line, cv.name, in)
			}
			continue
		}
		if !quiet {
			if newFile {
				fmt.Fprintf(env.Stderr, "%s: converting file %s to file %s in %s format...\n", cv.name, in, out, cv.format)
			} else {
				fmt.Fprintf(env.Stderr, "%s: converting file %s to %s format...\n", cv.name, in, cv.format)
			}
		}
		if err := os.WriteFile(out, cv.convert(data), fi.Mode().Perm()); err != nil {
			fmt.Fprintf(env.Stderr, "%s: %s: %s\n", cv.name, out, tool.Strerror(err))
			status = 2
		}
	}
	return status
}
