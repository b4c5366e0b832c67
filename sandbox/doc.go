// Package sandbox is the wasmsand core: a bash shell (package shell, on
// mvdan.cc/sh/v3's parser) whose commands are WASI preview1 guests, run
// over an in-memory filesystem with hard limits on time, fuel, memory,
// disk, processes and output.
//
//	import _ "github.com/wasmsand/wasmsand/platform/native"
//
//	sb, err := sandbox.New(ctx, sandbox.Options{})
//	defer sb.Close()
//	res, err := sb.Run(ctx, "seq 10 | grep 1 | wc -l")
//
// Shell state (variables, functions, working directory) persists across Run
// calls of one Sandbox.
//
// # Platforms
//
// The core is plain Go without build tags; where it runs is a [Platform]:
// the engine that runs guest modules, the disk caches, the tools a
// sandbox gets by default, the network and the host's directories.
// Package platform/native (wazero; tools from a directory or built from
// this module's sources into the user cache) registers itself as the
// default when imported; without it, and without Options.Platform, New
// fails with [ErrNoPlatform]. Package platform/hostwasm is the js/wasm
// core's, over the host's own WebAssembly in Node and browsers.
// Snapshots go to Options.Store. A sandbox without any tool modules runs
// shell builtins only, and says so ([NoToolsHint]) when a command is not
// found.
//
// # Snapshots, restore and fork
//
// [Sandbox.Snapshot] returns the whole state of a sandbox as bytes,
// [Restore] makes a new sandbox from them, and [Sandbox.Fork] makes an
// independent copy that shares unchanged file data (copy on write).
// [Store] keeps snapshots by name (platform/native's DirStore on disk); [Sandbox.Save],
// [Load] and Options.Persist use it. Snapshot and Fork copy the state
// between commands and fail with [ErrBusy] while a Run is in progress.
//
// # Snapshot format, version 1
//
// All integers in headers are little-endian. A snapshot is
//
//	magic    8 bytes   89 57 53 42 58 0d 0a 1a ("\x89WSBX\r\n\x1a")
//	version  uint16    1
//	count    uint16    3, the number of sections
//	section  ×3        META, SHEL and FSYS, in this order
//
// and nothing after the last section. Each section is
//
//	tag      4 bytes   "META", "SHEL" or "FSYS"
//	length   uint64    bytes of payload
//	crc      uint32    CRC-32C (Castagnoli) of the payload
//	payload
//
// Inside payloads, numbers are varints as encoding/binary writes them
// (uvarint, or zigzag varint where signed), strings and byte strings are
// a uvarint length then the bytes, a list is a uvarint count then its
// items, a flag is one byte 0 or 1, and a time is a flag (0: the zero
// time) followed, if 1, by Unix nanoseconds as a varint.
//
// META holds the sandbox itself, as varints: Timeout (ns), MemoryLimit,
// FSLimit, MaxInodes, MaxProcesses, Fuel, OutputLimit, Seed; then the PRNG
// state (uvarint), the number of Runs (uvarint), the last process id
// (varint) and the start time (a time).
//
// SHEL holds the shell's state (package shell's State): directory,
// directory stack, $0, positional parameters, $?, $_, umask, $RANDOM's
// generator state, start time, time of the last SECONDS assignment, the
// options that are on (names, sorted); the global variables sorted by name
// (name, attributes uvarint, set flag, scalar value, indexed elements as
// index varint and value, associative keys in insertion order, their
// values); functions sorted by name (name, source text, the number of
// lines before it in the text that defined it, flags byte: 1
// aliases already expanded, 2 readonly, 4 exported); then aliases, traps,
// the hash table and completion specs as sorted name/value lists, the
// disabled builtins, and the ulimit limits that differ from a fresh
// shell's (a count, then each as its option letter byte and soft and hard
// uvarints; the count is absent from snapshots made before ulimit kept
// limits, and reads as none).
//
// FSYS holds the file tree as package vfs's AppendSnapshot writes it
// (documented there): every inode with its number, kind, mode, link
// count, times, and data, directory entries or symlink target. Entries
// of the tool layout (the small files in /bin and /usr/bin that stand for
// a tool) are written as the command's name only, and the files a tool
// module carries (Python's library), as long as nothing changed them, are
// left out: the tool places them again the first time it runs. Open files, FIFO
// contents and background jobs are not part of a snapshot. Host mounts
// are not either: a snapshot holds only the in-memory tree.
//
// The same state always gives the same bytes, on every runtime: maps are
// written sorted, file data without trailing zeros per 64 KiB chunk.
// [Restore] checks the magic, version, section layout, every checksum
// and every value (counts against the bytes left, names, link counts,
// reachability of every inode, function sources that must parse) before
// it builds anything, and fails with a [*SnapshotError] whose Check names
// the failed check: magic, version, truncated, checksum, format, or limits
// when the files exceed the limits asked for.
package sandbox
