// Package mkfifo implements GNU mkfifo: make named pipes. In the sandbox
// they are the VFS's own FIFOs (sandbox host call path_mkfifo), which
// shells and guests open and stream through like pipes.
package mkfifo

import (
	"io/fs"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'm', Long: "mode", Arg: tool.RequiredArg},
		{Short: 'Z'},
		{Long: "context", Arg: tool.OptionalArg},
	},
	Help: `Usage: mkfifo [OPTION]... NAME...
Create named pipes (FIFOs) with the given NAMEs.

Mandatory arguments to long options are mandatory for short options too.
  -m, --mode=MODE    set file permission bits to MODE, not a=rw - umask
  -Z                   set the SELinux security context to default type
      --context[=CTX]  like -Z, or if CTX is specified then set the SELinux
                         or SMACK security context to CTX
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs mkfifo.
func Main(env *tool.Env) int {
	flags, names, code, done := spec.Parse(env)
	if done {
		return code
	}
	var mode fs.FileMode
	haveMode := false
	for _, f := range flags {
		switch f.Name {
		case "m":
			m, ok := tool.ParseMode(f.Arg, 0o666, false)
			if !ok {
				env.Errorf("invalid mode")
				return 1
			}
			if m&^fs.ModePerm != 0 {
				env.Errorf("mode must specify only file permission bits")
				return 1
			}
			mode, haveMode = m, true
		case "context":
			if f.Arg != "" {
				env.Errorf("warning: ignoring --context; it requires an SELinux-enabled kernel")
			}
		}
	}
	if len(names) == 0 {
		return env.Usage(1, "missing operand")
	}
	status := 0
	for _, name := range names {
		if err := fsx.Mkfifo(name, 0o666); err != nil {
			env.Errorf("cannot create fifo %s: %s", tool.Quote(name), tool.Strerror(err))
			status = 1
			continue
		}
		// -m sets the bits exactly, whatever the umask.
		if haveMode {
			if err := fsx.Chmod(name, mode, true); err != nil {
				env.Errorf("cannot set permissions of %s: %s", tool.Quote(name), tool.Strerror(err))
				status = 1
			}
		}
	}
	return status
}
