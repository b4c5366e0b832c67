package hostdir_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/wasmsand/wasmsand/platform/native/hostdir"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

func Example() {
	// A host directory with a file, and a secret beside it.
	top, _ := os.MkdirTemp("", "hostdir-example-")
	defer os.RemoveAll(top)
	os.Mkdir(filepath.Join(top, "data"), 0o755)
	os.WriteFile(filepath.Join(top, "data", "hello.txt"), []byte("hello from the host\n"), 0o644)
	os.WriteFile(filepath.Join(top, "secret.txt"), []byte("secret\n"), 0o600)

	fsys := vfs.New(vfs.Options{})
	fsys.MkdirAll("/mnt/data", 0o755)
	dir, err := hostdir.Open(filepath.Join(top, "data"))
	if err != nil {
		panic(err)
	}
	if err := fsys.Mount("/mnt/data", dir, vfs.MountOptions{ReadOnly: true}); err != nil {
		panic(err)
	}
	defer fsys.Unmount("/mnt/data") // closes dir

	b, _ := fsys.ReadFile("/mnt/data/hello.txt")
	fmt.Print(string(b))

	// ".." above the mount is the sandbox's /mnt, not the host's top.
	_, err = fsys.ReadFile("/mnt/data/../secret.txt")
	fmt.Println(err)

	err = fsys.WriteFile("/mnt/data/new.txt", []byte("x"), 0o644)
	fmt.Println(err)
	// Output:
	// hello from the host
	// read /mnt/data/../secret.txt: no such file or directory
	// open /mnt/data/new.txt: read-only file system
}
