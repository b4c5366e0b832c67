package node

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/dop251/goja"
)

// errnoInfo is Node's view of an errno: its code, Linux number and text.
var errnoInfo = []struct {
	err  syscall.Errno
	code string
	num  int
	text string
}{
	{syscall.ENOENT, "ENOENT", -2, "no such file or directory"},
	{syscall.EEXIST, "EEXIST", -17, "file already exists"},
	{syscall.ENOTDIR, "ENOTDIR", -20, "not a directory"},
	{syscall.EISDIR, "EISDIR", -21, "illegal operation on a directory"},
	{syscall.EACCES, "EACCES", -13, "permission denied"},
	{syscall.EPERM, "EPERM", -1, "operation not permitted"},
	{syscall.ENOTEMPTY, "ENOTEMPTY", -39, "directory not empty"},
	{syscall.ENOSPC, "ENOSPC", -28, "no space left on device"},
	{syscall.EBADF, "EBADF", -9, "bad file descriptor"},
	{syscall.EINVAL, "EINVAL", -22, "invalid argument"},
	{syscall.EROFS, "EROFS", -30, "read-only file system"},
	{syscall.ELOOP, "ELOOP", -40, "too many symbolic links encountered"},
	{syscall.EXDEV, "EXDEV", -18, "cross-device link not permitted"},
	{syscall.EMFILE, "EMFILE", -24, "too many open files"},
	{syscall.ENAMETOOLONG, "ENAMETOOLONG", -36, "name too long"},
	{syscall.ENOTSUP, "ENOTSUP", -95, "operation not supported on socket"},
	{syscall.ENOSYS, "ENOSYS", -38, "function not implemented"},
	{syscall.EIO, "EIO", -5, "i/o error"},
}

// throwFS raises a Node-style system error for a failed fs call.
func (rt *runtime) throwFS(err error, call, path, dest string) {
	panic(rt.fsError(err, call, path, dest))
}

func (rt *runtime) fsError(err error, call, path, dest string) *goja.Object {
	code, num, text := "EIO", -5, "i/o error"
	var en syscall.Errno
	found := false
	if errors.As(err, &en) {
		for _, e := range errnoInfo {
			if e.err == en {
				code, num, text, found = e.code, e.num, e.text, true
			}
		}
	}
	if !found {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			code, num, text = "ENOENT", -2, "no such file or directory"
		case errors.Is(err, fs.ErrExist):
			code, num, text = "EEXIST", -17, "file already exists"
		case errors.Is(err, fs.ErrPermission):
			code, num, text = "EACCES", -13, "permission denied"
		}
	}
	msg := fmt.Sprintf("%s: %s, %s '%s'", code, text, call, path)
	if dest != "" {
		msg += fmt.Sprintf(" -> '%s'", dest)
	}
	e := rt.newError("Error", msg)
	e.Set("errno", num)
	e.Set("code", code)
	e.Set("syscall", call)
	e.Set("path", path)
	if dest != "" {
		e.Set("dest", dest)
	}
	return e
}

// pathArg reads a path argument: a string, a Buffer or a file: URL.
func (rt *runtime) pathArg(v goja.Value, name string) string {
	if goja.IsUndefined(v) || goja.IsNull(v) {
		rt.throwCode("TypeError", "ERR_INVALID_ARG_TYPE", fmt.Sprintf(`The "%s" argument must be of type string or an instance of Buffer or URL. Received %s`, name, rt.inspect(v, inspectOpts{})))
	}
	if o, ok := v.(*goja.Object); ok {
		if h := o.Get("href"); h != nil && !goja.IsUndefined(h) && strings.HasPrefix(h.String(), "file:") {
			return o.Get("pathname").String()
		}
		if bl := o.Get("byteLength"); bl != nil && !goja.IsUndefined(bl) {
			return string(rt.bytesOf(o))
		}
	}
	return v.String()
}

