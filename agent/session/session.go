// Package session keeps the sandboxes of a server's clients: one sandbox
// and its agent tools per session ID, many sessions at once, each with the
// same per-session limits, under a global cap, with idle sessions evicted.
//
// A Manager keeps live sessions in memory. Given a Store and the means to
// snapshot and restore a sandbox (Config.Snapshot and Config.Restore), it
// also keeps sessions across evictions and process restarts: an evicted or
// ended session is saved to the store and restored on its next use. Without
// them, an evicted session is gone and the global cap refuses new sessions
// rather than drop a live one.
package session

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/sandbox"
)

// Errors of a Manager.
var (
	// ErrBadID is returned for a session ID that cannot name a snapshot
	// in a store (see sandbox.CheckName).
	ErrBadID = errors.New("session: bad session ID")
	// ErrTooManySessions is returned when MaxSessions sessions are live
	// and none can be evicted.
	ErrTooManySessions = errors.New("session: too many sessions")
	// ErrClosed is returned after Close.
	ErrClosed = errors.New("session: manager closed")
)

// Config configures a Manager.
type Config struct {
	// Sandbox are the options of every session's sandbox: its limits.
	Sandbox sandbox.Options
	// Agent are the options of every session's tools.
	Agent agent.Options
	// MaxSessions caps the sessions live in memory; 0 means no cap.
	MaxSessions int
	// IdleTimeout evicts a session unused for this long; 0 never does.
	IdleTimeout time.Duration

	// Store, Snapshot and Restore, set together, persist sessions: an
	// evicted or released session is saved as Snapshot's bytes and comes
	// back through Restore. Snapshot and Restore are meant to be
	// (*sandbox.Sandbox).Snapshot and sandbox.Restore.
	// Sessions are stored under their IDs, so the store may be shared
	// by any number of Managers (replicas of a server) and a session
	// moves between them.
	Store    sandbox.Store
	Snapshot func(*sandbox.Sandbox) ([]byte, error)
	Restore  func(ctx context.Context, snapshot []byte, opts sandbox.Options) (*sandbox.Sandbox, error)

	// now is the clock, for tests; nil means time.Now.
	now func() time.Time
}

// Session is one client's sandbox and its tools.
type Session struct {
	ID    string
	Tools *agent.Toolset

	refs     int // Acquire calls not yet released
	lastUsed time.Time
	elem     *list.Element // in Manager.lru, least recently used first
}

// Sandbox returns the session's sandbox.
func (s *Session) Sandbox() *sandbox.Sandbox { return s.Tools.Sandbox() }

// Manager keeps sessions. Its methods are safe for concurrent use.
type Manager struct {
	cfg Config

	mu       sync.Mutex
	sessions map[string]*Session
	lru      *list.List
	pending  map[string]chan struct{} // sessions being created or restored
	closed   bool
	stop     chan struct{}
	janitor  sync.WaitGroup
	stats    Stats
}

// Stats count what a Manager did.
type Stats struct {
	Live     int   // sessions in memory now
	Created  int64 // fresh sandboxes made
	Restored int64 // sessions brought back from the store
	Evicted  int64 // sessions taken out of memory for being idle or for room
	Saved    int64 // snapshots written to the store
}

// NewManager starts a Manager; Close stops it.
func NewManager(cfg Config) (*Manager, error) {
	if p := cfg.Store != nil; p != (cfg.Snapshot != nil) || p != (cfg.Restore != nil) {
		return nil, errors.New("session: Store, Snapshot and Restore must be set together")
	}
	if cfg.now == nil {
		cfg.now = time.Now
	}
	m := &Manager{
		cfg:      cfg,
		sessions: map[string]*Session{},
		lru:      list.New(),
		pending:  map[string]chan struct{}{},
		stop:     make(chan struct{}),
	}
	if cfg.IdleTimeout > 0 {
		m.janitor.Add(1)
		go m.evictIdleLoop()
	}
	return m, nil
}

// CheckID reports whether id can be a session ID: it names the session's
// snapshot in a store, so it follows sandbox.CheckName, and it holds no
// "..", which separates the ID from the names of the session's own
// snapshots (the snapshot tool's) in the store.
func CheckID(id string) error {
	if err := sandbox.CheckName(id); err != nil || strings.Contains(id, "..") {
		return fmt.Errorf("%w %q: 1 to 128 letters, digits, '.', '_' and '-', not starting with '.' nor holding \"..\"", ErrBadID, id)
	}
	return nil
}

