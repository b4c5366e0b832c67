package wasi

import (
	"encoding/binary"
	"testing"
	"time"
)

// TestPollOneoffPipe: the ends of a Process.Pipe report real readiness,
// and poll_oneoff waits for a pipe to become ready (or for a clock).
func TestPollOneoffPipe(t *testing.T) {
	h := newHost(t, Config{})
	r, w, err := h.p.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	sub := func(i int, userdata uint64, tag uint8, arg uint64) {
		b := h.mem.b[aData+i*sizeSubscription : aData+(i+1)*sizeSubscription]
		clear(b)
		binary.LittleEndian.PutUint64(b, userdata)
		b[8] = tag
		if tag == eventtypeClock {
			binary.LittleEndian.PutUint32(b[16:], clockMonotonic)
			binary.LittleEndian.PutUint64(b[24:], arg)
		} else {
			binary.LittleEndian.PutUint32(b[16:], uint32(arg))
		}
	}
	userdatas := func() []uint64 {
		var out []uint64
		for i := range h.u32(aResult) {
			out = append(out, binary.LittleEndian.Uint64(h.mem.b[aBig+i*sizeEvent:]))
		}
		return out
	}

	// Empty pipe: writable, not readable.
	sub(0, 1, eventtypeFdRead, uint64(r))
	sub(1, 2, eventtypeFdWrite, uint64(w))
	h.must("poll_oneoff", aData, aBig, 2, aResult)
	if got := userdatas(); len(got) != 1 || got[0] != 2 {
		t.Fatalf("empty pipe: events %v, want only the write", got)
	}

	// Not readable and a clock: the clock fires.
	sub(1, 3, eventtypeClock, uint64(10*time.Millisecond))
	h.must("poll_oneoff", aData, aBig, 2, aResult)
	if got := userdatas(); len(got) != 1 || got[0] != 3 {
		t.Fatalf("clock: events %v", got)
	}

	// A write from elsewhere wakes a poll waiting to read.
	go func() {
		time.Sleep(20 * time.Millisecond)
		e, _ := h.p.get(w, 0)
		e.w.Write([]byte("hi"))
	}()
	start := time.Now()
	h.must("poll_oneoff", aData, aBig, 1, aResult)
	if got := userdatas(); len(got) != 1 || got[0] != 1 || time.Since(start) < 15*time.Millisecond {
		t.Fatalf("wake: events %v after %v", got, time.Since(start))
	}
	if n := h.u64(aBig + 16); n != 2 {
		t.Errorf("nbytes %d, want 2", n)
	}

	// With the writer closed, a read is ready (EOF).
	h.must("fd_read", uint64(r), 0, 0, aResult) // no-op read keeps the data
	h.p.closeFd(w)
	sub(0, 4, eventtypeFdRead, uint64(r))
	h.must("poll_oneoff", aData, aBig, 1, aResult)
	if got := userdatas(); len(got) != 1 || got[0] != 4 {
		t.Fatalf("eof: events %v", got)
	}
}