// encodingOf reads an encoding from a string or {encoding} options.
func encodingOf(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	if o, ok := v.(*goja.Object); ok {
		if e := o.Get("encoding"); e != nil && !goja.IsUndefined(e) && !goja.IsNull(e) {
			return normEncoding(e.String())
		}
		return ""
	}
	return normEncoding(v.String())
}

func normEncoding(e string) string {
	switch strings.ToLower(e) {
	case "utf8", "utf-8":
		return "utf8"
	case "binary":
		return "latin1"
	case "ucs2", "ucs-2", "utf-16le":
		return "utf16le"
	case "buffer":
		return ""
	}
	return strings.ToLower(e)
}

func optBool(v goja.Value, key string) bool {
	if o, ok := v.(*goja.Object); ok {
		if x := o.Get(key); x != nil {
			return x.ToBoolean()
		}
	}
	return false
}

func optString(v goja.Value, key string) string {
	if o, ok := v.(*goja.Object); ok {
		if x := o.Get(key); x != nil && !goja.IsUndefined(x) {
			return x.String()
		}
	}
	return ""
}

// newBuffer makes a Buffer holding a copy of b.
func (rt *runtime) newBuffer(b []byte) goja.Value {
	ctor, _ := goja.AssertConstructor(rt.prelude("Buffer"))
	o, err := ctor(nil, rt.vm.ToValue(rt.vm.NewArrayBuffer(append([]byte(nil), b...))))
	if err != nil {
		panic(err)
	}
	return o
}

// dataArg reads data to write: a string (in enc) or bytes.
func (rt *runtime) dataArg(v goja.Value, enc string) []byte {
	if o, ok := v.(*goja.Object); ok {
		if bl := o.Get("byteLength"); bl != nil && !goja.IsUndefined(bl) {
			return rt.bytesOf(o)
		}
	}
	if enc == "" {
		enc = "utf8"
	}
	b, err := encodeString(v.String(), enc)
	if err != nil {
		rt.throwCode("TypeError", "ERR_UNKNOWN_ENCODING", err.Error())
	}
	return b
}

