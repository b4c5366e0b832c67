// Package echo implements echo: print the arguments, GNU coreutils style
// (options -n, -e, -E; escapes off by default).
package echo

import (
	"github.com/wasmsand/wasmsand/sandbox/bashprintf"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: echo [SHORT-OPTION]... [STRING]...
  or:  echo LONG-OPTION
Echo the STRING(s) to standard output.

  -n             do not output the trailing newline
  -e             enable interpretation of backslash escapes
  -E             disable interpretation of backslash escapes (default)
      --help     display this help and exit
      --version  output version information and exit

If -e is in effect, the following sequences are recognized:

  \\      backslash
  \a      alert (BEL)
  \b      backspace
  \c      produce no further output
  \e      escape
  \f      form feed
  \n      new line
  \r      carriage return
  \t      horizontal tab
  \v      vertical tab
  \0NNN   byte with octal value NNN (1 to 3 digits)
  \xHH    byte with hexadecimal value HH (1 to 2 digits)
`

// Main runs echo.
func Main(env *tool.Env) int {
	args := env.Args[1:]
	if len(args) == 1 {
		switch args[0] {
		case "--help":
			return env.Help(help)
		case "--version":
			return env.PrintVersion()
		}
	}
	var o bashprintf.Options
	env.Out().WriteString(o.Echo(args, false, true))
	return 0
}
