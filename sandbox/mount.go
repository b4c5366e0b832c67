package sandbox

import (
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// Mount attaches a directory from outside the sandbox to its filesystem.
//
// Paths inside a mount are resolved by the sandbox, one name at a time:
// "..", absolute symlinks and symlinks that climb out of the directory
// lead back into the sandbox's own tree, never to the host's. A read-only
// mount refuses every change with EROFS; what a writable one grows by
// counts against FSLimit (deleting what the host already had frees
// nothing); files made in it do not count against MaxInodes. A symlink
// made in a writable mount must point inside it (EPERM otherwise), since
// the host may follow it one day. Host FIFOs and devices are listed but
// never opened (ENXIO). Mounts are not part of snapshots or forks.
type Mount struct {
	// Path is the absolute directory in the sandbox, such as /mnt/data.
	// It is created if missing and must be empty.
	Path string
	// HostPath is a directory of the host, opened by the platform
	// (Platform.HostDir: with os.Root natively; the js/wasm core has
	// none, its loader passes Host). Ignored when Host is set.
	HostPath string
	// Host, if set, is the far side of the mount, such as the Node.js fs
	// the js/wasm build is handed by its loader.
	Host vfs.Host
	// ReadOnly refuses every write with EROFS.
	ReadOnly bool
}

// Mount attaches the host directory hostPath at vfsPath (see [Mount]).
func (s *Sandbox) Mount(vfsPath, hostPath string, readOnly bool) error {
	return s.AddMount(Mount{Path: vfsPath, HostPath: hostPath, ReadOnly: readOnly})
}

// AddMount attaches m.
func (s *Sandbox) AddMount(m Mount) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if !path.IsAbs(m.Path) {
		return fmt.Errorf("sandbox: mount path must be absolute: %w", &fs.PathError{Op: "mount", Path: m.Path, Err: vfs.EINVAL})
	}
	p := path.Clean(m.Path)
	host := m.Host
	if host == nil {
		pl, err := platformOf(s.opts)
		if err == nil {
			host, err = pl.HostDir(m.HostPath)
		}
		if err != nil {
			return fmt.Errorf("sandbox: mount %s: %w", p, err)
		}
	}
	fail := func(err error) error {
		if c, ok := host.(io.Closer); ok && m.Host == nil {
			c.Close()
		}
		return fmt.Errorf("sandbox: mount %s: %w", p, err)
	}
	if err := s.fs.MkdirAll(p, 0o755); err != nil {
		return fail(err)
	}
	if err := s.fs.Mount(p, host, vfs.MountOptions{ReadOnly: m.ReadOnly}); err != nil {
		return fail(err)
	}
	return nil
}

// Unmount detaches the mount at vfsPath; the directory stays, empty. While
// a command holds a file in it open: EBUSY.
func (s *Sandbox) Unmount(vfsPath string) error {
	if s.closed.Load() {
		return ErrClosed
	}
	if err := s.fs.Unmount(s.absCwd(vfsPath)); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	return nil
}
