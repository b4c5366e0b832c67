package bashprintf

// Echo is what echo writes for args, the words after the command name:
// bash's echo builtin (gnu false) and GNU coreutils' echo (gnu true) read
// leading words made of -n, -e and -E as options and decode the same
// backslash escapes, except that bash's takes an octal \NNN only after a
// 0 (\0NNN) and GNU's takes no \u, \U or \E. escapes is whether escapes are
// on before any option (bash's xpg_echo). A \c ends the output there,
// without the newline.
func (o *Options) Echo(args []string, escapes, gnu bool) string {
	newline := true
	for len(args) > 0 && isEchoOption(args[0]) {
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	p := printer{opts: o}
	var buf [16]byte
	for i, a := range args {
		if i > 0 {
			p.out = append(p.out, ' ')
		}
		if !escapes {
			p.out = append(p.out, a...)
			continue
		}
		for j := 0; j < len(a); j++ {
			if a[j] != '\\' || j+1 == len(a) {
				p.out = append(p.out, a[j])
				continue
			}
			rest := a[j+1:]
			if c := rest[0]; gnu && (c == 'u' || c == 'U' || c == 'E') || !gnu && c >= '1' && c <= '7' {
				p.out = append(p.out, '\\')
				continue
			}
			consumed, n, sawC := p.escape(rest, buf[:], true)
			if sawC {
				return string(p.out)
			}
			p.out = append(p.out, buf[:n]...)
			j += consumed
		}
	}
	if newline {
		p.out = append(p.out, '\n')
	}
	return string(p.out)
}

// isEchoOption reports whether s is an option word of echo: a dash and
// one or more of n, e and E.
func isEchoOption(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; c != 'n' && c != 'e' && c != 'E' {
			return false
		}
	}
	return true
}