func (rt *runtime) fsModule() goja.Value {
	vm := rt.vm
	f := vm.NewObject()
	readFile := func(call goja.FunctionCall) goja.Value {
		enc := encodingOf(call.Argument(1))
		var b []byte
		var err error
		p := call.Argument(0)
		if n, ok := p.Export().(int64); ok {
			if n == 0 {
				b = rt.readStdin()
			} else {
				b, err = io.ReadAll(os.NewFile(uintptr(n), "fd"))
			}
		} else {
			path := rt.pathArg(p, "path")
			if path == "/dev/stdin" {
				b = rt.readStdin()
			} else {
				b, err = os.ReadFile(path)
				if err != nil {
					rt.throwFS(err, "open", path, "")
				}
			}
		}
		if err != nil {
			rt.throwFS(err, "read", "", "")
		}
		if enc == "" {
			return rt.newBuffer(b)
		}
		return vm.ToValue(decodeBytes(b, enc))
	}
	f.Set("readFileSync", readFile)
	write := func(appendMode bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			opts := call.Argument(2)
			enc := encodingOf(opts)
			data := rt.dataArg(call.Argument(1), enc)
			flag := optString(opts, "flag")
			mode := fs.FileMode(0o666)
			if m := optString(opts, "mode"); m != "" {
				var x int
				fmt.Sscan(m, &x)
				mode = fs.FileMode(x)
			}
			if n, ok := call.Argument(0).Export().(int64); ok && n >= 1 && n <= 2 {
				if n == 1 {
					rt.writeOut(string(data))
				} else {
					rt.writeErr(string(data))
				}
				return goja.Undefined()
			}
			path := rt.pathArg(call.Argument(0), "path")
			flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
			if appendMode || strings.HasPrefix(flag, "a") {
				flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
			}
			if strings.Contains(flag, "x") {
				flags |= os.O_EXCL
			}
			fh, err := os.OpenFile(path, flags, mode)
			if err != nil {
				rt.throwFS(err, "open", path, "")
			}
			_, err = fh.Write(data)
			if cerr := fh.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				rt.throwFS(err, "write", path, "")
			}
			return goja.Undefined()
		}
	}
	f.Set("writeFileSync", write(false))
	f.Set("appendFileSync", write(true))
	f.Set("existsSync", func(call goja.FunctionCall) goja.Value {
		v := call.Argument(0)
		if goja.IsUndefined(v) || goja.IsNull(v) {
			return vm.ToValue(false)
		}
		_, err := os.Stat(rt.pathArg(v, "path"))
		return vm.ToValue(err == nil)
	})
	f.Set("readdirSync", func(call goja.FunctionCall) goja.Value {
		path := rt.pathArg(call.Argument(0), "path")
		opts := call.Argument(1)
		ents, err := os.ReadDir(path)
		if err != nil {
			rt.throwFS(err, "scandir", path, "")
		}
		recursive := optBool(opts, "recursive")
		type entry struct {
			name string
			ent  fs.DirEntry
			dir  string
		}
		var list []entry
		var walk func(rel string, ents []fs.DirEntry)
		walk = func(rel string, ents []fs.DirEntry) {
			for _, e := range ents {
				name := e.Name()
				if rel != "" {
					name = rel + "/" + e.Name()
				}
				list = append(list, entry{name, e, filepath.Join(path, rel)})
				if recursive && e.IsDir() {
					sub, err := os.ReadDir(filepath.Join(path, name))
					if err == nil {
						walk(name, sub)
					}
				}
			}
		}
		walk("", ents)
		if recursive {
			sort.SliceStable(list, func(i, j int) bool { return false })
		}
		out := make([]any, 0, len(list))
		withTypes := optBool(opts, "withFileTypes")
		for _, e := range list {
			if withTypes {
				out = append(out, rt.dirent(e.ent.Name(), e.dir, e.ent.Type()))
			} else {
				out = append(out, e.name)
			}
		}
		return vm.ToValue(out)
	})
	stat := func(lstat bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			path := rt.pathArg(call.Argument(0), "path")
			var st fs.FileInfo
			var err error
			name := "stat"
			if lstat {
				st, err = os.Lstat(path)
				name = "lstat"
			} else {
				st, err = os.Stat(path)
			}
			if err != nil {
				if o, ok := call.Argument(1).(*goja.Object); ok {
					if t := o.Get("throwIfNoEntry"); t != nil && !t.ToBoolean() && errors.Is(err, fs.ErrNotExist) {
						return goja.Undefined()
					}
				}
				rt.throwFS(err, name, path, "")
			}
			return rt.stats(st)
		}
	}
	f.Set("statSync", stat(false))
	f.Set("lstatSync", stat(true))
	f.Set("mkdirSync", func(call goja.FunctionCall) goja.Value {
		path := rt.pathArg(call.Argument(0), "path")
		opts := call.Argument(1)
		if optBool(opts, "recursive") {
			first := ""
			for p := filepath.Clean(absPath(path)); ; p = filepath.Dir(p) {
				if _, err := os.Stat(p); err == nil {
					break
				}
				first = p
				if p == "/" {
					break
				}
			}
			if err := os.MkdirAll(path, 0o777); err != nil {
				rt.throwFS(err, "mkdir", path, "")
			}
			if first == "" {
				return goja.Undefined()
			}
			return vm.ToValue(first)
		}
		if err := os.Mkdir(path, 0o777); err != nil {
			rt.throwFS(err, "mkdir", path, "")
		}
		return goja.Undefined()
	})
	f.Set("unlinkSync", func(call goja.FunctionCall) goja.Value {
		path := rt.pathArg(call.Argument(0), "path")
		if st, err := os.Lstat(path); err == nil && st.IsDir() {
			rt.throwFS(syscall.EISDIR, "unlink", path, "")
		}
		if err := syscall.Unlink(path); err != nil {
			rt.throwFS(err, "unlink", path, "")
		}
		return goja.Undefined()
	})
	f.Set("rmdirSync", func(call goja.FunctionCall) goja.Value {
		path := rt.pathArg(call.Argument(0), "path")
		if optBool(call.Argument(1), "recursive") {
			if err := os.RemoveAll(path); err != nil {
				rt.throwFS(err, "rmdir", path, "")
			}
			return goja.Undefined()
		}
		if err := syscall.Rmdir(path); err != nil {
			rt.throwFS(err, "rmdir", path, "")
		}
		return goja.Undefined()
	})
	f.Set("rmSync", func(call goja.FunctionCall) goja.Value {
		path := rt.pathArg(call.Argument(0), "path")
		opts := call.Argument(1)
		st, err := os.Lstat(path)
		if err != nil {
			if optBool(opts, "force") && errors.Is(err, fs.ErrNotExist) {
				return goja.Undefined()
			}
			rt.throwFS(err, "lstat", path, "")
		}
		if st.IsDir() {
			if !optBool(opts, "recursive") {
				e := rt.newError("Error", fmt.Sprintf("Path is a directory: rm returned EISDIR (is a directory) %s", path))
				e.Set("code", "ERR_FS_EISDIR")
				panic(e)
			}
			if err := os.RemoveAll(path); err != nil {
				rt.throwFS(err, "rm", path, "")
			}
			return goja.Undefined()
		}
		if err := os.Remove(path); err != nil {
			rt.throwFS(err, "unlink", path, "")
		}
		return goja.Undefined()
	})
	f.Set("renameSync", func(a, b goja.Value) {
		from, to := rt.pathArg(a, "oldPath"), rt.pathArg(b, "newPath")
		if err := os.Rename(from, to); err != nil {
			rt.throwFS(err, "rename", from, to)
		}
	})
	f.Set("copyFileSync", func(a, b goja.Value, mode goja.Value) {
		from, to := rt.pathArg(a, "src"), rt.pathArg(b, "dest")
		data, err := os.ReadFile(from)
		if err != nil {
			rt.throwFS(err, "copyfile", from, to)
		}
		flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if mode != nil && !goja.IsUndefined(mode) && mode.ToInteger()&1 != 0 {
			flags |= os.O_EXCL
		}
		fh, err := os.OpenFile(to, flags, 0o666)
		if err != nil {
			rt.throwFS(err, "copyfile", from, to)
		}
		_, err = fh.Write(data)
		fh.Close()
		if err != nil {
			rt.throwFS(err, "copyfile", from, to)
		}
	})
	f.Set("cpSync", func(a, b, opts goja.Value) {
		from, to := rt.pathArg(a, "src"), rt.pathArg(b, "dest")
		if err := copyTree(from, to, optBool(opts, "recursive")); err != nil {
			rt.throwFS(err, "cp", from, to)
		}
	})
	f.Set("realpathSync", func(call goja.FunctionCall) goja.Value {
		path := rt.pathArg(call.Argument(0), "path")
		r, err := filepath.EvalSymlinks(absPath(path))
		if err != nil {
			rt.throwFS(err, "realpath", path, "")
		}
		return vm.ToValue(r)
	})
	f.Set("accessSync", func(call goja.FunctionCall) goja.Value {
		path := rt.pathArg(call.Argument(0), "path")
		st, err := os.Stat(path)
		if err != nil {
			rt.throwFS(err, "access", path, "")
		}
		mode := call.Argument(1)
		if !goja.IsUndefined(mode) {
			m := mode.ToInteger()
			perm := int64(st.Mode().Perm())
			if m&2 != 0 && perm&0o222 == 0 || m&1 != 0 && perm&0o111 == 0 || m&4 != 0 && perm&0o444 == 0 {
				rt.throwFS(syscall.EACCES, "access", path, "")
			}
		}
		return goja.Undefined()
	})
	f.Set("chmodSync", func(p, m goja.Value) {
		path := rt.pathArg(p, "path")
		mode := m.ToInteger()
		if s, ok := m.Export().(string); ok {
			fmt.Sscanf(s, "%o", &mode)
		}
		if err := os.Chmod(path, fs.FileMode(mode)); err != nil {
			rt.throwFS(err, "chmod", path, "")
		}
	})
	f.Set("symlinkSync", func(a, b goja.Value) {
		target, path := rt.pathArg(a, "target"), rt.pathArg(b, "path")
		if err := os.Symlink(target, path); err != nil {
			rt.throwFS(err, "symlink", target, path)
		}
	})
	f.Set("linkSync", func(a, b goja.Value) {
		from, to := rt.pathArg(a, "existingPath"), rt.pathArg(b, "newPath")
		if err := os.Link(from, to); err != nil {
			rt.throwFS(err, "link", from, to)
		}
	})
	f.Set("readlinkSync", func(call goja.FunctionCall) goja.Value {
		path := rt.pathArg(call.Argument(0), "path")
		r, err := os.Readlink(path)
		if err != nil {
			rt.throwFS(err, "readlink", path, "")
		}
		return vm.ToValue(r)
	})
	f.Set("mkdtempSync", func(call goja.FunctionCall) goja.Value {
		prefix := rt.pathArg(call.Argument(0), "prefix")
		const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		for try := 0; try < 100; try++ {
			rt.tmpSeq++
			n := time.Now().UnixNano() + int64(rt.tmpSeq)*7919
			suffix := make([]byte, 6)
			for i := range suffix {
				suffix[i] = chars[int(n%int64(len(chars)))]
				n /= int64(len(chars))
			}
			p := prefix + string(suffix)
			if err := os.Mkdir(p, 0o700); err == nil {
				return vm.ToValue(p)
			} else if !errors.Is(err, fs.ErrExist) {
				rt.throwFS(err, "mkdtemp", prefix+"XXXXXX", "")
			}
		}
		rt.throwFS(syscall.EEXIST, "mkdtemp", prefix+"XXXXXX", "")
		return nil
	})
	f.Set("truncateSync", func(call goja.FunctionCall) goja.Value {
		path := rt.pathArg(call.Argument(0), "path")
		if err := os.Truncate(path, call.Argument(1).ToInteger()); err != nil {
			rt.throwFS(err, "open", path, "")
		}
		return goja.Undefined()
	})
	f.Set("utimesSync", func(p, a, m goja.Value) {
		path := rt.pathArg(p, "path")
		if err := os.Chtimes(path, timeArg(a), timeArg(m)); err != nil {
			rt.throwFS(err, "utime", path, "")
		}
	})
	rt.fsDescriptors(f)
	constants := map[string]any{"F_OK": 0, "R_OK": 4, "W_OK": 2, "X_OK": 1, "COPYFILE_EXCL": 1,
		"O_RDONLY": 0, "O_WRONLY": 1, "O_RDWR": 2, "O_CREAT": 64, "O_EXCL": 128, "O_TRUNC": 512, "O_APPEND": 1024,
		"S_IFMT": 0o170000, "S_IFREG": 0o100000, "S_IFDIR": 0o40000, "S_IFLNK": 0o120000}
	f.Set("constants", constants)
	for k, v := range constants {
		if strings.HasSuffix(k, "_OK") {
			f.Set(k, v)
		}
	}
	w, err := vm.RunProgram(fsProgram)
	if err != nil {
		panic(err)
	}
	wrap, _ := goja.AssertFunction(w)
	if _, err := wrap(goja.Undefined(), f, rt.builtin["__prelude"]); err != nil {
		panic(err)
	}
	return f
}

