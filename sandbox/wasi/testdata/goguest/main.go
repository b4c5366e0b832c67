// Command goguest is a GOOS=wasip1 test program for package wasi: each
// argument names a scenario that exercises part of the WASI host and prints
// what it saw, so the test can compare the output.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: goguest scenario [args...]")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "cwd":
		wd, err := os.Getwd()
		check(err)
		fmt.Println("wd", wd)
		b, err := os.ReadFile("f.txt")
		check(err)
		fmt.Printf("f.txt %q\n", b)
		b, err = os.ReadFile("/etc/motd")
		check(err)
		fmt.Printf("/etc/motd %q\n", b)
		b, err = os.ReadFile("../user/f.txt")
		check(err)
		fmt.Printf("../user/f.txt %q\n", b)
	case "files":
		files()
	case "escape":
		for _, p := range []string{"../../../../../etc/motd", "/../../etc/motd", "up/etc/motd", "abs/motd"} {
			b, err := os.ReadFile(p)
			fmt.Printf("%s %q %v\n", p, b, err)
		}
		_, err := os.Stat("/../../../proc/self")
		fmt.Println("proc", errors.Is(err, fs.ErrNotExist))
		ents, err := os.ReadDir("../../../..")
		check(err)
		for _, e := range ents {
			fmt.Print(e.Name(), " ")
		}
		fmt.Println()
	case "env":
		fmt.Println("args", strings.Join(os.Args[2:], ","))
		fmt.Println("FOO", os.Getenv("FOO"))
		fmt.Println("PWD", os.Getenv("PWD"))
	case "cat":
		n, err := io.Copy(os.Stdout, os.Stdin)
		check(err)
		fmt.Fprintln(os.Stderr, "copied", n)
	case "catfile":
		f, err := os.Open(os.Args[2])
		check(err)
		_, err = io.Copy(os.Stdout, f)
		check(err)
		check(f.Close())
	case "lines":
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			fmt.Println("line:", sc.Text())
		}
	case "sleep":
		d, err := time.ParseDuration(os.Args[2])
		check(err)
		start := time.Now()
		time.Sleep(d)
		fmt.Println("slept", time.Since(start) >= d)
	case "timer":
		// A goroutine, a timer and a channel: the runtime multiplexes them
		// with poll_oneoff.
		c := make(chan int)
		go func() {
			time.Sleep(20 * time.Millisecond)
			c <- 42
		}()
		select {
		case v := <-c:
			fmt.Println("got", v)
		case <-time.After(5 * time.Second):
			fmt.Println("timeout")
		}
	case "yes":
		b := []byte(strings.Repeat("y\n", 4096))
		for {
			if _, err := os.Stdout.Write(b); err != nil {
				fmt.Fprintln(os.Stderr, "write error:", err)
				os.Exit(1)
			}
		}
	case "exit":
		os.Exit(7)
	case "devstdout":
		f, err := os.OpenFile("/dev/stdout", os.O_WRONLY, 0)
		check(err)
		fmt.Fprintln(f, "via /dev/stdout")
		check(f.Close())
		fmt.Println("still open")
	default:
		fmt.Fprintln(os.Stderr, "unknown scenario", os.Args[1])
		os.Exit(2)
	}
}

func check(err error) {
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
}

func files() {
	check(os.MkdirAll("work/sub", 0o755))
	check(os.WriteFile("work/a.txt", []byte("hello"), 0o644))
	f, err := os.OpenFile("work/a.txt", os.O_APPEND|os.O_WRONLY, 0)
	check(err)
	_, err = f.WriteString(", world")
	check(err)
	check(f.Close())
	b, err := os.ReadFile("work/a.txt")
	check(err)
	fmt.Printf("read %q\n", b)

	f, err = os.Open("work/a.txt")
	check(err)
	buf := make([]byte, 5)
	_, err = f.ReadAt(buf, 7)
	check(err)
	fmt.Printf("readat %q\n", buf)
	off, err := f.Seek(-3, io.SeekEnd)
	check(err)
	n, _ := f.Read(buf)
	fmt.Printf("seek %d %q\n", off, buf[:n])
	_, err = f.Write([]byte("x"))
	fmt.Println("write to read-only fails", err != nil)
	check(f.Close())

	st, err := os.Stat("work/a.txt")
	check(err)
	fmt.Println("stat", st.Name(), st.Size(), st.Mode().IsRegular(), st.Mode().Perm())

	_, err = os.OpenFile("work/a.txt", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	fmt.Println("excl exists", errors.Is(err, fs.ErrExist))
	_, err = os.Open("work/missing")
	fmt.Println("missing", errors.Is(err, fs.ErrNotExist))

	check(os.Rename("work/a.txt", "work/sub/b.txt"))
	check(os.Symlink("sub/b.txt", "work/link"))
	target, err := os.Readlink("work/link")
	check(err)
	fmt.Println("readlink", target)
	lst, err := os.Lstat("work/link")
	check(err)
	fmt.Println("lstat symlink", lst.Mode()&fs.ModeSymlink != 0)
	b, err = os.ReadFile("work/link")
	check(err)
	fmt.Printf("through link %q\n", b)
	check(os.Link("work/sub/b.txt", "work/hard"))
	st, err = os.Stat("work/hard")
	check(err)
	fmt.Println("hard size", st.Size())

	check(os.Truncate("work/hard", 3))
	b, err = os.ReadFile("work/sub/b.txt")
	check(err)
	fmt.Printf("truncated %q\n", b)

	mtime := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	check(os.Chtimes("work/hard", mtime, mtime))
	st, err = os.Stat("work/sub/b.txt")
	check(err)
	fmt.Println("mtime", st.ModTime().UTC().Format(time.RFC3339))

	for i := 0; i < 300; i++ {
		check(os.WriteFile(fmt.Sprintf("work/sub/f%03d-%s", i, strings.Repeat("n", i%40)), nil, 0o644))
	}
	ents, err := os.ReadDir("work/sub")
	check(err)
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	fmt.Println("readdir", len(ents), sort.StringsAreSorted(names), names[0], names[len(names)-1])

	var walked []string
	check(filepath.WalkDir("work", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !strings.Contains(p, "/f") {
			walked = append(walked, p)
		}
		return nil
	}))
	fmt.Println("walk", strings.Join(walked, " "))

	err = os.Remove("work/sub")
	fmt.Println("remove nonempty", err != nil)
	check(os.RemoveAll("work/sub"))
	_, err = os.Stat("work/sub")
	fmt.Println("removed", errors.Is(err, fs.ErrNotExist))
	check(os.Remove("work/link"))
	check(os.Remove("work/hard"))
	check(os.Remove("work"))
	fmt.Println("done")
}
