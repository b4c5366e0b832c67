package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// The directory stack of pushd, popd and dirs, after bash's pushd.def.
// Entry 0 is the working directory; r.dirStack holds the others, the
// last one being entry 1 (bash's pushd_directory_list, whose
// directory_list_offset is len(r.dirStack)).

// tildeDir abbreviates $HOME as ~, as dirs prints without -l (bash's
// polite_directory_format).
func (r *Interp) tildeDir(d string) string {
	home, _ := r.getScalar("HOME")
	if len(home) > 1 && (d == home || strings.HasPrefix(d, home+"/")) {
		return "~" + d[len(home):]
	}
	return d
}

// legalNumber parses s as bash's legal_number does (strtoimax in base
// 10: leading white space and a sign, then trailing blanks).
func legalNumber(s string) (int64, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	t = strings.TrimRight(t, " \t")
	if t == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

func (r *Interp) pushdError(name, arg string) {
	if len(r.dirStack) == 0 {
		r.builtinErr(name, "directory stack empty")
	} else {
		r.builtinErr(name, "%s: directory stack index out of range", arg)
	}
}

const (
	pushdUsage = "pushd: usage: pushd [-n] [+N | -N | dir]\n"
	popdUsage  = "popd: usage: popd [-n] [+N | -N]\n"
	dirsUsage  = "dirs: usage: dirs [-clpv] [+N] [-N]\n"
)

// cdTo changes to dir with cd's rules, reporting errors as name.
func (r *Interp) cdTo(name, dir string) int {
	return builtinCd(r, []string{name, "--", dir})
}

// changeToTemp is cd to dir, then the stack printed.
func (r *Interp) changeToTemp(name, dir string) int {
	if st := r.cdTo(name, dir); st != 0 {
		return st
	}
	return r.printDirs(name, false, 0, 0, 0)
}

func builtinPushd(r *Interp, args []string) int {
	name := args[0]
	orig := args[1:]
	list := orig
	skipopt := false
	if len(list) > 0 && list[0] == "--" {
		list, skipopt = list[1:], true
	}
	if len(list) == 0 {
		if len(r.dirStack) == 0 {
			r.builtinErr(name, "no other directory")
			return 1
		}
		j := len(r.dirStack) - 1
		temp := r.dirStack[j]
		r.dirStack[j] = r.dir
		return r.changeToTemp(name, temp)
	}
	noCd, rotate := false, false
	var num int64
	for !skipopt && len(list) > 0 {
		w := list[0]
		if w == "-n" {
			noCd = true
		} else if w == "--" {
			list = list[1:]
			break
		} else if w == "-" {
			break // pushd - works like cd -
		} else if w[0] == '+' || w[0] == '-' {
			n, ok := legalNumber(w[1:])
			if !ok {
				r.builtinErr(name, "%s: invalid number", w)
				r.writeErr(pushdUsage)
				return 2
			}
			if w[0] == '-' {
				n = int64(len(r.dirStack)) - n
			}
			if n > int64(len(r.dirStack)) || n < 0 {
				r.pushdError(name, w)
				return 1
			}
			num, rotate = n, true
		} else {
			break
		}
		list = list[1:]
	}
	if rotate {
		// Rotate the stack num times; the working directory acts as
		// part of it.
		temp := r.dir
		if num == 0 {
			if noCd {
				return 0
			}
			return r.changeToTemp(name, temp)
		}
		for ; num > 0; num-- {
			n := len(r.dirStack)
			top := r.dirStack[n-1]
			copy(r.dirStack[1:], r.dirStack[:n-1])
			r.dirStack[0] = temp
			temp = top
		}
		if noCd {
			return 0
		}
		return r.changeToTemp(name, temp)
	}
	if len(list) == 0 {
		return 0
	}
	cur := r.dir
	if !noCd {
		cdArgs := list
		if skipopt {
			cdArgs = orig
		}
		if st := builtinCd(r, append([]string{name}, cdArgs...)); st != 0 {
			return 1
		}
	} else {
		cur = list[0]
	}
	r.dirStack = append(r.dirStack, cur)
	return r.printDirs(name, false, 0, 0, 0)
}

func builtinPopd(r *Interp, args []string) int {
	name := args[0]
	noCd := false
	var which int64
	direction := byte('+')
	whichWord := ""
	for _, w := range args[1:] {
		if w == "-n" {
			noCd = true
			continue
		}
		if w == "--" {
			break
		}
		if w != "" {
			direction = w[0]
		}
		if w != "" && (w[0] == '+' || w[0] == '-') {
			n, ok := legalNumber(w[1:])
			if !ok {
				r.builtinErr(name, "%s: invalid number", w)
				r.writeErr(popdUsage)
				return 2
			}
			which, whichWord = n, w
			continue
		}
		if w != "" {
			r.builtinErr(name, "%s: invalid argument", w)
			r.writeErr(popdUsage)
			return 2
		}
		break
	}
	off := int64(len(r.dirStack))
	if which > off || which < -off || (off == 0 && which == 0) {
		r.pushdError(name, whichWord)
		return 1
	}
	if (direction == '+' && which == 0) || (direction == '-' && which == off) {
		if !noCd {
			if st := r.cdTo(name, r.dirStack[off-1]); st != 0 {
				return st
			}
		}
		r.dirStack = r.dirStack[:off-1]
	} else {
		i := which
		if direction == '+' {
			i = off - which
		}
		if i < 0 || i > off {
			r.pushdError(name, whichWord)
			return 1
		}
		r.dirStack = append(r.dirStack[:i:i], r.dirStack[i+1:]...)
	}
	return r.printDirs(name, false, 0, 0, 0)
}

// dirstackIndex is bash's get_dirstack_index: the index into r.dirStack
// of +ind or -ind, and how to read it (flag 1: 0 means the working
// directory; flag 2: an index into the stack).
func (r *Interp) dirstackIndex(ind int64, sign int) (int, int) {
	off := int64(len(r.dirStack))
	flag := 1
	if sign < 0 {
		flag = 2
	}
	switch {
	case ind == 0 && sign > 0:
		return 0, flag
	case ind == off:
		if sign > 0 {
			return 0, 2
		}
		return 0, 1
	case ind >= 0 && ind <= off:
		if sign > 0 {
			return int(off - ind), flag
		}
		return int(ind), flag
	}
	return -1, flag
}

// setDirstackElement is an assignment to DIRSTACK[ind].
func (r *Interp) setDirstackElement(ind int64, value string) {
	i, _ := r.dirstackIndex(ind, 1)
	if ind == 0 || i < 0 || i > len(r.dirStack) {
		return
	}
	if i < len(r.dirStack) {
		r.dirStack[i] = value
	}
}

func builtinDirs(r *Interp, args []string) int {
	long, clear := false, false
	vflag := 0
	desired, indexFlag := -1, 0
	w := ""
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "-l" {
			long = true
		} else if a == "-c" {
			clear = true
		} else if a == "-v" {
			vflag |= 2
		} else if a == "-p" {
			vflag |= 1
		} else if a == "--" {
			break
		} else if a != "" && (a[0] == '+' || a[0] == '-') {
			w = a[1:]
			n, ok := legalNumber(w)
			if !ok {
				r.builtinErr("dirs", "%s: invalid number", a)
				r.writeErr(dirsUsage)
				return 2
			}
			sign := 1
			if a[0] == '-' {
				sign = -1
			}
			desired, indexFlag = r.dirstackIndex(n, sign)
		} else {
			r.builtinErr("dirs", "%s: invalid option", a)
			r.writeErr(dirsUsage)
			return 2
		}
	}
	if clear {
		r.dirStack = nil
		return 0
	}
	if indexFlag != 0 && (desired < 0 || desired > len(r.dirStack)) {
		r.pushdError("dirs", w)
		return 1
	}
	return r.printDirs("dirs", long, vflag, indexFlag, desired)
}

