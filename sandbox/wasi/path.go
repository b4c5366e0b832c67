package wasi

import (
	"context"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
	"github.com/wasmsand/wasmsand/wasm"
)

// readPath reads a path argument. Empty paths give ENOENT as in POSIX, a
// NUL byte EINVAL and an absolute path EPERM: preview1 paths are relative
// to their directory fd (wasi-libc and Go strip the leading slash against
// the preopens), as the WASI testsuite checks. Symlinks to absolute
// targets still resolve from the sandbox root, which nothing can leave.
func readPath(mem wasm.Memory, ptr, n uint32) (string, errno) {
	path, en := readTarget(mem, ptr, n)
	if en == errnoSuccess && path[0] == '/' {
		return "", errnoPERM
	}
	return path, en
}

// readTarget reads the target of path_symlink: readPath, but an absolute
// target is allowed (see linkLeaves for when it is refused).
func readTarget(mem wasm.Memory, ptr, n uint32) (string, errno) {
	b, ok := mem.Read(ptr, n)
	if !ok {
		return "", errnoFAULT
	}
	if n == 0 {
		return "", errnoNOENT
	}
	for _, c := range b {
		if c == 0 {
			return "", errnoINVAL
		}
	}
	return string(b), errnoSuccess
}

// dirPath returns the directory fd entry and the path of a path_* call.
// A path may not climb above a directory the guest opened itself (ENOTCAPABLE,
// as the WASI testsuite wants: the fd is a capability for what lies under
// it). Preopens are exempt: they stand for the root and the working
// directory, so "../x" from wasi-libc's "." preopen is the POSIX "../x".
func (p *Process) dirPath(mem wasm.Memory, fd uint32, need uint64, ptr, n uint32) (*fdEntry, string, errno) {
	e, en := p.getDir(fd, need)
	if en != errnoSuccess {
		return nil, "", en
	}
	path, en := readPath(mem, ptr, n)
	if en != errnoSuccess {
		return nil, "", en
	}
	if !e.isPreopen && climbsAbove(path) {
		return nil, "", errnoNOTCAPABLE
	}
	return e, path, errnoSuccess
}

