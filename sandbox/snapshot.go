package sandbox

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/internal/wire"
	"github.com/wasmsand/wasmsand/sandbox/shell"
	"github.com/wasmsand/wasmsand/sandbox/vfs"
)

// SnapshotVersion is the version of the snapshot format this package
// writes and the only one it reads.
const SnapshotVersion = 1

// snapshotMagic starts every snapshot. Like PNG's signature, its
// non-ASCII first byte and CR LF catch bytes mangled as text.
const snapshotMagic = "\x89WSBX\r\n\x1a"

// The sections of a version 1 snapshot, in this order.
const (
	sectionMeta  = "META"
	sectionShell = "SHEL"
	sectionFS    = "FSYS"
)

var sectionOrder = [...]string{sectionMeta, sectionShell, sectionFS}

// The checks a SnapshotError names.
const (
	CheckMagic     = "magic"     // the bytes are not a wasmsand snapshot
	CheckVersion   = "version"   // a format version this package does not read
	CheckTruncated = "truncated" // the bytes end too soon
	CheckChecksum  = "checksum"  // a section's CRC-32C does not match
	CheckFormat    = "format"    // a section is malformed or inconsistent
	CheckLimits    = "limits"    // the restored files exceed the limits
)

// SnapshotError is why Restore refused a snapshot. Restore never builds a
// sandbox from part of a snapshot: it checks everything first.
type SnapshotError struct {
	Check   string // one of the Check constants
	Section string // the section that failed, if one did
	Msg     string
}

func (e *SnapshotError) Error() string {
	s := "sandbox: snapshot: " + e.Check
	if e.Section != "" {
		s += " (section " + e.Section + ")"
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

// ErrBusy is returned by Snapshot and Fork while a Run is in progress:
// they copy the state between commands, never in the middle of one.
var ErrBusy = errors.New("sandbox: a command is running")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Snapshot returns the whole state of the sandbox as bytes that Restore
// turns back into a sandbox: files, the shell's variables, functions,
// aliases, options, traps and working directory, the limits, the PRNG
// and the run counter. The same state always gives the same bytes. It
// fails with ErrBusy while a Run is in progress.
func (s *Sandbox) Snapshot() ([]byte, error) {
	if !s.runMu.TryLock() {
		return nil, ErrBusy
	}
	defer s.runMu.Unlock()
	if s.closed.Load() {
		return nil, ErrClosed
	}
	return s.snapshotLocked(), nil
}

// snapshotMeta is the META section: the sandbox's own state.
type snapshotMeta struct {
	timeout      time.Duration
	memoryLimit  int64
	fsLimit      int64
	maxInodes    int
	maxProcesses int
	fuel         int64
	outputLimit  int64
	seed         int64
	prng         uint64
	runs         uint64
	pids         int64
	started      time.Time
}

func (s *Sandbox) snapshotLocked() []byte {
	s.rand.mu.Lock()
	state := s.rand.state
	s.rand.mu.Unlock()
	m := snapshotMeta{
		timeout: s.opts.Timeout, memoryLimit: s.opts.MemoryLimit, fsLimit: s.opts.FSLimit,
		maxInodes: s.opts.MaxInodes, maxProcesses: s.opts.MaxProcesses, fuel: s.opts.Fuel,
		outputLimit: s.opts.OutputLimit, seed: s.opts.Seed, prng: state,
		runs: s.runs.Load(), pids: s.pids.Load(), started: s.started,
	}
	b := make([]byte, 0, 4096)
	b = append(b, snapshotMagic...)
	b = binary.LittleEndian.AppendUint16(b, SnapshotVersion)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(sectionOrder)))
	b = appendSection(b, sectionMeta, func(w *wire.Writer) { m.encode(w) })
	b = appendSection(b, sectionShell, func(w *wire.Writer) { encodeShell(w, s.sh.State()) })
	b = appendSection(b, sectionFS, func(w *wire.Writer) {
		w.B = s.fs.AppendSnapshot(w.B, &vfs.SnapshotOptions{Abbrev: abbrevTool, OmitShared: true})
	})
	return b
}

