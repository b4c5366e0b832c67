// Package install implements install: copy files and set their mode (and
// create directories). Owners (-o, -g) are checked and otherwise ignored:
// the sandbox has one user. Modes are set through fsx.
package install

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/id"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Long: "backup", Arg: tool.OptionalArg},
		{Short: 'b'},
		{Short: 'c'},
		{Short: 'C', Long: "compare"},
		{Short: 'd', Long: "directory"},
		{Short: 'D'},
		{Short: 'g', Long: "group", Arg: tool.RequiredArg},
		{Short: 'm', Long: "mode", Arg: tool.RequiredArg},
		{Short: 'o', Long: "owner", Arg: tool.RequiredArg},
		{Short: 'p', Long: "preserve-timestamps"},
		{Short: 's', Long: "strip"},
		{Long: "strip-program", Arg: tool.RequiredArg},
		{Short: 'S', Long: "suffix", Arg: tool.RequiredArg},
		{Short: 't', Long: "target-directory", Arg: tool.RequiredArg},
		{Short: 'T', Long: "no-target-directory"},
		{Short: 'v', Long: "verbose"},
	},
	Help: `Usage: install [OPTION]... [-T] SOURCE DEST
  or:  install [OPTION]... SOURCE... DIRECTORY
  or:  install [OPTION]... -t DIRECTORY SOURCE...
  or:  install [OPTION]... -d DIRECTORY...

This install program copies files (often just compiled) into destination
locations you choose.

      --backup[=CONTROL]  make a backup of each existing destination file
  -b                  like --backup but does not accept an argument
  -c                  (ignored)
  -C, --compare       compare content of source and destination files, and
                        if no change to content, ownership, and permissions,
                        do not modify the destination at all
  -d, --directory     treat all arguments as directory names; create all
                        components of the specified directories
  -D                  create all leading components of DEST except the last,
                        or all components of --target-directory,
                        then copy SOURCE to DEST
  -g, --group=GROUP   set group ownership, instead of process' current group
  -m, --mode=MODE     set permission mode (as in chmod), instead of rwxr-xr-x
  -o, --owner=OWNER   set ownership (super-user only)
  -p, --preserve-timestamps   apply access/modification times of SOURCE files
                        to corresponding destination files
  -s, --strip         strip symbol tables (ignored: there is nothing to strip)
  -S, --suffix=SUFFIX  override the usual backup suffix
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY
  -T, --no-target-directory  treat DEST as a normal file
  -v, --verbose       print the name of each created file or directory
      --help        display this help and exit
      --version     output version information and exit
`}

type config struct {
	mode                      fs.FileMode
	compare, makeLeading      bool
	preserve, verbose, backup bool
	suffix                    string
}

// Main runs install.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	c := &config{mode: 0o755, suffix: "~"}
	dirs, noTarget := false, false
	target, modeArg := "", ""
	for _, f := range flags {
		switch f.Name {
		case "backup", "b":
			c.backup = true
		case "C":
			c.compare = true
		case "d":
			dirs = true
		case "D":
			c.makeLeading = true
		case "g":
			if _, _, ok := id.LookupGroup(f.Arg); !ok {
				env.Errorf("invalid group %s", tool.Quote(f.Arg))
				return 1
			}
		case "o":
			if _, ok := id.Lookup(f.Arg); !ok {
				env.Errorf("invalid user %s", tool.Quote(f.Arg))
				return 1
			}
		case "m":
			modeArg = f.Arg
		case "p":
			c.preserve = true
		case "S":
			c.suffix, c.backup = f.Arg, true
		case "t":
			target = f.Arg
		case "T":
			noTarget = true
		case "v":
			c.verbose = true
		}
	}
	if modeArg != "" {
		m, ok := tool.ParseMode(modeArg, 0, false)
		if !ok {
			env.Errorf("invalid mode %s", tool.Quote(modeArg))
			return 1
		}
		c.mode = m
	}
	if dirs {
		if len(args) == 0 {
			return env.Usage(1, "missing file operand")
		}
		status := 0
		for _, d := range args {
			if !c.mkdirAll(env, d, c.mode) {
				status = 1
			}
		}
		return status
	}
	if len(args) == 0 {
		return env.Usage(1, "missing file operand")
	}
	if target == "" && !noTarget {
		if len(args) == 1 {
			return env.Usage(1, "missing destination file operand after %s", tool.Quote(args[0]))
		}
		last := args[len(args)-1]
		if fi, err := os.Stat(last); err == nil && fi.IsDir() || len(args) > 2 {
			target, args = last, args[:len(args)-1]
		}
	}
	if target != "" {
		if c.makeLeading && !c.mkdirAll(env, target, 0o755) {
			return 1
		}
		fi, err := os.Stat(target)
		if err != nil || !fi.IsDir() {
			if err != nil && len(args) > 1 {
				env.Errorf("target %s: %s", tool.Quote(target), tool.Strerror(err))
			} else {
				env.Errorf("target %s is not a directory", tool.Quote(target))
			}
			return 1
		}
		status := 0
		for _, src := range args {
			dest := strings.TrimRight(target, "/") + "/" + filepath.Base(src)
			if !c.copy(env, src, dest) {
				status = 1
			}
		}
		return status
	}
	if len(args) == 1 {
		return env.Usage(1, "missing destination file operand after %s", tool.Quote(args[0]))
	}
	if len(args) > 2 {
		return env.Usage(1, "extra operand %s", tool.Quote(args[2]))
	}
	if c.makeLeading {
		if d := filepath.Dir(args[1]); d != "." && !c.mkdirAll(env, d, 0o755) {
			return 1
		}
	}
	if !c.copy(env, args[0], args[1]) {
		return 1
	}
	return 0
}

