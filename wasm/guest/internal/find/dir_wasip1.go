//go:build wasip1

package find

import (
	"io/fs"
	"syscall"
)

// direntBuf receives fd_readdir's records; it grows for a name longer than
// it. It is made on first use: made by the package's initialisation, it
// sat in the module's pre-initialised image and every process of the
// module (xargs --version too) grew its memory by four pages, a memory
// the JS engine then cannot recycle.
var direntBuf []byte

// readDirents reads dir into l with fd_readdir itself: os.File.ReadDir
// allocates two objects and a string per entry, and asks again for an
// empty read at the end of every directory. Here the names go to l's
// buffer, and a read that does not fill the buffer is the last (WASI says
// so). The directory is opened with syscall.Open, which unlike os.Open
// allocates no File.
func readDirents(dir string, l *listing) error {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	defer l.nameEntries()
	if direntBuf == nil {
		direntBuf = make([]byte, 16<<10)
	}
	var cookie uint64
	for {
		n, err := syscall.ReadDir(fd, direntBuf, cookie)
		if err != nil {
			return &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n == 0 {
			return nil
		}
		// A record is d_next (8 bytes), d_ino (8), d_namlen (4), d_type (1),
		// three bytes of padding, and the name; the last may be cut short.
		recs := direntBuf[:n]
		whole := false
		for len(recs) >= sizeDirent {
			namlen := uint64(le32(recs[16:]))
			if uint64(len(recs)-sizeDirent) < namlen {
				break
			}
			cookie = uint64(le32(recs[4:]))<<32 | uint64(le32(recs))
			typ := recs[20]
			name := recs[sizeDirent : sizeDirent+int(namlen)]
			recs = recs[sizeDirent+int(namlen):]
			whole = true
			if isDots(name) {
				continue
			}
			l.addName(name, direntType(typ))
		}
		switch {
		case n < len(direntBuf):
			return nil
		case !whole:
			direntBuf = make([]byte, 2*len(direntBuf))
		}
	}
}

// isDots reports whether name is "." or "..".
func isDots(name []byte) bool {
	return len(name) == 1 && name[0] == '.' || len(name) == 2 && name[0] == '.' && name[1] == '.'
}

// addName records an entry whose name is not yet set: nameEntries sets
// the names once the directory is read (names may move as it grows).
func (l *listing) addName(name []byte, typ fs.FileMode) {
	l.names = append(l.names, name...)
	l.ends = append(l.ends, len(l.names))
	l.ents = append(l.ents, dirent{typ: typ})
}

// nameEntries points the names of the entries added by addName into
// l.names.
func (l *listing) nameEntries() {
	all := bytesString(l.names)
	start := 0
	for i, end := range l.ends {
		l.ents[i].name = all[start:end]
		start = end
	}
}

const sizeDirent = 24

// direntType is the file mode type of a WASI file type, as os gives it,
// or fs.ModeIrregular when unknown (find then asks the file itself).
func direntType(t byte) fs.FileMode {
	switch t {
	case syscall.FILETYPE_BLOCK_DEVICE:
		return fs.ModeDevice
	case syscall.FILETYPE_CHARACTER_DEVICE:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.FILETYPE_DIRECTORY:
		return fs.ModeDir
	case syscall.FILETYPE_REGULAR_FILE:
		return 0
	case syscall.FILETYPE_SOCKET_DGRAM, syscall.FILETYPE_SOCKET_STREAM:
		return fs.ModeSocket
	case syscall.FILETYPE_SYMBOLIC_LINK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

// le32 reads a little-endian uint32 at the start of s.
func le32(s []byte) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
