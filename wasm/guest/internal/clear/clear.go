// Package clear implements ncurses' clear: write the terminal's clear
// sequence. The sandbox has no terminfo database, so the sequences of the
// terminal types Debian's ncurses-base describes are built in; E3 (clear
// the scrollback) follows unless -x is given.
package clear

import (
	"fmt"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const usage = `Usage: clear [options]

Options:
  -T TERM     use this instead of $TERM
  -V          print curses-version
  -x          do not try to clear scrollback
`

// Version is the ncurses version clear -V reports.
const Version = "ncurses 6.4.20221231"

// seq is a terminal's clear and E3 capabilities.
type seq struct{ clear, e3 string }

const (
	home2J = "\x1b[H\x1b[2J"
	homeJ  = "\x1b[H\x1b[J"
	e3     = "\x1b[3J"
)

// terminals maps terminal names to their sequences. A terminal listed with
// an empty clear has no clear capability (dumb).
var terminals = map[string]seq{
	"xterm": {home2J, e3}, "xterm-256color": {home2J, e3},
	"xterm-color": {home2J, ""}, "xterm-mono": {home2J, ""}, "screen.xterm-256color": {home2J, ""},
	"rxvt": {home2J, ""}, "rxvt-unicode": {home2J, ""},
	"screen": {homeJ, ""}, "screen-256color": {homeJ, ""}, "screen-bce": {homeJ, ""},
	"vt100": {homeJ, ""}, "vt102": {homeJ, ""}, "vt220": {homeJ, ""}, "ansi": {homeJ, ""},
	"cygwin": {homeJ, ""}, "cons25": {homeJ, ""}, "pcansi": {homeJ, ""},
	"tmux": {homeJ, e3}, "tmux-256color": {homeJ, e3}, "linux": {homeJ, e3},
	"vt52": {"\x1bH\x1bJ", ""}, "sun": {"\f", ""}, "hurd": {"\x1bc", ""}, "mach": {"\x1bc", ""},
	"dumb": {"", ""},
}

// Main runs clear.
func Main(env *tool.Env) int {
	term := env.Env("TERM")
	scrollback := true
	args := env.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' {
			fmt.Fprint(env.Stderr, usage)
			return 1
		}
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'x':
				scrollback = false
			case 'V':
				env.Out().WriteString(Version + "\n")
				return 0
			case 'T':
				switch {
				case j+1 < len(a):
					term = a[j+1:]
				case i+1 < len(args):
					i++
					term = args[i]
				default:
					fmt.Fprintf(env.Stderr, "%s: option requires an argument -- 'T'\n%s", env.Name(), usage)
					return 1
				}
				j = len(a)
			default:
				fmt.Fprintf(env.Stderr, "%s: invalid option -- '%c'\n%s", env.Name(), a[j], usage)
				return 1
			}
		}
	}
	if term == "" {
		fmt.Fprintf(env.Stderr, "TERM environment variable not set.\n")
		return 1
	}
	s, ok := terminals[term]
	if !ok {
		fmt.Fprintf(env.Stderr, "'%s': unknown terminal type.\n", term)
		return 1
	}
	if s.clear == "" {
		return 1
	}
	w := env.Out()
	w.WriteString(s.clear)
	if scrollback {
		w.WriteString(s.e3)
	}
	return 0
}