func timeArg(v goja.Value) time.Time {
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Date" {
		if t, ok := o.Export().(time.Time); ok {
			return t
		}
	}
	s := v.ToFloat()
	sec, frac := math.Modf(s)
	return time.Unix(int64(sec), int64(frac*1e9))
}

func copyTree(from, to string, recursive bool) error {
	st, err := os.Stat(from)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		b, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, st.Mode().Perm())
	}
	if !recursive {
		return syscall.EISDIR
	}
	if err := os.MkdirAll(to, 0o777); err != nil {
		return err
	}
	ents, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if err := copyTree(filepath.Join(from, e.Name()), filepath.Join(to, e.Name()), true); err != nil {
			return err
		}
	}
	return nil
}

// fsDescriptors adds the fd-level calls: openSync, readSync, writeSync,
// closeSync, fstatSync.
func (rt *runtime) fsDescriptors(f *goja.Object) {
	vm := rt.vm
	files := map[int64]*os.File{}
	next := int64(100)
	f.Set("openSync", func(call goja.FunctionCall) goja.Value {
		path := rt.pathArg(call.Argument(0), "path")
		flag := "r"
		if v := call.Argument(1); !goja.IsUndefined(v) {
			flag = v.String()
		}
		var flags int
		switch strings.ReplaceAll(flag, "s", "") {
		case "r":
			flags = os.O_RDONLY
		case "r+":
			flags = os.O_RDWR
		case "w":
			flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		case "wx", "xw":
			flags = os.O_WRONLY | os.O_CREATE | os.O_EXCL
		case "w+":
			flags = os.O_RDWR | os.O_CREATE | os.O_TRUNC
		case "a":
			flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		case "ax", "xa":
			flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND | os.O_EXCL
		case "a+":
			flags = os.O_RDWR | os.O_CREATE | os.O_APPEND
		default:
			if n, ok := call.Argument(1).Export().(int64); ok {
				flags = int(n)
			} else {
				rt.throwCode("TypeError", "ERR_INVALID_ARG_VALUE", fmt.Sprintf("The argument 'flags' is invalid. Received '%s'", flag))
			}
		}
		fh, err := os.OpenFile(path, flags, 0o666)
		if err != nil {
			rt.throwFS(err, "open", path, "")
		}
		next++
		files[next] = fh
		return vm.ToValue(next)
	})
	fileOf := func(v goja.Value) *os.File {
		n := v.ToInteger()
		switch n {
		case 0:
			return os.Stdin
		case 1:
			rt.flush()
			return os.Stdout
		case 2:
			rt.flush()
			return os.Stderr
		}
		fh, ok := files[n]
		if !ok {
			rt.throwFS(syscall.EBADF, "read", "", "")
		}
		return fh
	}
	f.Set("closeSync", func(v goja.Value) {
		n := v.ToInteger()
		if fh, ok := files[n]; ok {
			fh.Close()
			delete(files, n)
			return
		}
		if n > 2 {
			rt.throwFS(syscall.EBADF, "close", "", "")
		}
	})
	f.Set("writeSync", func(call goja.FunctionCall) goja.Value {
		n := call.Argument(0).ToInteger()
		data := rt.dataArg(call.Argument(1), "")
		if o, ok := call.Argument(1).(*goja.Object); ok && o.Get("byteLength") != nil && !goja.IsUndefined(o.Get("byteLength")) {
			if off := call.Argument(2); !goja.IsUndefined(off) {
				s := int(off.ToInteger())
				e := len(data)
				if l := call.Argument(3); !goja.IsUndefined(l) {
					e = min(len(data), s+int(l.ToInteger()))
				}
				if s <= e {
					data = data[s:e]
				}
			}
		}
		if n == 1 && rt.capture != nil {
			rt.writeOut(string(data))
			return vm.ToValue(len(data))
		}
		if n == 2 && rt.capture != nil {
			rt.writeErr(string(data))
			return vm.ToValue(len(data))
		}
		if n == 1 {
			rt.writeOut(string(data))
			return vm.ToValue(len(data))
		}
		w, err := fileOf(call.Argument(0)).Write(data)
		if err != nil {
			rt.throwFS(err, "write", "", "")
		}
		return vm.ToValue(w)
	})
	f.Set("readSync", func(call goja.FunctionCall) goja.Value {
		fh := fileOf(call.Argument(0))
		buf, ok := call.Argument(1).(*goja.Object)
		if !ok {
			rt.throwCode("TypeError", "ERR_INVALID_ARG_TYPE", `The "buffer" argument must be an instance of Buffer, TypedArray, or DataView`)
		}
		ab, _ := buf.Get("buffer").Export().(goja.ArrayBuffer)
		base := int(buf.Get("byteOffset").ToInteger())
		size := int(buf.Get("byteLength").ToInteger())
		off, length := 0, size
		if v := call.Argument(2); !goja.IsUndefined(v) {
			if o, ok := v.(*goja.Object); ok {
				if x := o.Get("offset"); x != nil && !goja.IsUndefined(x) {
					off = int(x.ToInteger())
				}
				if x := o.Get("length"); x != nil && !goja.IsUndefined(x) {
					length = int(x.ToInteger())
				} else {
					length = size - off
				}
			} else {
				off = int(v.ToInteger())
				length = size - off
				if l := call.Argument(3); !goja.IsUndefined(l) {
					length = int(l.ToInteger())
				}
			}
		}
		if off < 0 || length < 0 || off+length > size {
			rt.throwCode("RangeError", "ERR_OUT_OF_RANGE", "The value of \"length\" is out of range.")
		}
		bytes := ab.Bytes()[base+off : base+off+length]
		if fh == os.Stdin && rt.capture == nil {
			rt.flush()
		}
		n, err := fh.Read(bytes)
		if err != nil && err != io.EOF {
			rt.throwFS(err, "read", "", "")
		}
		return vm.ToValue(n)
	})
	f.Set("fstatSync", func(v goja.Value) goja.Value {
		st, err := fileOf(v).Stat()
		if err != nil {
			rt.throwFS(err, "fstat", "", "")
		}
		return rt.stats(st)
	})
}

