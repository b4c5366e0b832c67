// Package syncfs implements sync: flush cached writes. The sandbox's file
// system is in memory and every write is already visible, so sync opens
// and syncs each named file (reporting the errors GNU sync reports) and
// has nothing more to flush.
package syncfs

import (
	"os"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{{Short: 'd', Long: "data"}, {Short: 'f', Long: "file-system"}},
	Help: `Usage: sync [OPTION] [FILE]...
Synchronize cached writes to persistent storage

If one or more files are specified, sync only them,
or their containing file systems.

  -d, --data             sync only file data, no unneeded metadata
  -f, --file-system      sync the file systems that contain the files
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs sync.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	data, fsys := false, false
	for _, f := range flags {
		switch f.Name {
		case "d":
			data = true
		case "f":
			fsys = true
		}
	}
	if data && fsys {
		env.Errorf("cannot specify both --data and --file-system")
		return 1
	}
	if data && len(args) == 0 {
		env.Errorf("--data needs at least one argument")
		return 1
	}
	status := 0
	for _, name := range args {
		f, err := os.Open(name)
		if err != nil {
			// GNU sync retries write-only, for files it may not read.
			var err2 error
			if f, err2 = os.OpenFile(name, os.O_WRONLY, 0); err2 != nil {
				env.Errorf("error opening %s: %s", tool.Quote(name), tool.Strerror(err))
				status = 1
				continue
			}
		}
		if err := f.Sync(); err != nil && !fsys {
			env.Errorf("error syncing %s: %s", tool.Quote(name), tool.Strerror(err))
			status = 1
		}
		f.Close()
	}
	return status
}