// appendSection appends a section header (tag, length, checksum) and the
// payload enc writes.
func appendSection(b []byte, tag string, enc func(w *wire.Writer)) []byte {
	b = append(b, tag...)
	start := len(b)
	b = append(b, make([]byte, 12)...)
	w := wire.Writer{B: b}
	enc(&w)
	b = w.B
	payload := b[start+12:]
	binary.LittleEndian.PutUint64(b[start:], uint64(len(payload)))
	binary.LittleEndian.PutUint32(b[start+8:], crc32.Checksum(payload, castagnoli))
	return b
}

// abbrevTool writes a tool's entry in /bin or /usr/bin as the command's
// name: the tool layout is re-created, not stored.
func abbrevTool(data []byte) (string, bool) {
	name, ok := strings.CutPrefix(string(data), toolMarker)
	if !ok || !strings.HasSuffix(name, "\n") {
		return "", false
	}
	name = name[:len(name)-1]
	if name == "" || strings.ContainsAny(name, "\n/") {
		return "", false
	}
	return name, true
}

func expandTool(name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, "\n/") {
		return nil, false
	}
	return []byte(toolMarker + name + "\n"), true
}

func (m *snapshotMeta) encode(w *wire.Writer) {
	w.Varint(int64(m.timeout))
	w.Varint(m.memoryLimit)
	w.Varint(m.fsLimit)
	w.Varint(int64(m.maxInodes))
	w.Varint(int64(m.maxProcesses))
	w.Varint(m.fuel)
	w.Varint(m.outputLimit)
	w.Varint(m.seed)
	w.Uvarint(m.prng)
	w.Uvarint(m.runs)
	w.Varint(m.pids)
	encodeTime(w, m.started)
}

func (m *snapshotMeta) decode(r *wire.Reader) {
	m.timeout = time.Duration(r.Int(0, 1<<62, "timeout"))
	m.memoryLimit = r.Int(0, 1<<48, "memory limit")
	if m.memoryLimit != 0 && m.memoryLimit < 65536 {
		r.Fail("memory limit %d below one WebAssembly page", m.memoryLimit)
	}
	m.fsLimit = r.Int(0, 1<<62, "file system limit")
	m.maxInodes = int(r.Int(0, 1<<40, "inode limit"))
	m.maxProcesses = int(r.Int(0, 1<<30, "process limit"))
	m.fuel = r.Int(0, 1<<62, "fuel")
	m.outputLimit = r.Int(0, 1<<62, "output limit")
	m.seed = r.Varint()
	m.prng = r.Uvarint()
	m.runs = r.Uvarint()
	m.pids = r.Int(0, 1<<40, "process counter")
	m.started = decodeTime(r)
}

func encodeTime(w *wire.Writer, t time.Time) {
	if t.IsZero() {
		w.Byte(0)
		return
	}
	w.Byte(1)
	w.Varint(t.UnixNano())
}

func decodeTime(r *wire.Reader) time.Time {
	if !r.Bool() {
		return time.Time{}
	}
	return time.Unix(0, r.Varint())
}

func encodePairs(w *wire.Writer, list []shell.NameValue) {
	w.Uvarint(uint64(len(list)))
	for _, p := range list {
		w.String(p.Name)
		w.String(p.Value)
	}
}

func decodePairs(r *wire.Reader, what string) []shell.NameValue {
	n := r.Count(2, what)
	var out []shell.NameValue
	for i := 0; i < n && r.Err() == nil; i++ {
		p := shell.NameValue{Name: r.String(what), Value: r.String(what)}
		if i > 0 && p.Name <= out[i-1].Name {
			r.Fail("%s not sorted", what)
		}
		out = append(out, p)
	}
	return out
}