// climbsAbove reports whether the relative path's ".." components lead
// above the directory it starts from, read lexically ("a/../.." does,
// "a/../b" does not).
func climbsAbove(path string) bool {
	depth := 0
	for name := range strings.SplitSeq(path, "/") {
		switch name {
		case "", ".":
		case "..":
			if depth--; depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}

func pathCreateDirectory(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, path, en := p.dirPath(mem, uint32(s[0]), rightPathCreateDirectory, uint32(s[1]), uint32(s[2]))
	if en != errnoSuccess {
		return en
	}
	return errnoOf(p.fs.Mkdir(e.ino, path, createDirPerm&^p.umask))
}

func pathFilestatGet(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, path, en := p.dirPath(mem, uint32(s[0]), rightPathFilestatGet, uint32(s[2]), uint32(s[3]))
	if en != errnoSuccess {
		return en
	}
	st, err := p.fs.Stat(e.ino, path, uint32(s[1])&lookupSymlinkFollow != 0)
	if err != nil {
		return errnoOf(err)
	}
	return putFilestat(mem, uint32(s[4]), st)
}

func pathFilestatSetTimes(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, path, en := p.dirPath(mem, uint32(s[0]), rightPathFilestatSetTimes, uint32(s[2]), uint32(s[3]))
	if en != errnoSuccess {
		return en
	}
	a, m, en := p.timeArgs(s[4], s[5], uint16(s[6]))
	if en != errnoSuccess {
		return en
	}
	return errnoOf(p.fs.SetTimes(e.ino, path, uint32(s[1])&lookupSymlinkFollow != 0, a, m))
}

func pathLink(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	oldE, oldPath, en := p.dirPath(mem, uint32(s[0]), rightPathLinkSource, uint32(s[2]), uint32(s[3]))
	if en != errnoSuccess {
		return en
	}
	newE, newPath, en := p.dirPath(mem, uint32(s[4]), rightPathLinkTarget, uint32(s[5]), uint32(s[6]))
	if en != errnoSuccess {
		return en
	}
	if uint32(s[1])&lookupSymlinkFollow != 0 {
		if oldPath, en = p.followFinal(oldE.ino, oldPath); en != errnoSuccess {
			return en
		}
	}
	return errnoOf(p.fs.Link(oldE.ino, oldPath, newE.ino, newPath))
}

// followFinal rewrites path, relative to base, until its final component is
// not a symlink, so that a hard link can be made to what a symlink names.
func (p *Process) followFinal(base vfs.Ino, path string) (string, errno) {
	for range vfs.MaxLinks + 1 {
		st, err := p.fs.Stat(base, path, false)
		if err != nil {
			return "", errnoOf(err)
		}
		if st.Type != vfs.TypeSymlink {
			return path, errnoSuccess
		}
		target, err := p.fs.Readlink(base, path)
		if err != nil {
			return "", errnoOf(err)
		}
		if strings.HasPrefix(target, "/") {
			path = target
		} else if i := strings.LastIndexByte(path, '/'); i >= 0 {
			path = path[:i+1] + target
		} else {
			path = target
		}
	}
	return "", errnoLOOP
}

func pathOpen(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	dirfd, lookup, oflags := uint32(s[0]), uint32(s[1]), uint32(s[4])
	reqBase, reqInherit, fdflags, resultPtr := s[5], s[6], uint32(s[7]), uint32(s[8])

	need := rightPathOpen
	if oflags&uint32(oflagCreat) != 0 {
		need |= rightPathCreateFile
	}
	if oflags&uint32(oflagTrunc) != 0 {
		need |= rightPathFilestatSetSize
	}
	dir, path, en := p.dirPath(mem, dirfd, need, uint32(s[2]), uint32(s[3]))
	if en != errnoSuccess {
		return en
	}
	if oflags&^uint32(oflagsAll) != 0 || fdflags&^uint32(fdflagsAll) != 0 {
		return errnoINVAL
	}
	if !inBounds(mem, resultPtr, 4) {
		return errnoFAULT
	}

	var flags vfs.OpenFlag
	if reqBase&(rightFdRead|rightFdReaddir) != 0 {
		flags |= vfs.ORead
	}
	if reqBase&rightFdWrite != 0 {
		flags |= vfs.OWrite
	}
	if oflags&uint32(oflagCreat) != 0 {
		flags |= vfs.OCreate
	}
	if oflags&uint32(oflagExcl) != 0 {
		flags |= vfs.OExcl
	}
	if oflags&uint32(oflagTrunc) != 0 {
		flags |= vfs.OTrunc
	}
	if oflags&uint32(oflagDirectory) != 0 {
		flags |= vfs.ODirectory
	}
	if lookup&lookupSymlinkFollow == 0 {
		flags |= vfs.ONoFollow
	}
	if fdflags&uint32(fdflagAppend) != 0 {
		flags |= vfs.OAppend
	}
	if fdflags&uint32(fdflagNonblock) != 0 {
		flags |= vfs.ONonblock
	}

	var f *vfs.File
	var err error
	stdFd := -1
	if n, ok := p.devFdNumber(dir.ino, path); ok && n <= 2 {
		stdFd = n
	} else if ok && p.extra[n] != nil {
		// /dev/fd/N opens again what the process's starter has open as N.
		f, err = p.fs.OpenIno(p.extra[n].Ino(), flags)
	} else {
		f, err = p.fs.Open(dir.ino, path, flags, createFilePerm&^p.umask)
	}
	var st vfs.Stat
	if stdFd < 0 {
		if err != nil {
			return errnoOf(err)
		}
		st, err = f.Stat()
		if err != nil {
			f.Close()
			return errnoOf(err)
		}
		if st.Type == vfs.TypeCharDevice && st.Device >= vfs.DevStdin && st.Device <= vfs.DevStderr {
			f.Close()
			stdFd = int(st.Device - vfs.DevStdin)
		}
	}

	var e *fdEntry
	if stdFd >= 0 {
		// /dev/stdin, /dev/fd/0 and friends duplicate the process's own
		// fd 0, 1 or 2.
		std, en := p.get(uint32(stdFd), 0)
		if en != errnoSuccess {
			return errnoNOENT
		}
		dup := *std
		dup.isPreopen, dup.preopen, dup.dirents = false, "", nil
		dup.base &= reqBase
		dup.inherit &= reqInherit
		if dup.end != nil {
			dup.end.ref()
		}
		if dup.owned != nil {
			dup.owned.Add(1)
		}
		e = &dup
	} else {
		typeRights := uint64(fileRights)
		if st.Type == vfs.TypeDir {
			typeRights = dirRights
		}
		e = &fdEntry{
			file: f, owned: newRef(), ftype: filetypeOf(st.Type), isDir: st.Type == vfs.TypeDir,
			ino: f.Ino(), base: reqBase & dir.inherit & typeRights, inherit: reqInherit & dir.inherit,
			fdflags: uint16(fdflags) &^ (fdflagAppend | fdflagNonblock),
		}
		if flags&vfs.ORead == 0 {
			e.base &^= rightFdRead | rightFdReaddir
		}
		if flags&vfs.OWrite == 0 {
			e.base &^= rightFdWrite
		}
	}
	fd, en := p.alloc(e)
	if en != errnoSuccess {
		e.release()
		return en
	}
	return writeU32(mem, resultPtr, fd)
}

// devFdNumber reports whether path, from directory base, names /dev/fd/N,
// and N.
func (p *Process) devFdNumber(base vfs.Ino, path string) (int, bool) {
	i := strings.LastIndexByte(path, '/')
	if i < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(path[i+1:])
	if err != nil || n < 0 || path[i+1] == '+' {
		return 0, false
	}
	dir, err := p.fs.Stat(base, path[:i+1], true)
	if err != nil || dir.Type != vfs.TypeDir {
		return 0, false
	}
	fd, err := p.fs.Stat(vfs.RootIno, "/dev/fd", true)
	if err != nil || fd.Ino != dir.Ino {
		return 0, false
	}
	return n, true
}

func pathReadlink(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, path, en := p.dirPath(mem, uint32(s[0]), rightPathReadlink, uint32(s[1]), uint32(s[2]))
	if en != errnoSuccess {
		return en
	}
	buf, bufLen, usedPtr := uint32(s[3]), uint32(s[4]), uint32(s[5])
	if !inBounds(mem, buf, uint64(bufLen)) || !inBounds(mem, usedPtr, 4) {
		return errnoFAULT
	}
	target, err := p.fs.Readlink(e.ino, path)
	if err != nil {
		return errnoOf(err)
	}
	// Like readlink(2), a target longer than the buffer is truncated.
	n := min(uint32(len(target)), bufLen)
	mem.Write(buf, []byte(target[:n]))
	return writeU32(mem, usedPtr, n)
}

func pathRemoveDirectory(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, path, en := p.dirPath(mem, uint32(s[0]), rightPathRemoveDirectory, uint32(s[1]), uint32(s[2]))
	if en != errnoSuccess {
		return en
	}
	return errnoOf(p.fs.Rmdir(e.ino, path))
}

func pathRename(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	oldE, oldPath, en := p.dirPath(mem, uint32(s[0]), rightPathRenameSource, uint32(s[1]), uint32(s[2]))
	if en != errnoSuccess {
		return en
	}
	newE, newPath, en := p.dirPath(mem, uint32(s[3]), rightPathRenameTarget, uint32(s[4]), uint32(s[5]))
	if en != errnoSuccess {
		return en
	}
	return errnoOf(p.fs.Rename(oldE.ino, oldPath, newE.ino, newPath))
}

func pathSymlink(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	target, en := readTarget(mem, uint32(s[0]), uint32(s[1]))
	if en != errnoSuccess {
		return en
	}
	e, path, en := p.dirPath(mem, uint32(s[2]), rightPathSymlink, uint32(s[3]), uint32(s[4]))
	if en != errnoSuccess {
		return en
	}
	if !e.isPreopen && linkLeaves(path, target) {
		return errnoNOTCAPABLE
	}
	return errnoOf(p.fs.Symlink(target, e.ino, path))
}

// linkLeaves reports whether a symlink made at path (relative to a
// directory fd) with this target would point above that directory: an
// absolute target, or ".." climbing past it from the link's own directory.
// Through a preopen both are allowed, since the root preopen is the
// sandbox's "/" ("ln -s /etc/motd x" means what it says); through a
// directory the guest opened, refusing them keeps the fd a capability for
// what lies under it, as the WASI testsuite's symlink_create checks.
func linkLeaves(path, target string) bool {
	if strings.HasPrefix(target, "/") {
		return true
	}
	dir := ""
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir = path[:i]
	}
	return climbsAbove(dir + "/" + target)
}

func pathUnlinkFile(_ context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	e, path, en := p.dirPath(mem, uint32(s[0]), rightPathUnlinkFile, uint32(s[1]), uint32(s[2]))
	if en != errnoSuccess {
		return en
	}
	return errnoOf(p.fs.Unlink(e.ino, path))
}
