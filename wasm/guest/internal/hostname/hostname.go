// Package hostname implements hostname: show the sandbox's host name,
// which is fixed; setting it is refused as for an unprivileged user.
package hostname

import (
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/uname"
)

// Address is the IP address hostname -i and -I report: the loopback
// address, as the sandbox has no network interface of its own.
const Address = "127.0.0.1"

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "alias"},
		{Short: 'A', Long: "all-fqdns"},
		{Short: 'd', Long: "domain"},
		{Short: 'f', Long: "fqdn"},
		{Long: "long"},
		{Short: 'i', Long: "ip-address"},
		{Short: 'I', Long: "all-ip-addresses"},
		{Short: 's', Long: "short"},
		{Short: 'y', Long: "yp"},
		{Long: "nis"},
		{Short: 'F', Long: "file", Arg: tool.RequiredArg},
	},
	Help: `Usage: hostname [-s|-f|-d|-i|-I|-a|-A]
       hostname NAME      (refused: the sandbox's name is fixed)
Show the system's host name.

  -a, --alias            alias names (none)
  -A, --all-fqdns        all long host names (FQDNs)
  -d, --domain           DNS domain name (none)
  -f, --fqdn, --long     long host name (FQDN)
  -i, --ip-address       addresses for the host name
  -I, --all-ip-addresses all addresses for the host
  -s, --short            short host name
  -y, --yp, --nis        NIS/YP domain name
      --help        display this help and exit
      --version     output version information and exit
`}

// Main runs hostname.
func Main(env *tool.Env) int {
	for _, a := range env.Args[1:] {
		if a == "--" {
			break
		}
		if a == "--help" || a == "-h" {
			// net-tools' hostname prints its usage and exits with -1.
			env.Help(spec.Help)
			return 255
		}
	}
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	name := uname.Hostname
	out := name
	for _, f := range flags {
		switch f.Name {
		case "a", "d":
			out = ""
		case "A":
			out = name + " "
		case "f", "long", "s":
			out = strings.SplitN(name, ".", 2)[0]
		case "i", "I":
			out = Address
			if f.Name == "I" {
				out += " "
			}
		case "y", "nis":
			env.Errorf("Local domain name not set")
			return 1
		case "F":
			env.Errorf("you must be root to change the host name")
			return 1
		}
	}
	if len(args) > 0 {
		env.Errorf("you must be root to change the host name")
		return 1
	}
	w := env.Out()
	w.WriteString(out)
	w.WriteByte('\n')
	return 0
}