// mkdirAll creates d and its missing parents; d itself gets mode.
func (c *config) mkdirAll(env *tool.Env, d string, mode fs.FileMode) bool {
	var missing []string
	for p := filepath.Clean(d); ; p = filepath.Dir(p) {
		if _, err := os.Stat(p); err == nil {
			break
		}
		missing = append(missing, p)
		if p == "." || p == "/" || filepath.Dir(p) == p {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		p := missing[i]
		if err := os.Mkdir(p, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			env.Errorf("cannot create directory %s: %s", tool.Quote(p), tool.Strerror(err))
			return false
		}
		if c.verbose {
			fmt.Fprintf(env.Out(), "%s: creating directory %s\n", env.Name(), tool.Quote(p))
		}
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		if err == nil {
			err = fs.ErrExist
		}
		env.Errorf("cannot create directory %s: %s", tool.Quote(d), tool.Strerror(err))
		return false
	}
	if mode != 0o755 || len(missing) > 0 {
		if err := fsx.Chmod(d, mode, true); err != nil {
			env.Errorf("cannot change permissions of %s: %s", tool.Quote(d), tool.Strerror(err))
			return false
		}
	}
	return true
}

// copy installs src as dest.
func (c *config) copy(env *tool.Env, src, dest string) bool {
	sfi, err := os.Stat(src)
	if err != nil {
		env.Errorf("cannot stat %s: %s", tool.Quote(src), tool.Strerror(err))
		return false
	}
	if sfi.IsDir() {
		env.Errorf("omitting directory %s", tool.Quote(src))
		return false
	}
	if dfi, err := os.Stat(dest); err == nil && os.SameFile(sfi, dfi) {
		env.Errorf("%s and %s are the same file", tool.Quote(src), tool.Quote(dest))
		return false
	}
	data, err := os.ReadFile(src)
	if err != nil {
		env.Errorf("cannot open %s for reading: %s", tool.Quote(src), tool.Strerror(err))
		return false
	}
	if c.compare {
		if old, err := os.ReadFile(dest); err == nil && bytes.Equal(old, data) {
			if p, err := fsx.Perm(dest, true); err == nil && p == c.mode {
				return true
			}
		}
	}
	if c.backup {
		if _, err := os.Lstat(dest); err == nil {
			if err := os.Rename(dest, dest+c.suffix); err != nil {
				env.Errorf("cannot backup %s: %s", tool.Quote(dest), tool.Strerror(err))
				return false
			}
		}
	}
	// Replace rather than overwrite, as install unlinks the destination.
	if fi, err := os.Lstat(dest); err == nil && !fi.IsDir() {
		os.Remove(dest)
	}
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		env.Errorf("cannot create regular file %s: %s", tool.Quote(dest), tool.Strerror(err))
		return false
	}
	_, werr := io.Copy(f, bytes.NewReader(data))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		env.Errorf("error writing %s: %s", tool.Quote(dest), tool.Strerror(werr))
		return false
	}
	if err := fsx.Chmod(dest, c.mode, true); err != nil {
		env.Errorf("cannot change permissions of %s: %s", tool.Quote(dest), tool.Strerror(err))
		return false
	}
	if c.preserve {
		os.Chtimes(dest, sfi.ModTime(), sfi.ModTime())
	}
	if c.verbose {
		fmt.Fprintf(env.Out(), "%s -> %s\n", tool.Quote(src), tool.Quote(dest))
	}
	return true
}