// printDirs is the output of dirs.
func (r *Interp) printDirs(name string, long bool, vflag, indexFlag, desired int) int {
	format := func(d string) string {
		if long {
			return d
		}
		return r.tildeDir(d)
	}
	var sb strings.Builder
	off := len(r.dirStack)
	if indexFlag == 0 || (indexFlag == 1 && desired == 0) {
		if vflag&2 != 0 {
			fmt.Fprintf(&sb, "%2d  %s", 0, format(r.dir))
		} else {
			sb.WriteString(format(r.dir))
		}
		if indexFlag != 0 {
			sb.WriteByte('\n')
			return r.writeOut(name, sb.String())
		}
	}
	if indexFlag != 0 {
		if desired < off {
			if vflag&2 != 0 {
				fmt.Fprintf(&sb, "%2d  %s", off-desired, format(r.dirStack[desired]))
			} else {
				sb.WriteString(format(r.dirStack[desired]))
			}
		}
	} else {
		for i := off - 1; i >= 0; i-- {
			if vflag >= 2 {
				fmt.Fprintf(&sb, "\n%2d  %s", off-i, format(r.dirStack[i]))
			} else if vflag&1 != 0 {
				sb.WriteString("\n" + format(r.dirStack[i]))
			} else {
				sb.WriteString(" " + format(r.dirStack[i]))
			}
		}
	}
	sb.WriteByte('\n')
	return r.writeOut(name, sb.String())
}
