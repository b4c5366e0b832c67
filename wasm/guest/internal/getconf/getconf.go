// Package getconf implements glibc's getconf: print system configuration
// values. The values are the sandbox's: one processor, 4 KiB pages, the
// memory limit as physical memory, Linux x86-64's limits elsewhere (as
// uname describes the machine), glibc 2.36's confstr strings.
package getconf

import (
	"fmt"
	"os"
	"sort"
	"strconv"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/proc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const usage = "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]\n"

const help = `Usage: getconf [-v SPEC] VAR
  or:  getconf [-v SPEC] PATH_VAR PATH

Get the configuration value for variable VAR, or for variable PATH_VAR
for path PATH.  If SPEC is given, give values for compilation
environment SPEC.
`

const pageSize = 4096

// system are the sysconf and confstr variables; a func is computed.
var system = map[string]any{
	"ARG_MAX": "2097152", "_POSIX_ARG_MAX": "2097152", "CLK_TCK": "100", "NGROUPS_MAX": "65536",
	"OPEN_MAX": "1024", "_POSIX_OPEN_MAX": "1024", "STREAM_MAX": "16", "_POSIX_STREAM_MAX": "16",
	"TZNAME_MAX": "undefined", "_POSIX_TZNAME_MAX": "undefined",
	"PAGESIZE": "4096", "PAGE_SIZE": "4096", "_NPROCESSORS_CONF": "1", "_NPROCESSORS_ONLN": "1",
	"_PHYS_PAGES": func(s proc.SysInfo) string { return strconv.FormatInt(s.MemTotal/pageSize, 10) },
	"_AVPHYS_PAGES": func(s proc.SysInfo) string {
		return strconv.FormatInt(max(s.MemTotal-s.MemUsed, 0)/pageSize, 10)
	},
	"CHILD_MAX": "64", "_POSIX_CHILD_MAX": "64",
	"LONG_BIT": "64", "WORD_BIT": "32", "CHAR_BIT": "8", "CHAR_MAX": "127", "CHAR_MIN": "-128",
	"SCHAR_MAX": "127", "SCHAR_MIN": "-128", "UCHAR_MAX": "255", "SHRT_MAX": "32767",
	"SHRT_MIN": "-32768", "USHRT_MAX": "65535", "INT_MAX": "2147483647", "INT_MIN": "-2147483648",
	"UINT_MAX": "4294967295", "LONG_MAX": nil, "SSIZE_MAX": "32767", "NZERO": "20",
	"LINE_MAX": "2048", "_POSIX2_LINE_MAX": "2048", "RE_DUP_MAX": "32767", "_POSIX2_RE_DUP_MAX": "32767",
	"BC_BASE_MAX": "99", "BC_DIM_MAX": "2048", "BC_SCALE_MAX": "99", "BC_STRING_MAX": "1000",
	"POSIX2_BC_BASE_MAX": "99", "POSIX2_BC_DIM_MAX": "2048", "POSIX2_BC_SCALE_MAX": "99",
	"POSIX2_BC_STRING_MAX": "1000", "COLL_WEIGHTS_MAX": "255", "POSIX2_COLL_WEIGHTS_MAX": "255",
	"EXPR_NEST_MAX": "32", "POSIX2_EXPR_NEST_MAX": "32", "HOST_NAME_MAX": "64",
	"LOGIN_NAME_MAX": "256", "TTY_NAME_MAX": "32", "SYMLOOP_MAX": "undefined",
	"_POSIX_VERSION": "200809", "POSIX2_VERSION": "200809", "_POSIX2_VERSION": "200809",
	"_POSIX_THREADS": "200809", "_XOPEN_VERSION": "700", "LEVEL1_DCACHE_LINESIZE": "64",
	"PATH": "/bin:/usr/bin", "CS_PATH": "/bin:/usr/bin",
	"GNU_LIBC_VERSION": "glibc 2.36", "GNU_LIBPTHREAD_VERSION": "NPTL 2.36",
}

// paths are the pathconf variables, which need a path.
var paths = map[string]string{
	"LINK_MAX": "65000", "_POSIX_LINK_MAX": "65000", "MAX_CANON": "255", "_POSIX_MAX_CANON": "255",
	"MAX_INPUT": "255", "_POSIX_MAX_INPUT": "255", "NAME_MAX": "255", "_POSIX_NAME_MAX": "255",
	"PATH_MAX": "4096", "_POSIX_PATH_MAX": "4096", "PIPE_BUF": "4096", "_POSIX_PIPE_BUF": "4096",
	"FILESIZEBITS": "64", "POSIX_ALLOC_SIZE_MIN": "4096", "POSIX_REC_XFER_ALIGN": "4096",
	"SYMLINK_MAX": "undefined", "_POSIX_CHOWN_RESTRICTED": "1", "_POSIX_NO_TRUNC": "1",
	"_POSIX_VDISABLE": "0",
}

// Main runs getconf.
func Main(env *tool.Env) int {
	args := env.Args[1:]
	if len(args) > 0 && args[0] == "--help" {
		return env.Help(help)
	}
	if len(args) > 0 && args[0] == "--version" {
		return env.PrintVersion()
	}
	if len(args) > 1 && args[0] == "-v" {
		args = args[2:]
	}
	if len(args) > 0 && args[0] == "-a" {
		if len(args) > 2 {
			fmt.Fprint(env.Stderr, usage)
			return 2
		}
		path := "/"
		if len(args) == 2 {
			path = args[1]
		}
		return all(env, path)
	}
	if len(args) == 0 || len(args) > 2 {
		fmt.Fprint(env.Stderr, usage)
		return 2
	}
	name := args[0]
	w := env.Out()
	if v, ok := paths[name]; ok {
		if len(args) != 2 {
			fmt.Fprint(env.Stderr, usage)
			return 2
		}
		if _, err := os.Stat(args[1]); err != nil {
			fmt.Fprintf(env.Stderr, "%s: pathconf: %s: %s\n", env.Name(), args[1], tool.Strerror(err))
			return 3
		}
		w.WriteString(v + "\n")
		return 0
	}
	v, ok := system[name]
	if !ok || v == nil {
		fmt.Fprintf(env.Stderr, "%s: Unrecognized variable `%s'\n", env.Name(), name)
		return 2
	}
	if len(args) == 2 {
		fmt.Fprint(env.Stderr, usage)
		return 2
	}
	s, err := value(v)
	if err != nil {
		env.Errorf("cannot read the sandbox's state: %s", tool.Strerror(err))
		return 1
	}
	w.WriteString(s + "\n")
	return 0
}

func value(v any) (string, error) {
	if f, ok := v.(func(proc.SysInfo) string); ok {
		si, err := proc.System()
		if err != nil {
			return "", err
		}
		return f(si), nil
	}
	return v.(string), nil
}

// all prints every variable, names padded to 35 columns as glibc does.
func all(env *tool.Env, path string) int {
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(env.Stderr, "%s: pathconf: %s: %s\n", env.Name(), path, tool.Strerror(err))
		return 3
	}
	names := make([]string, 0, len(system)+len(paths))
	for n, v := range system {
		if v != nil {
			names = append(names, n)
		}
	}
	for n := range paths {
		names = append(names, n)
	}
	sort.Strings(names)
	w := env.Out()
	for _, n := range names {
		v, ok := paths[n]
		if !ok {
			var err error
			if v, err = value(system[n]); err != nil {
				v = "undefined"
			}
		}
		fmt.Fprintf(w, "%-35s%s\n", n, v)
	}
	return 0
}
