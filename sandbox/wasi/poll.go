package wasi

import (
	"context"
	"encoding/binary"
	"io"
	"math"
	"time"

	"github.com/wasmsand/wasmsand/wasm"
)

// pollOneoff waits for the first of several subscriptions. Reads and
// writes on files and streams are reported ready at once (the wait, if
// any, happens in fd_read or fd_write, which park the goroutine), except on
// the ends of pipes made by Process.Pipe, whose readiness is real: a
// guest that selects on several pipes (Python's subprocess.communicate)
// must not be told a read is ready that would block. Clock subscriptions,
// relative or absolute, sleep until the earliest one is due unless an fd
// event is ready first, and every wait ends when ctx is done.
func pollOneoff(ctx context.Context, p *Process, mem wasm.Memory, s []uint64) errno {
	in, out, nsubs, neventsPtr := uint32(s[0]), uint32(s[1]), uint32(s[2]), uint32(s[3])
	if nsubs == 0 {
		return errnoINVAL
	}
	if !inBounds(mem, in, uint64(nsubs)*sizeSubscription) ||
		!inBounds(mem, out, uint64(nsubs)*sizeEvent) || !inBounds(mem, neventsPtr, 4) {
		return errnoFAULT
	}
	subs, _ := mem.Read(in, nsubs*sizeSubscription)
	// Copy the subscriptions: events are written to guest memory that
	// might overlap them.
	subs = append(p.buffer(len(subs))[:0], subs...)

	var nevents uint32
	var ev [sizeEvent]byte
	emit := func(userdata uint64, en errno, typ uint8, nbytes uint64) {
		ev = [sizeEvent]byte{}
		binary.LittleEndian.PutUint64(ev[0:], userdata)
		binary.LittleEndian.PutUint16(ev[8:], uint16(en))
		ev[10] = typ
		binary.LittleEndian.PutUint64(ev[16:], nbytes)
		mem.Write(out+nevents*sizeEvent, ev[:])
		nevents++
	}

	// First pass: fd events, clock errors and clocks already due; note
	// when each pending clock is due and which is the earliest.
	var dueArr [16]time.Duration
	due := dueArr[:0]
	if nsubs > uint32(len(dueArr)) {
		due = make([]time.Duration, 0, nsubs)
	}
	wait := time.Duration(math.MaxInt64)
	clocks := 0
	var pending []pendingFd // pipe ends not ready yet
	for i := uint32(0); i < nsubs; i++ {
		sub := subs[i*sizeSubscription:]
		userdata, tag := binary.LittleEndian.Uint64(sub), sub[8]
		due = append(due, -1)
		switch tag {
		case eventtypeClock:
			d, en := p.clockWait(sub)
			switch {
			case en != errnoSuccess:
				emit(userdata, en, tag, 0)
			case d <= 0:
				emit(userdata, errnoSuccess, tag, 0)
			default:
				clocks++
				due[i] = d
				wait = min(wait, d)
			}
		case eventtypeFdRead, eventtypeFdWrite:
			n, en, notReady := p.pollFd(le32(sub[16:]), tag)
			if notReady != nil {
				pending = append(pending, pendingFd{userdata, le32(sub[16:]), tag, notReady})
				continue
			}
			emit(userdata, en, tag, n)
		default:
			return errnoINVAL
		}
	}
	if nevents == 0 && len(pending) > 0 {
		// Wait for a pipe to change, the earliest clock or ctx; a pipe
		// that changed may still not be ready (another reader won).
		sleepCtx, stopSleep := context.WithCancel(ctx)
		defer stopSleep()
		slept := make(chan error, 1)
		if clocks > 0 {
			go func() {
				if p.sleep != nil {
					slept <- p.sleep(sleepCtx, wait)
					return
				}
				t := time.NewTimer(wait)
				defer t.Stop()
				select {
				case <-t.C:
					slept <- nil
				case <-sleepCtx.Done():
					slept <- sleepCtx.Err()
				}
			}()
		}
		for nevents == 0 {
			changed := make(chan struct{}, 1)
			for _, pf := range pending {
				go func(ch <-chan struct{}) {
					select {
					case <-ch:
						select {
						case changed <- struct{}{}:
						default:
						}
					case <-sleepCtx.Done():
					}
				}(pf.changed)
			}
			select {
			case <-ctx.Done():
				panic(interrupted("poll_oneoff", ctx))
			case err := <-slept:
				if err != nil {
					panic(interrupted("poll_oneoff", ctx))
				}
				for i := uint32(0); i < nsubs; i++ {
					if due[i] >= 0 && due[i] <= wait {
						emit(binary.LittleEndian.Uint64(subs[i*sizeSubscription:]), errnoSuccess, eventtypeClock, 0)
					}
				}
			case <-changed:
			}
			for k, pf := range pending {
				n, en, notReady := p.pollFd(pf.fd, pf.typ)
				if notReady == nil {
					emit(pf.userdata, en, pf.typ, n)
				} else {
					pending[k].changed = notReady
				}
			}
		}
		return writeU32(mem, neventsPtr, nevents)
	}
	if nevents == 0 && clocks > 0 {
		if p.sleep != nil {
			if p.sleep(ctx, wait) != nil {
				panic(interrupted("poll_oneoff", ctx))
			}
		} else {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				panic(interrupted("poll_oneoff", ctx))
			}
		}
		// Second pass: every clock due by the earliest deadline.
		for i := uint32(0); i < nsubs; i++ {
			if due[i] >= 0 && due[i] <= wait {
				emit(binary.LittleEndian.Uint64(subs[i*sizeSubscription:]), errnoSuccess, eventtypeClock, 0)
			}
		}
	}
	return writeU32(mem, neventsPtr, nevents)
}

