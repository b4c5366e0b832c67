package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// The directory stack of pushd, popd and dirs. Entry 0 is the working
// directory; r.dirStack holds the others, the last one being entry 1.

func (r *Interp) dirList() []string {
	return append([]string{r.dir}, reversed(r.dirStack)...)
}

// setDirList stores entries 1.. of list as the stack.
func (r *Interp) setDirList(list []string) {
	r.dirStack = reversed(list[1:])
}

// tildeDir abbreviates $HOME as ~, as dirs prints without -l.
func (r *Interp) tildeDir(d string) string {
	home, _ := r.getScalar("HOME")
	if home != "" && home != "/" && (d == home || strings.HasPrefix(d, home+"/")) {
		return "~" + d[len(home):]
	}
	return d
}

func (r *Interp) dirsLine() string {
	list := r.dirList()
	for i, d := range list {
		list[i] = r.tildeDir(d)
	}
	return strings.Join(list, " ") + "\n"
}

// stackIndex parses +N or -N against a stack of n entries.
func stackIndex(arg string, n int) (int, bool) {
	if len(arg) < 2 || (arg[0] != '+' && arg[0] != '-') {
		return 0, false
	}
	k, err := strconv.Atoi(arg[1:])
	if err != nil || k < 0 || k >= n {
		return -1, true
	}
	if arg[0] == '-' {
		k = n - 1 - k
	}
	return k, true
}

func isStackIndex(arg string) bool {
	if len(arg) < 2 || (arg[0] != '+' && arg[0] != '-') {
		return false
	}
	_, err := strconv.Atoi(arg[1:])
	return err == nil
}

func builtinPushd(r *Interp, args []string) int {
	noCd := false
	var operand string
	have := false
	for _, a := range args[1:] {
		switch {
		case !have && a == "-n":
			noCd = true
		case !have && a == "--":
		case !have:
			operand, have = a, true
		default:
			r.builtinErr("pushd", "too many arguments")
			return 1
		}
	}
	list := r.dirList()
	switch {
	case !have:
		if len(list) < 2 {
			r.builtinErr("pushd", "no other directory")
			return 1
		}
		list[0], list[1] = list[1], list[0]
		return r.pushdTo(list, noCd)
	case isStackIndex(operand):
		k, _ := stackIndex(operand, len(list))
		if k < 0 {
			r.builtinErr("pushd", "%s: directory stack index out of range", operand)
			return 1
		}
		list = append(append([]string(nil), list[k:]...), list[:k]...)
		return r.pushdTo(list, noCd)
	}
	if noCd {
		list = append([]string{list[0], r.absPath(operand)}, list[1:]...)
		r.setDirList(list)
		return r.writeOut("pushd", r.dirsLine())
	}
	old := r.dir
	if st := builtinCd(r, []string{"cd", operand}); st != 0 {
		return st
	}
	r.dirStack = append(r.dirStack, old)
	return r.writeOut("pushd", r.dirsLine())
}

// pushdTo makes list the stack, changing to its top unless noCd.
func (r *Interp) pushdTo(list []string, noCd bool) int {
	if !noCd {
		if st := builtinCd(r, []string{"cd", list[0]}); st != 0 {
			return st
		}
		list[0] = r.dir
	}
	r.setDirList(list)
	return r.writeOut("pushd", r.dirsLine())
}

func builtinPopd(r *Interp, args []string) int {
	noCd := false
	k := 0
	for _, a := range args[1:] {
		switch {
		case a == "-n":
			noCd = true
		case a == "--":
		case isStackIndex(a):
			n := len(r.dirStack) + 1
			i, _ := stackIndex(a, n)
			if i < 0 {
				r.builtinErr("popd", "%s: directory stack index out of range", a)
				return 1
			}
			k = i
		default:
			r.builtinErr("popd", "%s: invalid argument", a)
			r.writeErr("popd: usage: popd [-n] [+N | -N]\n")
			return 2
		}
	}
	if len(r.dirStack) == 0 {
		r.builtinErr("popd", "directory stack empty")
		return 1
	}
	list := r.dirList()
	if k == 0 && !noCd {
		if st := builtinCd(r, []string{"cd", list[1]}); st != 0 {
			return st
		}
		list = list[1:]
		list[0] = r.dir
	} else {
		if k == 0 {
			k = 1 // -n removes the entry under the top
		}
		list = append(list[:k:k], list[k+1:]...)
	}
	r.setDirList(list)
	return r.writeOut("popd", r.dirsLine())
}

func builtinDirs(r *Interp, args []string) int {
	long, perLine, verbose := false, false, false
	index := -1
	for _, a := range args[1:] {
		switch {
		case a == "-c":
			r.dirStack = nil
			return 0
		case isStackIndex(a):
			i, _ := stackIndex(a, len(r.dirStack)+1)
			if i < 0 {
				r.builtinErr("dirs", "%s: directory stack index out of range", a)
				return 1
			}
			index = i
		case a == "-l":
			long = true
		case a == "-p":
			perLine = true
		case a == "-v":
			perLine, verbose = true, true
		case a == "--":
		case a[0] == '-' || a[0] == '+':
			// bash takes its options one to a word: -lv is no number
			r.builtinErr("dirs", "%s: invalid number", a)
			r.writeErr("dirs: usage: dirs [-clpv] [+N] [-N]\n")
			return 2
		default:
			r.builtinErr("dirs", "%s: invalid option", a)
			r.writeErr("dirs: usage: dirs [-clpv] [+N] [-N]\n")
			return 2
		}
	}
	list := r.dirList()
	if !long {
		for i, d := range list {
			list[i] = r.tildeDir(d)
		}
	}
	if index >= 0 {
		if verbose {
			// dirs -v N numbers the one entry as -v does
			return r.writeOut("dirs", fmt.Sprintf("%2d  %s\n", index, list[index]))
		}
		return r.writeOut("dirs", list[index]+"\n")
	}
	if !perLine {
		return r.writeOut("dirs", strings.Join(list, " ")+"\n")
	}
	var sb strings.Builder
	for i, d := range list {
		if verbose {
			fmt.Fprintf(&sb, "%2d  %s\n", i, d)
		} else {
			sb.WriteString(d + "\n")
		}
	}
	return r.writeOut("dirs", sb.String())
}