// stats makes an fs.Stats object.
func (rt *runtime) stats(st fs.FileInfo) goja.Value {
	vm := rt.vm
	ctor, _ := goja.AssertConstructor(rt.prelude("Stats"))
	mode := int64(st.Mode().Perm())
	switch {
	case st.Mode().IsDir():
		mode |= 0o40000
	case st.Mode()&fs.ModeSymlink != 0:
		mode |= 0o120000
	case st.Mode()&fs.ModeNamedPipe != 0:
		mode |= 0o10000
	case st.Mode()&fs.ModeCharDevice != 0:
		mode |= 0o20000
	default:
		mode |= 0o100000
	}
	var ino, nlink, uid, gid, dev uint64
	atime, ctime := st.ModTime(), st.ModTime()
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		ino, nlink, dev = uint64(sys.Ino), uint64(sys.Nlink), uint64(sys.Dev)
		uid, gid = statIDs(sys)
		atime, ctime = statTimes(sys, st.ModTime())
	}
	ms := func(t time.Time) float64 { return float64(t.UnixNano()) / 1e6 }
	o, err := ctor(nil, vm.ToValue(map[string]any{
		"dev": dev, "mode": mode, "nlink": nlink, "uid": uid, "gid": gid, "rdev": 0, "blksize": 4096,
		"ino": ino, "size": st.Size(), "blocks": (st.Size() + 511) / 512,
		"atimeMs": ms(atime), "mtimeMs": ms(st.ModTime()), "ctimeMs": ms(ctime), "birthtimeMs": ms(ctime),
	}))
	if err != nil {
		panic(err)
	}
	return o
}