// clockWait returns how long until a clock subscription is due.
func (p *Process) clockWait(sub []byte) (time.Duration, errno) {
	id := le32(sub[16:])
	timeout := binary.LittleEndian.Uint64(sub[24:])
	flags := binary.LittleEndian.Uint16(sub[40:])
	if flags&^subclockAbstime != 0 {
		return 0, errnoINVAL
	}
	now, en := p.clock(id)
	if en != errnoSuccess {
		return 0, en
	}
	if flags&subclockAbstime == 0 {
		if timeout > math.MaxInt64 {
			return math.MaxInt64, errnoSuccess
		}
		return time.Duration(timeout), errnoSuccess
	}
	if timeout > math.MaxInt64 {
		timeout = math.MaxInt64
	}
	return time.Duration(int64(timeout) - now), errnoSuccess
}

// pendingFd is an fd subscription on a pipe end that is not ready yet.
type pendingFd struct {
	userdata uint64
	fd       uint32
	typ      uint8
	changed  <-chan struct{}
}

// pollFd reports the readiness of fd for an fd_read or fd_write
// subscription: ready, with the bytes left to read for regular files, or
// for a pipe end of Process.Pipe not ready yet (notReady is then closed
// when the pipe changes).
func (p *Process) pollFd(fd uint32, typ uint8) (n uint64, en errno, notReady <-chan struct{}) {
	e, en := p.get(fd, rightPollFdReadwrite)
	if en != errnoSuccess {
		return 0, en, nil
	}
	if typ == eventtypeFdRead && e.base&rightFdRead == 0 || typ == eventtypeFdWrite && e.base&rightFdWrite == 0 {
		return 0, errnoBADF, nil
	}
	switch end := e.end.(type) {
	case PipeReader:
		if typ == eventtypeFdRead {
			return end.p.readiness(true)
		}
	case PipeWriter:
		if typ == eventtypeFdWrite {
			return end.p.readiness(false)
		}
	}
	if typ != eventtypeFdRead || e.stream || e.ftype != filetypeRegularFile {
		return 0, errnoSuccess, nil
	}
	st, err := e.file.Stat()
	if err != nil {
		return 0, errnoSuccess, nil
	}
	pos, err := e.file.Seek(0, io.SeekCurrent)
	if err != nil || pos >= st.Size {
		return 0, errnoSuccess, nil
	}
	return uint64(st.Size - pos), errnoSuccess, nil
}
