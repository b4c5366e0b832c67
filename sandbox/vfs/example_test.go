package vfs_test

import (
	"fmt"
	"io"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

func Example() {
	fsys := vfs.New(vfs.Options{MaxBytes: 1 << 20})
	if err := fsys.MkdirAll("/home/user", 0o755); err != nil {
		panic(err)
	}
	if err := fsys.WriteFile("/home/user/hello.txt", []byte("hello\n"), 0o644); err != nil {
		panic(err)
	}
	home, _ := fsys.Lookup(vfs.RootIno, "/home/user", true)

	// Relative paths start at a directory inode, like the *at calls.
	f, err := fsys.Open(home, "hello.txt", vfs.ORead, 0)
	if err != nil {
		panic(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	fmt.Printf("%q\n", b)

	// A clone shares data until written.
	snap := fsys.Clone()
	fsys.WriteFile("/home/user/hello.txt", []byte("changed\n"), 0o644)
	old, _ := snap.ReadFile("/home/user/hello.txt")
	fmt.Printf("%q\n", old)

	_, err = fsys.Stat(home, "missing", true)
	fmt.Println(err)
	// Output:
	// "hello\n"
	// "hello\n"
	// stat missing: no such file or directory
}