// encodeShell writes the SHEL section.
func encodeShell(w *wire.Writer, st *shell.State) {
	w.String(st.Dir)
	w.Strings(st.DirStack)
	w.String(st.Arg0)
	w.Strings(st.Params)
	w.Varint(int64(st.Status))
	w.String(st.LastArg)
	w.Uvarint(uint64(st.Umask))
	w.Uvarint(uint64(st.Random))
	encodeTime(w, st.Started)
	encodeTime(w, st.SecondsAt)
	w.Strings(st.Options)
	w.Uvarint(uint64(len(st.Vars)))
	for _, v := range st.Vars {
		w.String(v.Name)
		w.Uvarint(uint64(v.Attr))
		w.Bool(v.Set)
		w.String(v.Str)
		w.Uvarint(uint64(len(v.Index)))
		for _, e := range v.Index {
			w.Varint(e.Index)
			w.String(e.Value)
		}
		w.Strings(v.Keys)
		w.Strings(v.Values)
	}
	w.Uvarint(uint64(len(st.Funcs)))
	for _, f := range st.Funcs {
		w.String(f.Name)
		w.String(f.Source)
		w.Uvarint(uint64(f.Line))
		var flags byte
		if f.AliasesExpanded {
			flags |= 1
		}
		if f.Readonly {
			flags |= 2
		}
		if f.Exported {
			flags |= 4
		}
		w.Byte(flags)
	}
	encodePairs(w, st.Aliases)
	encodePairs(w, st.Traps)
	encodePairs(w, st.Hashes)
	encodePairs(w, st.Completions)
	w.Strings(st.Disabled)
	w.Uvarint(uint64(len(st.Limits)))
	for _, l := range st.Limits {
		w.Byte(l.Opt)
		w.Uvarint(l.Soft)
		w.Uvarint(l.Hard)
	}
}

// decodeShell reads the SHEL section. The shell checks the meaning of
// the values when the state is applied.
func decodeShell(r *wire.Reader) *shell.State {
	st := &shell.State{}
	st.Dir = r.String("the directory")
	st.DirStack = r.Strings("the directory stack")
	st.Arg0 = r.String("$0")
	st.Params = r.Strings("the positional parameters")
	st.Status = int(r.Int(0, 255, "$?"))
	st.LastArg = r.String("$_")
	st.Umask = uint32(r.Uint(0o777, "umask"))
	st.Random = uint32(r.Uint(1<<32-1, "$RANDOM state"))
	st.Started = decodeTime(r)
	st.SecondsAt = decodeTime(r)
	st.Options = r.Strings("options")
	n := r.Count(5, "variables")
	for i := 0; i < n && r.Err() == nil; i++ {
		v := shell.StateVar{Name: r.String("a variable name")}
		if i > 0 && v.Name <= st.Vars[i-1].Name {
			r.Fail("variables not sorted")
		}
		v.Attr = shell.Attr(r.Uint(1<<16-1, "attributes"))
		v.Set = r.Bool()
		v.Str = r.String("a value")
		k := r.Count(2, "an array")
		for j := 0; j < k && r.Err() == nil; j++ {
			v.Index = append(v.Index, shell.IndexedElem{Index: r.Varint(), Value: r.String("an element")})
		}
		v.Keys = r.Strings("keys")
		v.Values = r.Strings("values")
		st.Vars = append(st.Vars, v)
	}
	n = r.Count(4, "functions")
	for i := 0; i < n && r.Err() == nil; i++ {
		f := shell.StateFunc{Name: r.String("a function name"), Source: r.String("a function")}
		f.Line = int(r.Uint(1<<24, "a function's line"))
		flags := r.Byte()
		if flags&^7 != 0 {
			r.Fail("function flags %#x", flags)
		}
		f.AliasesExpanded, f.Readonly, f.Exported = flags&1 != 0, flags&2 != 0, flags&4 != 0
		if i > 0 && f.Name <= st.Funcs[i-1].Name {
			r.Fail("functions not sorted")
		}
		st.Funcs = append(st.Funcs, f)
	}
	st.Aliases = decodePairs(r, "aliases")
	st.Traps = decodePairs(r, "traps")
	st.Hashes = decodePairs(r, "hashes")
	st.Completions = decodePairs(r, "completions")
	st.Disabled = r.Strings("disabled builtins")
	if r.Len() > 0 { // absent from the first snapshots of version 1
		n := r.Count(3, "limits")
		for i := 0; i < n && r.Err() == nil; i++ {
			st.Limits = append(st.Limits, shell.StateLimit{Opt: r.Byte(), Soft: r.Uvarint(), Hard: r.Uvarint()})
		}
	}
	return st
}