// dirent makes an fs.Dirent.
func (rt *runtime) dirent(name, dir string, t fs.FileMode) goja.Value {
	ctor, _ := goja.AssertConstructor(rt.prelude("Dirent"))
	kind := 1
	switch {
	case t.IsDir():
		kind = 2
	case t&fs.ModeSymlink != 0:
		kind = 3
	case t&fs.ModeNamedPipe != 0:
		kind = 4
	case t&fs.ModeCharDevice != 0:
		kind = 6
	}
	o, err := ctor(nil, rt.vm.ToValue(name), rt.vm.ToValue(kind), rt.vm.ToValue(dir))
	if err != nil {
		panic(err)
	}
	return o
}

// fsAsyncJS adds the callback and promise forms, streams, Stats and Dirent.
const fsAsyncJS = `(function () {
  return function (fs, host) {
    const names = ['readFile', 'writeFile', 'appendFile', 'readdir', 'stat', 'lstat', 'mkdir', 'unlink', 'rmdir', 'rm',
      'rename', 'copyFile', 'cp', 'realpath', 'access', 'chmod', 'symlink', 'link', 'readlink', 'mkdtemp', 'truncate', 'utimes'];
    const promises = {};
    for (const n of names) {
      const sync = fs[n + 'Sync'];
      promises[n] = (...args) => new Promise((resolve, reject) => { try { resolve(sync(...args)); } catch (e) { reject(e); } });
      fs[n] = function (...args) {
        const cb = args.pop();
        if (typeof cb !== 'function') {
          const e = new TypeError('The "cb" argument must be of type function. Received ' + host.inspect(cb));
          e.code = 'ERR_INVALID_ARG_TYPE';
          throw e;
        }
        let r, err = null;
        try { r = sync(...args); } catch (e) { err = e; }
        setImmediate(() => (err ? cb(err) : cb(null, r)));
      };
    }
    fs.exists = (p, cb) => { const r = fs.existsSync(p); setImmediate(() => cb(r)); };
    promises.constants = fs.constants;
    fs.promises = promises;
    fs.createWriteStream = function (path, opts) {
      const flags = (opts && opts.flags) || 'w';
      const fd = fs.openSync(path, flags);
      const EE = host.modules.events();
      const s = new EE();
      s.path = path; s.bytesWritten = 0; s.writable = true;
      s.write = (chunk, enc, cb) => { const n = fs.writeSync(fd, typeof chunk === 'string' ? Buffer.from(chunk, typeof enc === 'string' ? enc : 'utf8') : chunk); s.bytesWritten += n; if (typeof enc === 'function') cb = enc; if (cb) setImmediate(cb); return true; };
      s.end = (chunk, enc, cb) => {
        if (typeof chunk === 'function') { cb = chunk; chunk = undefined; }
        if (chunk !== undefined && chunk !== null) s.write(chunk, enc);
        if (s.writable) { s.writable = false; fs.closeSync(fd); setImmediate(() => { s.emit('finish'); s.emit('close'); if (cb) cb(); }); }
        return s;
      };
      s.close = (cb) => s.end(cb);
      setImmediate(() => s.emit('open', fd));
      return s;
    };
    fs.createReadStream = function (path, opts) {
      const EE = host.modules.events();
      const s = new EE();
      const enc = typeof opts === 'string' ? opts : opts && opts.encoding;
      s.path = path;
      s.setEncoding = (e) => { s._enc = e; return s; };
      s._enc = enc;
      s.pipe = (dest) => { s.on('data', (c) => dest.write(c)); s.on('end', () => { if (dest.end && dest !== process.stdout && dest !== process.stderr) dest.end(); }); return dest; };
      s[Symbol.asyncIterator] = function () { const d = fs.readFileSync(path); return host.asyncIter(d.length ? [s._enc ? d.toString(s._enc) : d] : []); };
      setImmediate(() => {
        let d;
        try { d = fs.readFileSync(path); } catch (e) { s.emit('error', e); return; }
        s.emit('open');
        if (d.length) s.emit('data', s._enc ? d.toString(s._enc) : d);
        s.emit('end'); s.emit('close');
      });
      return s;
    };
    fs.Stats = host.Stats;
    fs.Dirent = host.Dirent;
  };
})()`
