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
	"sync"
	"time"

	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/sandbox"
)

// Errors of a Manager.
var (
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
	Store    Store
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

// persistent reports whether sessions outlive memory.
func (m *Manager) persistent() bool { return m.cfg.Store != nil }

// Acquire returns the session id, creating it (or restoring it from the
// store) if it is not in memory. The session is not evicted until release
// is called; call it once, when the work on the session is done.
func (m *Manager) Acquire(ctx context.Context, id string) (s *Session, release func(), err error) {
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
		if err := m.makeRoomLocked(ctx); err != nil {
			m.mu.Unlock()
			return nil, nil, err
		}
		done := make(chan struct{})
		m.pending[id] = done
		m.stats.Live++ // the room is taken while the sandbox is made
		m.mu.Unlock()

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
	if m.persistent() {
		b, err := m.cfg.Store.Load(ctx, id)
		switch {
		case err == nil:
			if sb, err = m.cfg.Restore(ctx, b, m.cfg.Sandbox); err != nil {
				return nil, false, fmt.Errorf("session %s: restoring: %w", id, err)
			}
			restored = true
		case !errors.Is(err, ErrNotFound):
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
	tools, err := agent.New(sb, ao)
	if err != nil {
		sb.Close()
		return nil, false, err
	}
	return &Session{ID: id, Tools: tools}, restored, nil
}

// makeRoomLocked makes room for one more session under MaxSessions by
// evicting the least recently used idle session, when sessions are
// persistent; otherwise it refuses.
func (m *Manager) makeRoomLocked(ctx context.Context) error {
	if m.cfg.MaxSessions <= 0 || m.stats.Live < m.cfg.MaxSessions {
		return nil
	}
	if m.persistent() {
		for e := m.lru.Front(); e != nil; e = e.Next() {
			if s := e.Value.(*Session); s.refs == 0 {
				m.evictLocked(ctx, s)
				return nil
			}
		}
	}
	return fmt.Errorf("%w: %d live, the limit is %d", ErrTooManySessions, m.stats.Live, m.cfg.MaxSessions)
}

// evictLocked takes s out of memory, saving it first when sessions are
// persistent. A session whose snapshot fails to save is closed all the
// same: memory is what eviction is for, and the store keeps the last good
// snapshot.
func (m *Manager) evictLocked(ctx context.Context, s *Session) {
	m.removeLocked(s)
	m.stats.Evicted++
	if m.persistent() {
		if m.saveLocked(ctx, s) == nil {
			m.stats.Saved++
		}
	}
	s.Sandbox().Close()
}

func (m *Manager) removeLocked(s *Session) {
	delete(m.sessions, s.ID)
	m.lru.Remove(s.elem)
	m.stats.Live--
}

// saveLocked writes s to the store. The sandbox is idle (refs == 0) and
// out of the map, so nothing runs in it meanwhile.
func (m *Manager) saveLocked(ctx context.Context, s *Session) error {
	b, err := m.cfg.Snapshot(s.Sandbox())
	if err != nil {
		return err
	}
	return m.cfg.Store.Save(ctx, s.ID, b)
}

// End ends the session id: its sandbox is closed and, when sessions are
// persistent and keep is true, saved first so that the session can resume
// later; with keep false it is deleted from the store too. Ending a
// session that is not live only touches the store.
func (m *Manager) End(ctx context.Context, id string, keep bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[id]
	var err error
	if s != nil {
		m.removeLocked(s)
		if m.persistent() && keep {
			if err = m.saveLocked(ctx, s); err == nil {
				m.stats.Saved++
			}
		}
		s.Sandbox().Close()
	}
	if m.persistent() && !keep {
		if derr := m.cfg.Store.Delete(ctx, id); derr != nil && !errors.Is(derr, ErrNotFound) {
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
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	cutoff := m.cfg.now().Add(-m.cfg.IdleTimeout)
	for e := m.lru.Front(); e != nil; {
		next := e.Next()
		if s := e.Value.(*Session); s.refs == 0 && !s.lastUsed.After(cutoff) {
			m.evictLocked(ctx, s)
			n++
		}
		e = next
	}
	return n
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
	var errs []error
	for _, s := range m.sessions {
		m.removeLocked(s)
		if m.persistent() {
			if err := m.saveLocked(ctx, s); err != nil {
				errs = append(errs, fmt.Errorf("session %s: %w", s.ID, err))
			} else {
				m.stats.Saved++
			}
		}
		s.Sandbox().Close()
	}
	m.mu.Unlock()
	m.janitor.Wait()
	return errors.Join(errs...)
}
