// Package id implements id and whoami: print user and group identity. The
// sandbox has one user, "user" (uid 1000, gid 1000), and root (0); every
// command runs as user.
package id

import (
	"strconv"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// Account is a user known to the sandbox.
type Account struct {
	Name      string
	UID, GID  int
	GroupName string
}

// Accounts are the sandbox's users; Current runs every command.
var (
	Current  = Account{Name: "user", UID: 1000, GID: 1000, GroupName: "user"}
	Root     = Account{Name: "root", UID: 0, GID: 0, GroupName: "root"}
	Accounts = []Account{Root, Current}
)

// Lookup finds an account by name or number.
func Lookup(name string) (Account, bool) {
	for _, a := range Accounts {
		if a.Name == name || strconv.Itoa(a.UID) == name {
			return a, true
		}
	}
	return Account{}, false
}

// LookupGroup finds a group by name or number and returns its gid and name.
func LookupGroup(name string) (int, string, bool) {
	for _, a := range Accounts {
		if a.GroupName == name || strconv.Itoa(a.GID) == name {
			return a.GID, a.GroupName, true
		}
	}
	return 0, "", false
}

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a'},
		{Short: 'Z', Long: "context"},
		{Short: 'g', Long: "group"},
		{Short: 'G', Long: "groups"},
		{Short: 'n', Long: "name"},
		{Short: 'r', Long: "real"},
		{Short: 'u', Long: "user"},
		{Short: 'z', Long: "zero"},
	},
	Help: `Usage: id [OPTION]... [USER]...
Print user and group information for each specified USER,
or (when USER omitted) for the current process.

  -a             ignore, for compatibility with other versions
  -Z, --context  print only the security context of the process
  -g, --group    print only the effective group ID
  -G, --groups   print all group IDs
  -n, --name     print a name instead a number, for -ugG
  -r, --real     print the real ID instead of the effective ID, with -ugG
  -u, --user     print only the effective user ID
  -z, --zero     delimit entries with NUL characters, not whitespace;
                   not permitted in default format
      --help        display this help and exit
      --version     output version information and exit

Without any OPTION, print some useful set of identified information.
`}

// Main runs id.
func Main(env *tool.Env) int {
	flags, users, code, done := spec.Parse(env)
	if done {
		return code
	}
	var only byte
	names, zero := false, false
	count := 0
	for _, f := range flags {
		switch f.Name {
		case "Z":
			env.Errorf("--context (-Z) works only on an SELinux-enabled kernel")
			return 1
		case "g", "G", "u":
			if only != f.Name[0] {
				count++
			}
			only = f.Name[0]
		case "n":
			names = true
		case "z":
			zero = true
		}
	}
	if count > 1 {
		env.Errorf("cannot print \"only\" of more than one choice")
		return 1
	}
	if only == 0 && names {
		env.Errorf("cannot print only names or real IDs in default format")
		return 1
	}
	if only == 0 && zero {
		env.Errorf("option --zero not permitted in default format")
		return 1
	}
	accts := []Account{Current}
	if len(users) > 0 {
		accts = accts[:0]
	}
	status := 0
	for _, u := range users {
		a, ok := Lookup(u)
		if !ok {
			env.Errorf("%s: no such user", tool.Quote(u))
			status = 1
			continue
		}
		accts = append(accts, a)
	}
	w := env.Out()
	sep := byte('\n')
	if zero {
		sep = 0
	}
	for _, a := range accts {
		switch only {
		case 'u':
			if names {
				w.WriteString(a.Name)
			} else {
				w.WriteString(strconv.Itoa(a.UID))
			}
		case 'g', 'G':
			if names {
				w.WriteString(a.GroupName)
			} else {
				w.WriteString(strconv.Itoa(a.GID))
			}
			if only == 'G' && zero {
				w.WriteByte(0)
			}
		default:
			g := strconv.Itoa(a.GID) + "(" + a.GroupName + ")"
			w.WriteString("uid=" + strconv.Itoa(a.UID) + "(" + a.Name + ") gid=" + g + " groups=" + g)
		}
		w.WriteByte(sep)
	}
	return status
}

var whoamiSpec = tool.Spec{Help: `Usage: whoami [OPTION]...
Print the user name associated with the current effective user ID.
Same as id -un.

      --help        display this help and exit
      --version     output version information and exit
`}

// Whoami runs whoami.
func Whoami(env *tool.Env) int {
	_, args, code, done := whoamiSpec.Parse(env)
	if done {
		return code
	}
	if len(args) > 0 {
		return env.Usage(1, "extra operand %s", tool.Quote(args[0]))
	}
	w := env.Out()
	w.WriteString(Current.Name)
	w.WriteByte('\n')
	return 0
}

var groupsSpec = tool.Spec{Help: `Usage: groups [OPTION]... [USERNAME]...
Print group memberships for each USERNAME or, if no USERNAME is specified, for
the current process (which may differ if the groups database has changed).
      --help        display this help and exit
      --version     output version information and exit
`}

// Groups runs groups: each account's group names.
func Groups(env *tool.Env) int {
	_, users, code, done := groupsSpec.Parse(env)
	if done {
		return code
	}
	w := env.Out()
	if len(users) == 0 {
		w.WriteString(Current.GroupName + "\n")
		return 0
	}
	status := 0
	for _, u := range users {
		a, ok := Lookup(u)
		if !ok || a.Name != u {
			env.Errorf("%s: no such user", tool.Quote(u))
			status = 1
			continue
		}
		w.WriteString(a.Name + " : " + a.GroupName + "\n")
	}
	return status
}

var lognameSpec = tool.Spec{Help: `Usage: logname [OPTION]
Print the user's login name.

      --help        display this help and exit
      --version     output version information and exit
`}

// Logname runs logname: the sandbox's session belongs to its one user.
func Logname(env *tool.Env) int {
	_, args, code, done := lognameSpec.Parse(env)
	if done {
		return code
	}
	if len(args) > 0 {
		return env.Usage(1, "extra operand %s", tool.Quote(args[0]))
	}
	env.Out().WriteString(Current.Name + "\n")
	return 0
}
