package sandbox

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

func TestProcTable(t *testing.T) {
	clock := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	s := &Sandbox{opts: Options{Clock: func() time.Time { return clock }}, started: clock}
	s.shellPid.Store(1)
	s.pids.Store(1)
	ctx, e, end := s.startProc(context.Background(), 0, 1, []string{"yes", "y"})
	if e.pid != 2 || procFrom(ctx) != e {
		t.Fatalf("pid %d, entry in context %v", e.pid, procFrom(ctx) == e)
	}
	_, child, endChild := s.startProc(ctx, 5, e.pid, []string{"sleep"})
	list := s.procList()
	var got []string
	for _, p := range list {
		got = append(got, strings.Join(p.args, " "))
	}
	if strings.Join(got, "|") != "bash|yes y|sleep" {
		t.Errorf("procList: %q", got)
	}
	// Signals: 0 and ignored ones do nothing, stops are refused, the main
	// shell cannot be signalled, a missing pid is ESRCH.
	for _, c := range []struct {
		pid, sig int
		want     error
	}{{2, 0, nil}, {2, sigCHLD, nil}, {2, sigSTOP, vfs.ENOTSUP}, {1, 15, vfs.EPERM}, {1, 0, nil}, {99, 15, vfs.Errno(71)}, {2, 99, vfs.EINVAL}} {
		if err := s.signal(c.pid, c.sig); !errors.Is(err, c.want) && err != c.want {
			t.Errorf("signal(%d, %d) = %v, want %v", c.pid, c.sig, err, c.want)
		}
	}
	if ctx.Err() != nil {
		t.Fatal("a harmless signal ended the process")
	}
	child.mu.Lock()
	child.ru = rusage{userNs: 7, maxMem: 1 << 20}
	child.mu.Unlock()
	if st := endChild(0); st != 0 {
		t.Errorf("child status %d", st)
	}
	if e.ru.userNs != 7 || e.ru.maxMem != 1<<20 {
		t.Errorf("parent's rusage %+v after its child ended", e.ru)
	}
	if err := s.signal(2, 9); err != nil {
		t.Fatal(err)
	}
	if ctx.Err() == nil {
		t.Fatal("SIGKILL left the process running")
	}
	if st := end(124); st != 137 {
		t.Errorf("killed status %d, want 137", st)
	}
	if len(s.procList()) != 1 {
		t.Errorf("ended processes still listed: %d", len(s.procList()))
	}
	recs := string(encodeProcs(list[1:2]))
	if want := "2 1 " + strconv.FormatInt(clock.UnixNano(), 10) + " 7 0 2\nyes\x00y\x00"; recs != want {
		t.Errorf("encodeProcs = %q, want %q", recs, want)
	}
}
