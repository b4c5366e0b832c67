package shell

// The history and line-editing builtins of a non-interactive bash: no
// history is kept and readline is not running.

func builtinFc(r *Interp, args []string) int {
	for _, a := range args[1:] {
		if a == "-l" || len(a) > 1 && a[0] == '-' && a[1] != '-' && containsByte(a, 'l') {
			return 0 // an empty history lists nothing
		}
	}
	r.builtinErr("fc", "no command found")
	return 1
}

func builtinHistory(r *Interp, args []string) int { return 0 }

func builtinBind(r *Interp, args []string) int {
	r.builtinErr("bind", "warning: line editing not enabled")
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "-q", "-u", "-r", "-m", "-f", "-x":
			if args[i] == "-q" && i+1 < len(args) {
				r.builtinErr("bind", "`%s': unknown function name", args[i+1])
				return 1
			}
			i++
		}
	}
	return 0
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}
