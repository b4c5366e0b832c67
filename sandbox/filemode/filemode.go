// Package filemode applies symbolic file modes such as "u+x,go-w" or
// "a=rX", as chmod, mkdir -m, install -m and find -perm read them, and
// the narrower form bash's umask builtin takes. The guest tools and the
// shell share it, so both read a mode the same way.
package filemode

import "fmt"

// Options say how a symbolic mode is read.
type Options struct {
	// Umask masks the permissions a clause without a who part (+x, =r)
	// gives, as chmod does. The umask builtin leaves it 0.
	Umask uint32
	// IsDir makes X give execute permission.
	IsDir bool
	// Strict reads the mode as bash's umask does: permissions r, w and x
	// only, one operator per clause.
	Strict bool
}

// Error is a symbolic mode that does not parse: Char is the character
// where an operator (Operator true) or a permission was wanted; 0 is the
// end of a clause.
type Error struct {
	Char     byte
	Operator bool
}

func (e *Error) Error() string {
	if e.Operator {
		return fmt.Sprintf("`%c': invalid symbolic mode operator", e.Char)
	}
	return fmt.Sprintf("`%c': invalid symbolic mode character", e.Char)
}

// Apply applies the symbolic mode spec to mode, a Unix mode of
// permission bits with setuid (04000), setgid (02000) and sticky (01000),
// and returns the new mode.
func Apply(spec string, mode uint32, opt Options) (uint32, error) {
	at := func(i int) byte {
		if i < len(spec) {
			return spec[i]
		}
		return 0
	}
	i := 0
	for {
		var who uint32
		for ; ; i++ {
			switch at(i) {
			case 'u':
				who |= 0o4700
				continue
			case 'g':
				who |= 0o2070
				continue
			case 'o':
				who |= 0o1007
				continue
			case 'a':
				who |= 0o7777
				continue
			}
			break
		}
		mask := who
		if who == 0 {
			mask = 0o7777 &^ opt.Umask
		}
		for first := true; first || !opt.Strict; first = false {
			op := at(i)
			if op != '+' && op != '-' && op != '=' {
				if !first && (op == ',' || op == 0) {
					break
				}
				return 0, &Error{Char: op, Operator: true}
			}
			i++
			var perm uint32
		perms:
			for ; ; i++ {
				switch c := at(i); c {
				case 'r':
					perm |= 0o444
				case 'w':
					perm |= 0o222
				case 'x':
					perm |= 0o111
				case 'X', 's', 't', 'u', 'g', 'o':
					if opt.Strict {
						return 0, &Error{Char: c}
					}
					switch c {
					case 'X':
						if opt.IsDir || mode&0o111 != 0 {
							perm |= 0o111
						}
					case 's':
						perm |= 0o6000
					case 't':
						perm |= 0o1000
					case 'u':
						perm |= copyBits(mode >> 6 & 7)
					case 'g':
						perm |= copyBits(mode >> 3 & 7)
					case 'o':
						perm |= copyBits(mode & 7)
					}
				default:
					break perms
				}
			}
			switch op {
			case '+':
				mode |= perm & mask
			case '-':
				mode &^= perm & mask
			case '=':
				clear := who
				if who == 0 {
					clear = 0o7777
				}
				mode = mode&^clear | perm&mask
			}
			if opt.Strict && at(i) != ',' && at(i) != 0 {
				return 0, &Error{Char: at(i)}
			}
		}
		if at(i) == 0 {
			return mode, nil
		}
		i++ // the comma
	}
}

// copyBits spreads three permission bits to user, group and other.
func copyBits(b uint32) uint32 {
	return b | b<<3 | b<<6
}