// Persistent reports whether sessions outlive memory: whether the Manager
// has a store.
func (m *Manager) Persistent() bool { return m.cfg.Store != nil }

// Acquire returns the session id, creating it (or restoring it from the
// store) if it is not in memory. The session is not evicted until release
// is called; call it once, when the work on the session is done.
func (m *Manager) Acquire(ctx context.Context, id string) (s *Session, release func(), err error) {
	if err := CheckID(id); err != nil {
		return nil, nil, err
	}
	for {
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, nil, ErrClosed
		}
		if s := m.sessions[id]; s != nil {
			s.refs++
			s.lastUsed = m.cfg.now()
			m.lru.MoveToBack(s.elem)
			m.mu.Unlock()
			return s, m.releaser(s), nil
		}
		if wait, ok := m.pending[id]; ok {
			m.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
		}
		victim, victimDone, err := m.makeRoomLocked()
		if err != nil {
			m.mu.Unlock()
			return nil, nil, err
		}
		done := make(chan struct{})
		m.pending[id] = done
		m.stats.Live++ // the room is taken while the sandbox is made
		m.mu.Unlock()
		if victim != nil {
			m.finish(ctx, victim, victimDone, true)
		}

		s, restored, err := m.open(ctx, id)

		m.mu.Lock()
		delete(m.pending, id)
		close(done)
		if err == nil && m.closed {
			s.Sandbox().Close()
			err = ErrClosed
		}
		if err != nil {
			m.stats.Live--
			m.mu.Unlock()
			return nil, nil, err
		}
		if restored {
			m.stats.Restored++
		} else {
			m.stats.Created++
		}
		s.refs = 1
		s.lastUsed = m.cfg.now()
		s.elem = m.lru.PushBack(s)
		m.sessions[id] = s
		m.mu.Unlock()
		return s, m.releaser(s), nil
	}
}

func (m *Manager) releaser(s *Session) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			m.mu.Lock()
			s.refs--
			s.lastUsed = m.cfg.now()
			m.mu.Unlock()
		})
	}
}

// open restores id from the store or makes a fresh sandbox.
func (m *Manager) open(ctx context.Context, id string) (*Session, bool, error) {
	var sb *sandbox.Sandbox
	restored := false
	if m.Persistent() {
		b, err := m.cfg.Store.Get(ctx, id)
		switch {
		case err == nil:
			if sb, err = m.cfg.Restore(ctx, b, m.cfg.Sandbox); err != nil {
				return nil, false, fmt.Errorf("session %s: restoring: %w", id, err)
			}
			restored = true
		case !errors.Is(err, sandbox.ErrNotFound):
			return nil, false, fmt.Errorf("session %s: loading: %w", id, err)
		}
	}
	if sb == nil {
		var err error
		if sb, err = sandbox.New(ctx, m.cfg.Sandbox); err != nil {
			return nil, false, err
		}
	}
	ao := m.cfg.Agent
	ao.Sandbox = m.cfg.Sandbox
	if m.Persistent() {
		// The snapshot tool keeps this session's snapshots beside it, as
		// ID..NAME: no session ID holds "..", so no session sees another's.
		ao.Store, ao.SnapshotPrefix = m.cfg.Store, id+".."
	}
	tools, err := agent.New(sb, ao)
	if err != nil {
		sb.Close()
		return nil, false, err
	}
	return &Session{ID: id, Tools: tools}, restored, nil
}

// makeRoomLocked makes room for one more session under MaxSessions by
// detaching the least recently used idle session, when sessions are
// persistent; the caller finishes the victim once it has released m.mu.
// Without persistence it refuses.
func (m *Manager) makeRoomLocked() (victim *Session, done chan struct{}, err error) {
	if m.cfg.MaxSessions <= 0 || m.stats.Live < m.cfg.MaxSessions {
		return nil, nil, nil
	}
	if m.Persistent() {
		for e := m.lru.Front(); e != nil; e = e.Next() {
			if s := e.Value.(*Session); s.refs == 0 {
				m.stats.Evicted++
				return s, m.detachLocked(s), nil
			}
		}
	}
	return nil, nil, fmt.Errorf("%w: %d live, the limit is %d", ErrTooManySessions, m.stats.Live, m.cfg.MaxSessions)
}

