// Package mktemp implements mktemp: create a temporary file or directory
// with a unique name.
package mktemp

import (
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'd', Long: "directory"},
		{Short: 'u', Long: "dry-run"},
		{Short: 'q', Long: "quiet"},
		{Long: "suffix", Arg: tool.RequiredArg},
		{Short: 'p', Arg: tool.RequiredArg},
		{Long: "tmpdir", Arg: tool.OptionalArg},
		{Short: 't'},
	},
	Help: `Usage: mktemp [OPTION]... [TEMPLATE]
Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx, minus umask restrictions.

  -d, --directory     create a directory, not a file
  -u, --dry-run       do not create anything; merely print a name (unsafe)
  -q, --quiet         suppress diagnostics about file/dir-creation failure
      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.
                        This option is implied if TEMPLATE does not end in X
  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR; if DIR is not
                        specified, use $TMPDIR if set, else /tmp.  With
                        this option, TEMPLATE must not be an absolute name;
                        unlike with -t, TEMPLATE may contain slashes, but
                        mktemp creates only the final component
  -t                  interpret TEMPLATE as a single file name component,
                        relative to a directory: $TMPDIR, if set; else the
                        directory specified via -p; else /tmp [deprecated]
      --help        display this help and exit
      --version     output version information and exit
`}

const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// Main runs mktemp.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	var dirMode, dryRun, quiet, useTmp, tflag bool
	var tmpdir, suffix string
	hasSuffix := false
	for _, f := range flags {
		switch f.Name {
		case "d":
			dirMode = true
		case "u":
			dryRun = true
		case "q":
			quiet = true
		case "suffix":
			suffix, hasSuffix = f.Arg, true
		case "p", "tmpdir":
			useTmp, tmpdir = true, f.Arg
		case "t":
			tflag, useTmp = true, true
		}
	}
	fail := func(format string, a ...any) int {
		if !quiet {
			env.Errorf(format, a...)
		}
		return 1
	}
	if len(args) > 1 {
		return env.Usage(1, "too many templates")
	}
	template := "tmp.XXXXXXXXXX"
	if len(args) == 1 {
		template = args[0]
	} else {
		useTmp = true
	}
	if !hasSuffix {
		// A template not ending in X has an implied suffix after its last X.
		if i := strings.LastIndexByte(template, 'X'); i >= 0 && i < len(template)-1 && !strings.Contains(template[i+1:], "/") {
			suffix = template[i+1:]
			template = template[:i+1]
		}
	} else {
		if strings.Contains(suffix, "/") {
			return env.Usage(1, "invalid suffix %s, contains directory separator", tool.Quote(suffix))
		}
		if !strings.HasSuffix(template, "X") {
			return env.Usage(1, "with --suffix, template %s must end in X", tool.Quote(template))
		}
	}
	xs := 0
	for i := len(template) - 1; i >= 0 && template[i] == 'X'; i-- {
		xs++
	}
	if xs < 3 {
		return fail("too few X's in template %s", tool.Quote(template+suffix))
	}
	if useTmp {
		if tflag || tmpdir == "" {
			if d := env.Env("TMPDIR"); d != "" && (tflag || tmpdir == "") {
				tmpdir = d
			}
		}
		if tmpdir == "" {
			tmpdir = "/tmp"
		}
		if tflag && strings.Contains(template, "/") {
			return env.Usage(1, "invalid template, %s, contains directory separator", tool.Quote(template))
		}
		if strings.HasPrefix(template, "/") {
			return env.Usage(1, "invalid template, %s; with --tmpdir, it may not be absolute", tool.Quote(template))
		}
		template = strings.TrimRight(tmpdir, "/") + "/" + template
	}
	prefix := template[:len(template)-xs]
	name := make([]byte, 0, len(template)+len(suffix))
	rnd := make([]byte, xs)
	for attempt := 0; attempt < 100; attempt++ {
		rand.Read(rnd)
		name = append(name[:0], prefix...)
		for _, b := range rnd {
			name = append(name, letters[int(b)%len(letters)])
		}
		name = append(name, suffix...)
		p := string(name)
		var err error
		switch {
		case dryRun:
			if _, err = os.Lstat(p); err == nil {
				continue
			}
			err = nil
		case dirMode:
			err = os.Mkdir(p, 0o700)
		default:
			var f *os.File
			f, err = os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
			if err == nil {
				f.Close()
			}
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			what := "file"
			if dirMode {
				what = "directory"
			}
			return fail("failed to create %s via template %s: %s", what, tool.Quote(template+suffix), tool.Strerror(err))
		}
		w := env.Out()
		w.WriteString(p)
		w.WriteByte('\n')
		return 0
	}
	return fail("failed to create file via template %s: %s", tool.Quote(template+suffix), "File exists")
}
