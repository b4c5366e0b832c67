package realpath

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// Mode says how much of a path must exist for Canonicalize.
type Mode uint8

// Canonicalization modes, as in gnulib's canonicalize_filename_mode.
const (
	AllButLast Mode = iota // every component but the last must exist (readlink -f)
	Existing               // every component must exist (readlink -e)
	Missing                // no component need exist (readlink -m)
)

// maxLinks bounds the symlinks followed in one path, like Linux.
const maxLinks = 40

// Canonicalize makes path absolute, removes "." and ".." components and
// repeated slashes, and resolves symbolic links unless physical is false,
// in which case ".." is applied textually. mode says which components must
// exist.
func Canonicalize(path string, mode Mode, physical bool) (string, error) {
	if path == "" {
		return "", syscall.ENOENT
	}
	if path[0] != '/' {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		path = wd + "/" + path
	}
	var out []byte
	out = append(out, '/')
	links := 0
	rest := path
	for rest != "" {
		// Next component.
		rest = strings.TrimLeft(rest, "/")
		if rest == "" {
			break
		}
		comp := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			comp, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		switch comp {
		case ".":
			continue
		case "..":
			out = parent(out)
			continue
		}
		prevLen := len(out)
		if len(out) > 1 {
			out = append(out, '/')
		}
		out = append(out, comp...)
		last := strings.Trim(rest, "/") == ""
		if !physical {
			if mode == Missing {
				continue
			}
			fi, err := os.Stat(string(out))
			if err != nil {
				if mode == AllButLast && last && errors.Is(err, fs.ErrNotExist) {
					continue
				}
				return "", err
			}
			if !last && !fi.IsDir() {
				return "", syscall.ENOTDIR
			}
			continue
		}
		fi, err := os.Lstat(string(out))
		if err != nil {
			// With Missing, keep going: the rest may hold ".." that
			// climbs back into existing directories.
			if errors.Is(err, fs.ErrNotExist) && (mode == Missing || mode == AllButLast && last) ||
				mode == Missing && errors.Is(err, syscall.ENOTDIR) {
				continue
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			links++
			if links > maxLinks {
				return "", syscall.ELOOP
			}
			target, err := os.Readlink(string(out))
			if err != nil {
				return "", err
			}
			out = out[:prevLen]
			if strings.HasPrefix(target, "/") {
				out = append(out[:0], '/')
			}
			rest = target + rest
			continue
		}
		if !fi.IsDir() && !last {
			if mode == Missing {
				continue
			}
			return "", syscall.ENOTDIR
		}
		if !fi.IsDir() && last && strings.HasSuffix(rest, "/") && mode != Missing {
			return "", syscall.ENOTDIR
		}
	}
	return string(out), nil
}

// parent removes the last component of an absolute path.
func parent(p []byte) []byte {
	i := len(p) - 1
	for i > 0 && p[i] != '/' {
		i--
	}
	if i == 0 {
		return p[:1]
	}
	return p[:i]
}