// detachLocked takes s out of memory's bookkeeping. Until finish closes
// the returned channel, Acquire of the same ID waits, so that it never
// restores a snapshot older than the one being saved.
func (m *Manager) detachLocked(s *Session) chan struct{} {
	delete(m.sessions, s.ID)
	m.lru.Remove(s.elem)
	m.stats.Live--
	done := make(chan struct{})
	m.pending[s.ID] = done
	return done
}

// finish saves a detached session when save is set and sessions are
// persistent, closes its sandbox and lets waiting Acquire calls go on. It
// runs without m.mu: a store may be slow. A session whose snapshot fails
// to save is closed all the same — memory is what eviction is for — and
// the store keeps its last good snapshot.
func (m *Manager) finish(ctx context.Context, s *Session, done chan struct{}, save bool) error {
	var err error
	if save && m.Persistent() {
		var b []byte
		if b, err = m.cfg.Snapshot(s.Sandbox()); err == nil {
			err = m.cfg.Store.Put(ctx, s.ID, b)
		}
		if err != nil {
			err = fmt.Errorf("session %s: saving: %w", s.ID, err)
		}
	}
	s.Sandbox().Close()
	m.mu.Lock()
	if err == nil && save && m.Persistent() {
		m.stats.Saved++
	}
	if m.pending[s.ID] == done {
		delete(m.pending, s.ID)
	}
	close(done)
	m.mu.Unlock()
	return err
}

// End ends the session id: its sandbox is closed and, when sessions are
// persistent and keep is true, saved first so that the session can resume
// later; with keep false it is deleted from the store too. Ending a
// session that is not live only touches the store.
func (m *Manager) End(ctx context.Context, id string, keep bool) error {
	m.mu.Lock()
	s := m.sessions[id]
	var done chan struct{}
	if s != nil {
		done = m.detachLocked(s)
	}
	m.mu.Unlock()
	var err error
	if s != nil {
		err = m.finish(ctx, s, done, keep)
	}
	if m.Persistent() && !keep {
		if derr := m.cfg.Store.Delete(ctx, id); derr != nil && !errors.Is(derr, sandbox.ErrNotFound) {
			err = errors.Join(err, derr)
		}
	}
	return err
}

// EvictIdle evicts every session unused for IdleTimeout or longer and
// returns how many it evicted. The Manager calls it on its own every
// IdleTimeout/4.
func (m *Manager) EvictIdle(ctx context.Context) int {
	if m.cfg.IdleTimeout <= 0 {
		return 0
	}
	type victim struct {
		s    *Session
		done chan struct{}
	}
	var victims []victim
	m.mu.Lock()
	cutoff := m.cfg.now().Add(-m.cfg.IdleTimeout)
	for e := m.lru.Front(); e != nil; {
		next := e.Next()
		if s := e.Value.(*Session); s.refs == 0 && !s.lastUsed.After(cutoff) {
			victims = append(victims, victim{s, m.detachLocked(s)})
			m.stats.Evicted++
		}
		e = next
	}
	m.mu.Unlock()
	for _, v := range victims {
		m.finish(ctx, v.s, v.done, true)
	}
	return len(victims)
}

func (m *Manager) evictIdleLoop() {
	defer m.janitor.Done()
	t := time.NewTicker(max(m.cfg.IdleTimeout/4, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			m.EvictIdle(context.Background())
		}
	}
}

// Stats returns the counters.
func (m *Manager) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stats
}

// Close ends every session — saving them when sessions are persistent —
// and stops the Manager. It is idempotent.
func (m *Manager) Close(ctx context.Context) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	close(m.stop)
	var live []*Session
	var dones []chan struct{}
	for _, s := range m.sessions {
		live = append(live, s)
		dones = append(dones, m.detachLocked(s))
	}
	m.mu.Unlock()
	m.janitor.Wait()
	var errs []error
	for i, s := range live {
		if err := m.finish(ctx, s, dones[i], true); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
