// Package pwd implements /usr/bin/pwd: print the name of the working
// directory. As GNU's, it prints the physical directory (-P) unless -L is
// given or POSIXLY_CORRECT is set.
package pwd

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{{Short: 'L', Long: "logical"}, {Short: 'P', Long: "physical"}},
	Help: `Usage: pwd [OPTION]...
Print the full filename of the current working directory.

  -L, --logical   use PWD from environment, even if it contains symlinks
  -P, --physical  avoid all symlinks
      --help        display this help and exit
      --version     output version information and exit

If no option is specified, -P is assumed.

NOTE: your shell may have its own version of pwd, which usually supersedes
the version described here.  Please refer to your shell's documentation
for details about the options it supports.
`}

// Main runs pwd.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	logical := env.Env("POSIXLY_CORRECT") != ""
	for _, f := range flags {
		logical = f.Name == "L"
	}
	if len(args) > 0 {
		env.Errorf("ignoring non-option arguments")
	}
	if logical {
		if p := logicalDir(env.Env("PWD")); p != "" {
			env.Out().WriteString(p + "\n")
			return 0
		}
	}
	wd, err := os.Getwd()
	if err == nil {
		wd, err = filepath.EvalSymlinks(wd)
	}
	if err != nil {
		env.Errorf("couldn't get current directory: %s", tool.Strerror(err))
		return 1
	}
	env.Out().WriteString(wd + "\n")
	return 0
}

// logicalDir returns pwd if it is absolute, has no . or .. components and
// names the working directory, or "".
func logicalDir(pwd string) string {
	if !strings.HasPrefix(pwd, "/") {
		return ""
	}
	for _, c := range strings.Split(pwd, "/") {
		if c == "." || c == ".." {
			return ""
		}
	}
	a, err1 := os.Stat(pwd)
	b, err2 := os.Stat(".")
	if err1 != nil || err2 != nil || !os.SameFile(a, b) {
		return ""
	}
	return pwd
}
