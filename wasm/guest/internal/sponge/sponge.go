// Package sponge implements moreutils' sponge: soak up all of standard
// input, then write it to a file (or standard output), so a pipeline can
// rewrite the file it reads.
package sponge

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const usage = "sponge [-a] <file>: soak up all input from stdin and write it to <file>\n"

// Main runs sponge. Its options are getopt's "ah": an unknown option is
// reported and ignored, -h prints the usage and exits 0, as moreutils does.
func Main(env *tool.Env) int {
	appendMode := false
	var files []string
	args := env.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			files = append(files, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			files = append(files, a)
			continue
		}
		for _, c := range a[1:] {
			switch c {
			case 'a':
				appendMode = true
			case 'h':
				env.Out().WriteString(usage)
				return 0
			default:
				fmt.Fprintf(env.Stderr, "%s: invalid option -- '%c'\n", env.Name(), c)
			}
		}
	}
	data, err := io.ReadAll(env.Stdin)
	if err != nil {
		fmt.Fprintf(env.Stderr, "failed to read from stdin: %s\n", tool.Strerror(err))
		return 1
	}
	if len(files) == 0 {
		if _, err := env.Out().Write(data); err != nil {
			return env.WriteFailed(err)
		}
		return 0
	}
	name := files[0]
	// Write through a symbolic link to the file it names.
	if target, err := filepath.EvalSymlinks(name); err == nil {
		name = target
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendMode {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(name, flag, 0o666)
	if err != nil {
		fmt.Fprintf(env.Stderr, "error opening output file: %s\n", tool.Strerror(err))
		return 1
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		fmt.Fprintf(env.Stderr, "error writing buffer to output file: %s\n", tool.Strerror(err))
		return 1
	}
	if err := f.Close(); err != nil {
		fmt.Fprintf(env.Stderr, "error closing output file: %s\n", tool.Strerror(err))
		return 1
	}
	return 0
}
