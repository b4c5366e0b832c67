package vfs

import (
	"fmt"
	"io"
	"sync"
	"testing"
)

// TestConcurrent runs many goroutines over one FS; run it with -race.
func TestConcurrent(t *testing.T) {
	f := newFSConcurrent()
	must(t, f.MkdirAll("/shared", 0o755))
	must(t, f.WriteFile("/shared/common", make([]byte, 200_000), 0o644))
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := fmt.Sprintf("/g%d", g)
			if err := f.Mkdir(RootIno, dir, 0o755); err != nil {
				t.Error(err)
				return
			}
			for i := range 50 {
				name := fmt.Sprintf("%s/f%d", dir, i)
				if err := f.WriteFile(name, []byte(name), 0o644); err != nil {
					t.Error(err)
					return
				}
				if b, err := f.ReadFile(name); err != nil || string(b) != name {
					t.Errorf("ReadFile(%s) = %q %v", name, b, err)
					return
				}
				if err := f.Rename(RootIno, name, RootIno, name+".r"); err != nil {
					t.Error(err)
					return
				}
				h, err := f.Open(RootIno, "/shared/common", ORead|OWrite, 0)
				if err != nil {
					t.Error(err)
					return
				}
				h.WriteAt([]byte{byte(g)}, int64(g*1000+i))
				io.Copy(io.Discard, h)
				h.Close()
				if i%10 == 0 {
					c := f.Clone()
					c.WriteFile("/shared/common", nil, 0o644)
				}
				f.ReadDir(RootIno, "/")
				f.Usage()
			}
		}()
	}
	wg.Wait()
	checkInvariants(t, f)
	if _, n := f.Usage(); n != 1+1+1+16+16*50 {
		t.Fatalf("inodes = %d", n)
	}
}

func newFSConcurrent() *FS { return New(Options{}) }
