// Package chown implements chown and chgrp: change file owner and group.
// The sandbox has a single user who owns every file, so they check their
// arguments and the files as GNU's do, report what they were asked to do,
// and change nothing: stat and ls -l keep showing the owner "user".
package chown

import (
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/id"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'c', Long: "changes"},
		{Short: 'f', Long: "silent"},
		{Long: "quiet"},
		{Short: 'v', Long: "verbose"},
		{Long: "dereference"},
		{Short: 'h', Long: "no-dereference"},
		{Long: "from", Arg: tool.RequiredArg},
		{Long: "no-preserve-root"},
		{Long: "preserve-root"},
		{Long: "reference", Arg: tool.RequiredArg},
		{Short: 'R', Long: "recursive"},
		{Short: 'H'},
		{Short: 'L'},
		{Short: 'P'},
	},
	Help: `Usage: chown [OPTION]... [OWNER][:[GROUP]] FILE...
  or:  chown [OPTION]... --reference=RFILE FILE...
Change the owner and/or group of each FILE to OWNER and/or GROUP.
With --reference, change the owner and group of each FILE to those of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --dereference      affect the referent of each symbolic link
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --from=CURRENT_OWNER:CURRENT_GROUP
                         change the owner and/or group of each file only if
                         its current owner and/or group match those specified
      --reference=RFILE  use RFILE's owner and group rather than specifying
                         OWNER:GROUP values
  -R, --recursive        operate on files and directories recursively
      --help        display this help and exit
      --version     output version information and exit

The sandbox has one user: files always stay owned by user:user.
`}

var chgrpSpec = tool.Spec{
	Options: spec.Options,
	Help: `Usage: chgrp [OPTION]... GROUP FILE...
  or:  chgrp [OPTION]... --reference=RFILE FILE...
Change the group of each FILE to GROUP.
With --reference, change the group of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --dereference      affect the referent of each symbolic link
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --from=CURRENT_OWNER:CURRENT_GROUP
                         change the group of each file only if its current
                         owner and/or group match those specified
      --reference=RFILE  use RFILE's group rather than specifying a GROUP
  -R, --recursive        operate on files and directories recursively
      --help        display this help and exit
      --version     output version information and exit

The sandbox has one user: files always stay owned by user:user.
`}

// Main runs chown.
func Main(env *tool.Env) int { return run(env, false) }

// Chgrp runs chgrp.
func Chgrp(env *tool.Env) int { return run(env, true) }

func run(env *tool.Env, chgrp bool) int {
	sp := &spec
	if chgrp {
		sp = &chgrpSpec
	}
	flags, args, code, done := sp.Parse(env)
	if done {
		return code
	}
	var changes, quiet, verbose, recursive bool
	ref := ""
	for _, f := range flags {
		switch f.Name {
		case "c":
			changes = true
		case "f", "quiet":
			quiet = true
		case "v":
			verbose = true
		case "R":
			recursive = true
		case "reference":
			ref = f.Arg
		case "from":
			if _, _, err := parseSpec(f.Arg); err != "" {
				env.Errorf("%s", err)
				return 1
			}
		}
	}
	owner, group := "", ""
	if ref != "" {
		if _, err := os.Stat(ref); err != nil {
			env.Errorf("failed to get attributes of %s: %s", tool.Quote(ref), tool.Strerror(err))
			return 1
		}
		owner, group = id.Current.Name, id.Current.GroupName
		if chgrp {
			owner = ""
		}
	} else {
		if len(args) == 0 {
			return env.Usage(1, "missing operand")
		}
		var msg string
		if chgrp {
			group, msg = parseGroup(args[0])
		} else {
			owner, group, msg = parseSpec(args[0])
		}
		if msg != "" {
			env.Errorf("%s", msg)
			return 1
		}
		if len(args) == 1 {
			return env.Usage(1, "missing operand after %s", tool.Quote(args[0]))
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return env.Usage(1, "missing operand")
	}
	status := 0
	var visit func(name string, top bool)
	visit = func(name string, top bool) {
		fi, err := os.Lstat(name)
		if err == nil && top && fi.Mode()&fs.ModeSymlink != 0 {
			fi, err = os.Stat(name)
		}
		if err != nil {
			if !quiet {
				env.Errorf("cannot access %s: %s", tool.Quote(name), tool.Strerror(err))
			}
			status = 1
			return
		}
		cur := id.Current.Name + ":" + id.Current.GroupName
		want := ownerString(owner, group, cur)
		what := "ownership"
		if chgrp {
			what, cur, want = "group", id.Current.GroupName, group
		}
		if verbose || changes && want != cur {
			if want == cur || owner == "" && group == "" {
				if verbose {
					fmt.Fprintf(env.Out(), "%s of %s retained as %s\n", what, tool.Quote(name), want)
				}
			} else {
				fmt.Fprintf(env.Out(), "changed %s of %s from %s to %s\n", what, tool.Quote(name), cur, want)
			}
		}
		if recursive && fi.IsDir() {
			entries, err := os.ReadDir(name)
			if err != nil {
				if !quiet {
					env.Errorf("cannot read directory %s: %s", tool.Quote(name), tool.Strerror(err))
				}
				status = 1
				return
			}
			for _, e := range entries {
				visit(strings.TrimSuffix(name, "/")+"/"+e.Name(), false)
			}
		}
	}
	for _, name := range args {
		visit(name, true)
	}
	return status
}

// ownerString is "owner:group" as the file would have it after the change.
func ownerString(owner, group, cur string) string {
	o, g, _ := strings.Cut(cur, ":")
	if owner != "" {
		o = owner
	}
	if group != "" {
		g = group
	}
	return o + ":" + g
}

// parseGroup checks chgrp's GROUP, a name or a number, and returns the
// group's name, or GNU's message for an unknown one.
func parseGroup(s string) (group, msg string) {
	if s == "" {
		return "", ""
	}
	_, name, ok := id.LookupGroup(s)
	if !ok {
		return "", "invalid group: " + tool.Quote(s)
	}
	return name, ""
}

// parseSpec checks OWNER[:[GROUP]] (or OWNER.GROUP) and returns the
// owner's and group's names, or GNU's message for an unknown one.
func parseSpec(s string) (owner, group, msg string) {
	u, g, colon := strings.Cut(s, ":")
	if !colon {
		if a, b, dot := strings.Cut(s, "."); dot {
			if _, ok := id.Lookup(s); !ok {
				u, g, colon = a, b, true
			}
		}
	}
	if u != "" {
		a, ok := id.Lookup(u)
		if !ok {
			return "", "", "invalid user: " + tool.Quote(s)
		}
		owner = a.Name
		if colon && g == "" {
			group = a.GroupName
		}
	}
	if g != "" {
		_, name, ok := id.LookupGroup(g)
		if !ok {
			return "", "", "invalid group: " + tool.Quote(s)
		}
		group = name
	}
	return owner, group, ""
}
