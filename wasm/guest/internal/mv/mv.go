// Package mv implements mv: move or rename files, copying across file
// systems when a rename cannot.
package mv

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/cp"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'b'},
		{Short: 'f', Long: "force"},
		{Short: 'i', Long: "interactive"},
		{Short: 'n', Long: "no-clobber"},
		{Short: 't', Long: "target-directory", Arg: tool.RequiredArg},
		{Short: 'T', Long: "no-target-directory"},
		{Short: 'u', Long: "update", Arg: tool.OptionalArg},
		{Short: 'v', Long: "verbose"},
	},
	Help: `Usage: mv [OPTION]... [-T] SOURCE DEST
  or:  mv [OPTION]... SOURCE... DIRECTORY
  or:  mv [OPTION]... -t DIRECTORY SOURCE...
Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.

  -f, --force                  do not prompt before overwriting
  -i, --interactive            prompt before overwrite
  -n, --no-clobber             do not overwrite an existing file
  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY
  -T, --no-target-directory    treat DEST as a normal file
  -u, --update                 move only when the SOURCE file is newer
                                 than the destination file or when the
                                 destination file is missing
  -v, --verbose                explain what is being done
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs mv.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	noClobber, interactive, update, verbose := false, false, false, false
	target, noTarget := "", false
	for _, f := range flags {
		switch f.Name {
		case "f":
			noClobber, interactive = false, false
		case "i":
			interactive, noClobber = true, false
		case "n":
			noClobber, interactive = true, false
		case "t":
			target = f.Arg
		case "T":
			noTarget = true
		case "u":
			update = f.Arg != "none" && f.Arg != "all"
		case "v":
			verbose = true
		}
	}
	srcs, dest, st := cp.Targets(env, args, target, noTarget)
	if st >= 0 {
		return st
	}
	var in *bufio.Reader
	status := 0
	for _, src := range srcs {
		dst := dest.For(src)
		sfi, err := os.Lstat(src)
		if err != nil {
			env.Errorf("cannot stat %s: %s", tool.Quote(src), tool.Strerror(err))
			status = 1
			continue
		}
		dfi, derr := os.Lstat(dst)
		if derr == nil {
			if os.SameFile(sfi, dfi) {
				env.Errorf("%s and %s are the same file", tool.Quote(src), tool.Quote(dst))
				status = 1
				continue
			}
			if noClobber {
				continue
			}
			if update && !sfi.ModTime().After(dfi.ModTime()) {
				continue
			}
			if interactive {
				env.Out().Flush()
				fmt.Fprintf(env.Stderr, "mv: overwrite %s? ", tool.Quote(dst))
				if in == nil {
					in = bufio.NewReader(env.Stdin)
				}
				a, _ := in.ReadString('\n')
				if a = strings.TrimSpace(a); !strings.HasPrefix(a, "y") && !strings.HasPrefix(a, "Y") {
					continue
				}
			}
			if dfi.IsDir() && !sfi.IsDir() {
				env.Errorf("cannot overwrite directory %s with non-directory", tool.Quote(dst))
				status = 1
				continue
			}
			if !dfi.IsDir() && sfi.IsDir() {
				env.Errorf("cannot overwrite non-directory %s with directory %s", tool.Quote(dst), tool.Quote(src))
				status = 1
				continue
			}
		}
		if sfi.IsDir() && cp.Inside(src, dst) {
			env.Errorf("cannot move %s to a subdirectory of itself, %s", tool.Quote(src), tool.Quote(dst))
			status = 1
			continue
		}
		if err := move(env, src, dst, sfi); err != nil {
			env.Errorf("cannot move %s to %s: %s", tool.Quote(src), tool.Quote(dst), tool.Strerror(err))
			status = 1
			continue
		}
		if verbose {
			fmt.Fprintf(env.Out(), "renamed %s -> %s\n", tool.Quote(src), tool.Quote(dst))
		}
	}
	if _, err := env.Out().Write(nil); err != nil {
		return env.WriteFailed(err)
	}
	return status
}

// move renames src to dst, or copies and removes it across devices.
func move(env *tool.Env, src, dst string, sfi fs.FileInfo) error {
	err := os.Rename(src, dst)
	if err == nil || !tool.IsErrno(err, syscall.EXDEV) {
		return err
	}
	c := &cp.Copier{Env: env, Cmd: "mv", Recursive: true, PreserveMd: true, PreserveTm: true}
	c.Deref = cp.DerefNever // move links as they are
	if !c.Copy(src, dst, true) {
		return fmt.Errorf("copy failed")
	}
	if sfi.IsDir() {
		return os.RemoveAll(src)
	}
	return os.Remove(src)
}
