// Package uname implements uname: print system information. The sandbox
// presents itself as a fixed, ordinary Linux machine so that scripts which
// branch on uname take their Linux path; the values never change between
// runs.
package uname

import (
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// The values uname reports.
const (
	KernelName    = "Linux"
	Hostname      = "wasmsand"
	KernelRelease = "6.1.0-wasmsand"
	KernelVersion = "#1 SMP PREEMPT_DYNAMIC 2024-01-01"
	Machine       = "x86_64"
	Processor     = "unknown"
	Platform      = "unknown"
	OS            = "GNU/Linux"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "all"},
		{Short: 's', Long: "kernel-name"},
		{Short: 'n', Long: "nodename"},
		{Short: 'r', Long: "kernel-release"},
		{Short: 'v', Long: "kernel-version"},
		{Short: 'm', Long: "machine"},
		{Short: 'p', Long: "processor"},
		{Short: 'i', Long: "hardware-platform"},
		{Short: 'o', Long: "operating-system"},
	},
	Help: `Usage: uname [OPTION]...
Print certain system information.  With no OPTION, same as -s.

  -a, --all                print all information, in the following order,
                             except omit -p and -i if unknown:
  -s, --kernel-name        print the kernel name
  -n, --nodename           print the network node hostname
  -r, --kernel-release     print the kernel release
  -v, --kernel-version     print the kernel version
  -m, --machine            print the machine hardware name
  -p, --processor          print the processor type (non-portable)
  -i, --hardware-platform  print the hardware platform (non-portable)
  -o, --operating-system   print the operating system
      --help        display this help and exit
      --version     output version information and exit
`}

const (
	fS = 1 << iota
	fN
	fR
	fV
	fM
	fP
	fI
	fO
)

// Main runs uname.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	if len(args) > 0 {
		return env.Usage(1, "extra operand %s", tool.Quote(args[0]))
	}
	var set int
	all := false
	for _, f := range flags {
		switch f.Name {
		case "a":
			all = true
			set |= fS | fN | fR | fV | fM | fO
		case "s":
			set |= fS
		case "n":
			set |= fN
		case "r":
			set |= fR
		case "v":
			set |= fV
		case "m":
			set |= fM
		case "p":
			set |= fP
		case "i":
			set |= fI
		case "o":
			set |= fO
		}
	}
	if set == 0 {
		set = fS
	}
	fields := []struct {
		bit   int
		value string
	}{
		{fS, KernelName}, {fN, Hostname}, {fR, KernelRelease}, {fV, KernelVersion},
		{fM, Machine}, {fP, Processor}, {fI, Platform}, {fO, OS},
	}
	w := env.Out()
	first := true
	for _, f := range fields {
		if set&f.bit == 0 || all && f.value == "unknown" && (f.bit == fP || f.bit == fI) {
			continue
		}
		if !first {
			w.WriteByte(' ')
		}
		first = false
		w.WriteString(f.value)
	}
	w.WriteByte('\n')
	return 0
}

var archSpec = tool.Spec{Help: `Usage: arch [OPTION]...
Print machine architecture.

      --help        display this help and exit
      --version     output version information and exit
`}

// Arch runs arch, which is uname -m.
func Arch(env *tool.Env) int {
	_, args, code, done := archSpec.Parse(env)
	if done {
		return code
	}
	if len(args) > 0 {
		return env.Usage(1, "extra operand %s", tool.Quote(args[0]))
	}
	env.Out().WriteString(Machine + "\n")
	return 0
}