// decodedSnapshot is a snapshot whose header, checksums, META and SHEL
// sections have been checked.
type decodedSnapshot struct {
	meta  snapshotMeta
	shell *shell.State
	fs    []byte // the FSYS payload
}

func snapErr(check, section, format string, args ...any) *SnapshotError {
	return &SnapshotError{Check: check, Section: section, Msg: fmt.Sprintf(format, args...)}
}

// wireErr turns a decoding error into a SnapshotError of section.
func wireErr(err error, section string) error {
	var we *wire.Error
	if errors.As(err, &we) {
		return &SnapshotError{Check: we.Check, Section: section, Msg: we.Msg}
	}
	return &SnapshotError{Check: CheckFormat, Section: section, Msg: err.Error()}
}

func decodeSnapshot(b []byte) (*decodedSnapshot, error) {
	if len(b) < len(snapshotMagic) {
		if strings.HasPrefix(snapshotMagic, string(b)) {
			return nil, snapErr(CheckTruncated, "", "%d bytes, shorter than the header", len(b))
		}
		return nil, snapErr(CheckMagic, "", "not a wasmsand snapshot")
	}
	if string(b[:len(snapshotMagic)]) != snapshotMagic {
		return nil, snapErr(CheckMagic, "", "not a wasmsand snapshot")
	}
	b = b[len(snapshotMagic):]
	if len(b) < 4 {
		return nil, snapErr(CheckTruncated, "", "the header is cut short")
	}
	if v := binary.LittleEndian.Uint16(b); v != SnapshotVersion {
		return nil, snapErr(CheckVersion, "", "format version %d; this build reads version %d", v, SnapshotVersion)
	}
	if n := binary.LittleEndian.Uint16(b[2:]); n != uint16(len(sectionOrder)) {
		return nil, snapErr(CheckFormat, "", "%d sections, want %d", n, len(sectionOrder))
	}
	b = b[4:]
	var payloads [len(sectionOrder)][]byte
	for i, tag := range sectionOrder {
		if len(b) < 16 {
			return nil, snapErr(CheckTruncated, tag, "the section header is cut short")
		}
		if string(b[:4]) != tag {
			return nil, snapErr(CheckFormat, tag, "found section %q where %s belongs", b[:4], tag)
		}
		size := binary.LittleEndian.Uint64(b[4:])
		sum := binary.LittleEndian.Uint32(b[12:])
		b = b[16:]
		if size > uint64(len(b)) {
			return nil, snapErr(CheckTruncated, tag, "the section says %d bytes, %d are left", size, len(b))
		}
		p := b[:size]
		b = b[size:]
		if crc32.Checksum(p, castagnoli) != sum {
			return nil, snapErr(CheckChecksum, tag, "CRC-32C mismatch")
		}
		payloads[i] = p
	}
	if len(b) != 0 {
		return nil, snapErr(CheckFormat, "", "%d bytes after the last section", len(b))
	}
	d := &decodedSnapshot{fs: payloads[2]}
	r := wire.NewReader(payloads[0])
	d.meta.decode(r)
	r.End("META")
	if err := r.Err(); err != nil {
		return nil, wireErr(err, sectionMeta)
	}
	r = wire.NewReader(payloads[1])
	d.shell = decodeShell(r)
	r.End("SHEL")
	if err := r.Err(); err != nil {
		return nil, wireErr(err, sectionShell)
	}
	return d, nil
}

