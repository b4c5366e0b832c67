// Package pathchk implements pathchk: diagnose invalid or unportable file
// names, with GNU's checks and messages. The limits are Linux's (NAME_MAX
// 255, PATH_MAX 4096), which the sandbox's file system shares.
package pathchk

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options:       []tool.Option{{Short: 'p'}, {Short: 'P'}, {Long: "portability"}},
	StopAtOperand: true,
	Help: `Usage: pathchk [OPTION]... NAME...
Diagnose invalid or unportable file names.

  -p                  check for most POSIX systems
  -P                  check for empty names and leading "-"
      --portability   check for all POSIX systems (equivalent to -p -P)
      --help        display this help and exit
      --version     output version information and exit
`}

const (
	nameMax      = 255
	pathMax      = 4096
	posixNameMax = 14
	posixPathMax = 256
)

// Main runs pathchk.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	portable, extra := false, false
	for _, f := range flags {
		switch f.Name {
		case "p":
			portable = true
		case "P":
			extra = true
		case "portability":
			portable, extra = true, true
		}
	}
	if len(args) == 0 {
		return env.Usage(1, "missing operand")
	}
	status := 0
	for _, name := range args {
		if !check(env, name, portable, extra) {
			status = 1
		}
	}
	return status
}

func isPortable(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' || c == '/'
}

func check(env *tool.Env, name string, portable, extra bool) bool {
	if extra {
		for _, c := range strings.Split(name, "/") {
			if strings.HasPrefix(c, "-") {
				env.Errorf("leading '-' in a component of file name %s", tool.Quote(name))
				return false
			}
		}
	}
	if (portable || extra) && name == "" {
		env.Errorf("empty file name")
		return false
	}
	if portable {
		for i := 0; i < len(name); i++ {
			if !isPortable(name[i]) {
				// GNU names the character by its length in the locale.
				r := name[i:]
				n := 1
				if name[i] >= 0x80 {
					for n < len(r) && r[n]&0xc0 == 0x80 {
						n++
					}
				}
				env.Errorf("nonportable character %s in file name %s", tool.Quote(r[:n]), tool.Quote(name))
				return false
			}
		}
	}
	maxPath, maxName := pathMax, nameMax
	if portable {
		maxPath, maxName = posixPathMax, posixNameMax
	}
	exists := false
	if !portable {
		if _, err := os.Lstat(name); err == nil {
			exists = true
		} else if name == "" {
			env.Errorf("%s: %s", tool.Quote(name), tool.Strerror(syscall.ENOENT))
			return false
		} else if !errors.Is(err, fs.ErrNotExist) {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			return false
		}
	}
	if exists {
		return true
	}
	if len(name)+1 > maxPath {
		env.Errorf("limit %d exceeded by length %d of file name %s", maxPath-1, len(name), tool.Quote(name))
		return false
	}
	for _, c := range strings.Split(name, "/") {
		if len(c) > maxName {
			env.Errorf("limit %d exceeded by length %d of file name component %s", maxName, len(c), tool.Quote(c))
			return false
		}
	}
	return true
}
