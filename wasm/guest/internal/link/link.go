// Package link implements link and unlink: call link(2) or unlink(2) on
// exactly the names given, with no options of their own.
package link

import (
	"os"
	"syscall"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var linkSpec = tool.Spec{Help: `Usage: link FILE1 FILE2
  or:  link OPTION
Call the link function to create a link named FILE2 to an existing FILE1.

      --help        display this help and exit
      --version     output version information and exit
`}

var unlinkSpec = tool.Spec{Help: `Usage: unlink FILE
  or:  unlink OPTION
Call the unlink function to remove the specified FILE.

      --help        display this help and exit
      --version     output version information and exit
`}

// Link runs link.
func Link(env *tool.Env) int {
	_, args, code, done := linkSpec.Parse(env)
	if done {
		return code
	}
	switch {
	case len(args) == 0:
		return env.Usage(1, "missing operand")
	case len(args) == 1:
		return env.Usage(1, "missing operand after %s", tool.Quote(args[0]))
	case len(args) > 2:
		return env.Usage(1, "extra operand %s", tool.Quote(args[2]))
	}
	if err := os.Link(args[0], args[1]); err != nil {
		env.Errorf("cannot create link %s to %s: %s", tool.Quote(args[1]), tool.Quote(args[0]), tool.Strerror(err))
		return 1
	}
	return 0
}

// Unlink runs unlink.
func Unlink(env *tool.Env) int {
	_, args, code, done := unlinkSpec.Parse(env)
	if done {
		return code
	}
	switch {
	case len(args) == 0:
		return env.Usage(1, "missing operand")
	case len(args) > 1:
		return env.Usage(1, "extra operand %s", tool.Quote(args[1]))
	}
	// syscall.Unlink, not os.Remove: a directory must fail, not be removed.
	if err := syscall.Unlink(args[0]); err != nil {
		env.Errorf("cannot unlink %s: %s", tool.Quote(args[0]), tool.Strerror(err))
		return 1
	}
	return 0
}