// Restore makes a sandbox from a snapshot. opts gives what a snapshot
// does not hold — tools, engine, cache, clock — and may change limits:
// each limit field left zero takes the value the snapshot recorded
// (Seed is always the snapshot's, so $RANDOM and /dev/urandom go on
// where they were; Env and Cwd are ignored: the environment and the
// directory are the snapshot's). Restore checks the whole snapshot before it builds
// anything; a bad one gives a *SnapshotError naming the failed check,
// including CheckLimits when the files exceed FSLimit or MaxInodes.
//
// A snapshot holds no mounts, only their directories, empty; opts.Mounts
// are attached as New attaches them. Nor does it hold the network policy:
// opts.Network applies. Tool entries in /bin and /usr/bin
// are stored by name only; commands of
// opts's tools that the snapshot lists in neither directory are added to
// both.
func Restore(ctx context.Context, b []byte, opts Options) (*Sandbox, error) {
	d, err := decodeSnapshot(b)
	if err != nil {
		return nil, err
	}
	m := &d.meta
	fill := func(p *int64, v int64) {
		if *p <= 0 {
			*p = v
		}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = m.timeout
	}
	fill(&opts.MemoryLimit, m.memoryLimit)
	fill(&opts.FSLimit, m.fsLimit)
	fill(&opts.Fuel, m.fuel)
	fill(&opts.OutputLimit, m.outputLimit)
	if opts.MaxInodes <= 0 {
		opts.MaxInodes = m.maxInodes
	}
	if opts.MaxProcesses <= 0 {
		opts.MaxProcesses = m.maxProcesses
	}
	opts.Seed = m.seed
	s, err := newBare(ctx, opts)
	if err != nil {
		return nil, err
	}
	s.rand.state = m.prng
	fsys, err := vfs.DecodeSnapshot(d.fs, vfs.Options{Clock: s.now, Random: s.rand}, expandTool)
	if err != nil {
		return nil, wireErr(err, sectionFS)
	}
	// The snapshot's byte and inode limits hold FSLimit and MaxInodes
	// plus what the layout and tool files took; keep that allowance.
	oldMaxB, oldMaxI := fsys.Limits()
	oldInodes := m.maxInodes
	if oldInodes <= 0 {
		oldInodes = vfs.DefaultMaxInodes
	}
	maxInodes := s.opts.MaxInodes
	if maxInodes <= 0 {
		maxInodes = vfs.DefaultMaxInodes
	}
	maxB := s.opts.FSLimit + max(oldMaxB-m.fsLimit, 0)
	maxI := maxInodes + max(oldMaxI-oldInodes, 0)
	used, inodes := fsys.Usage()
	if used > maxB {
		return nil, snapErr(CheckLimits, sectionFS, "the files hold %d bytes, more than the limit of %d", used, maxB)
	}
	if inodes > maxI {
		return nil, snapErr(CheckLimits, sectionFS, "the files use %d inodes, more than the limit of %d", inodes, maxI)
	}
	fsys.SetLimits(maxB, maxI)
	s.fs = fsys
	sh, err := s.newShell(nil, d.shell.Dir)
	if err != nil {
		return nil, err
	}
	if err := sh.SetState(d.shell); err != nil {
		return nil, snapErr(CheckFormat, sectionShell, "%v", err)
	}
	if err := s.addMissingTools(); err != nil {
		return nil, err
	}
	s.sh = sh
	s.shellPid.Store(int64(sh.Pid()))
	s.pids.Store(m.pids)
	s.runs.Store(m.runs)
	s.started = m.started
	s.noteVars()
	// Mounts are not in snapshots (their directories are, empty): attach
	// the ones opts asks for, as New does.
	for _, mt := range opts.Mounts {
		if err := s.AddMount(mt); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// newBare makes a sandbox with its tools and engine but no filesystem
// and no shell yet.
func newBare(ctx context.Context, opts Options) (*Sandbox, error) {
	opts = withDefaults(opts)
	if opts.MemoryLimit < 65536 {
		return nil, fmt.Errorf("sandbox: MemoryLimit %d is below one WebAssembly page (65536 bytes)", opts.MemoryLimit)
	}
	p, err := platformOf(opts)
	if err != nil {
		return nil, err
	}
	tools, err := loadToolSet(ctx, opts, p)
	if err != nil {
		return nil, err
	}
	eng, err := sharedEngine(ctx, opts, p)
	if err != nil {
		return nil, err
	}
	s := &Sandbox{
		opts:     opts,
		rand:     newPRNG(opts.Seed),
		tools:    tools,
		eng:      eng,
		memPages: uint32(min(opts.MemoryLimit/65536, 65536)),
		cwd:      opts.Cwd,
	}
	s.net.policy = opts.Network
	if s.net.policy.Transport == nil {
		s.net.policy.Transport = p.Transport()
	}
	return s, nil
}

// addMissingTools gives the commands of the sandbox's tools that are in
// neither /bin nor /usr/bin an entry in both, outside the limits.
func (s *Sandbox) addMissingTools() error {
	var missing []string
	for _, c := range append(s.tools.names(), shellCommands...) {
		_, err1 := s.fs.Stat(vfs.RootIno, "/bin/"+c, false)
		_, err2 := s.fs.Stat(vfs.RootIno, "/usr/bin/"+c, false)
		if err1 != nil && err2 != nil {
			missing = append(missing, c)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	maxB, maxI := s.fs.Limits()
	var size int64
	for _, c := range missing {
		size += int64(len(toolMarker) + len(c) + 1)
	}
	s.fs.SetLimits(maxB+2*size, maxI+2*len(missing))
	for _, dir := range []string{"/usr/bin", "/bin"} {
		if st, err := s.fs.Stat(vfs.RootIno, dir, true); err != nil || st.Type != vfs.TypeDir {
			continue
		}
		for _, c := range missing {
			if err := s.fs.WriteFile(dir+"/"+c, []byte(toolMarker+c+"\n"), 0o755); err != nil {
				return fmt.Errorf("sandbox: adding tool %s: %w", c, err)
			}
		}
	}
	return nil
}

// Fork returns an independent copy of the sandbox: its files, shell
// state, limits, PRNG and counters. File data is shared copy-on-write,
// so a fork costs time in the number of files, not their bytes; a write
// in either sandbox is never seen by the other. The network policy is
// copied; mounts are not (their directories are, empty). Fork copies the
// state between commands: while a Run is in progress it fails with ErrBusy.
func (s *Sandbox) Fork(ctx context.Context) (*Sandbox, error) {
	if !s.runMu.TryLock() {
		return nil, ErrBusy
	}
	defer s.runMu.Unlock()
	if s.closed.Load() {
		return nil, ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.rand.mu.Lock()
	state := s.rand.state
	s.rand.mu.Unlock()
	c := &Sandbox{
		opts:     s.opts,
		rand:     &prng{state: state},
		tools:    s.tools.fork(),
		eng:      s.eng,
		memPages: s.memPages,
		started:  s.started,
	}
	s.net.mu.Lock()
	c.net.policy = s.net.policy // with the rules AllowNetwork added
	s.net.mu.Unlock()
	c.fs = s.fs.Clone()
	c.fs.SetClock(c.now)
	c.fs.SetRandom(c.rand)
	st := s.sh.State()
	sh, err := c.newShell(nil, st.Dir)
	if err != nil {
		return nil, err
	}
	if err := sh.SetState(st); err != nil {
		return nil, fmt.Errorf("sandbox: fork: %w", err)
	}
	c.sh = sh
	c.shellPid.Store(int64(sh.Pid()))
	c.pids.Store(s.pids.Load())
	c.runs.Store(s.runs.Load())
	c.noteVars()
	return c, nil
}

// fork returns a tool set for a forked sandbox: the same commands and
// module keys, and the same record of placed files (they are in the
// copied filesystem).
func (ts *toolSet) fork() *toolSet {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	c := &toolSet{fsys: ts.fsys, where: ts.where, commands: ts.commands,
		keys: make(map[string]moduleKey, len(ts.keys)), placed: make(map[string]bool, len(ts.placed))}
	for k, v := range ts.keys {
		c.keys[k] = v
	}
	for k, v := range ts.placed {
		c.placed[k] = v
	}
	return c
}
