package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/guest"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
	"github.com/wasmsand/wasmsand/wasm/preinit"
)

// preinitModule decodes the built tool module file, skipping the test
// where tools are not built here with pre-initialisation.
func preinitModule(t *testing.T, file string) *binary.Module {
	t.Helper()
	if !guest.Preinit() || os.Getenv("WASMSAND_TOOLS_DIR") != "" {
		t.Skip("tools are not built here with pre-initialisation")
	}
	bin, err := os.ReadFile(filepath.Join(guesttest.Dir(t), file))
	if err != nil {
		t.Fatal(err)
	}
	m, err := binary.Decode(bin)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPreinitImages checks that the guest build wrote pre-initialised
// images (a _start that calls the entry, no _initialize), unless turned
// off.
func TestPreinitImages(t *testing.T) {
	m := preinitModule(t, "coreutils.wasm")
	has := map[string]bool{}
	for _, e := range m.Exports {
		has[e.Name] = true
	}
	if !has["_start"] || !has[preinit.EntryName] || has[preinit.InitName] {
		t.Errorf("coreutils.wasm exports %v: not a pre-initialised image", has)
	}
	// Every Go module is one, git (which brings an overlay of its own)
	// included.
	mods, err := guest.Modules()
	if err != nil {
		t.Fatal(err)
	}
	for _, mod := range mods {
		bin, err := os.ReadFile(filepath.Join(guesttest.Dir(t), mod.File))
		if err != nil {
			t.Fatal(err)
		}
		dm, err := binary.Decode(bin)
		if err != nil {
			t.Fatalf("%s: %v", mod.File, err)
		}
		image := false
		for _, e := range dm.Exports {
			image = image || e.Name == preinit.EntryName
		}
		if !image {
			t.Errorf("%s is not a pre-initialised image", mod.File)
		}
	}
	// The Go runtime's start-up is gone from every process: /bin/true
	// built as a plain command spends about 3 M fuel, an image 0.3 M.
	sb := newTest(t, Options{})
	res := run(t, sb, "/bin/true")
	t.Logf("/bin/true: %d fuel", res.Metrics.FuelUsed)
	if res.ExitCode != 0 || res.Metrics.FuelUsed > 600_000 {
		t.Errorf("/bin/true: status %d, %d fuel; want 0 and well under the 3 M of a Go start-up", res.ExitCode, res.Metrics.FuelUsed)
	}
	// Small processes run in the image's memory without growing it (the
	// image keeps free heap: reactor.Reserve), so the JS engine can
	// recycle their memories.
	if len(m.Memories) != 1 {
		t.Fatalf("coreutils.wasm defines %d memories", len(m.Memories))
	}
	initial := int64(m.Memories[0].Min) << 16
	for _, cmd := range []string{"/bin/true", "echo a | tr a b", "echo x | cat", "seq 3"} {
		if res := run(t, sb, cmd); res.Metrics.PeakMemoryBytes != initial {
			t.Errorf("%s: peak memory %d bytes, want the image's %d (no memory.grow)", cmd, res.Metrics.PeakMemoryBytes, initial)
		}
	}
}

// TestPreinitFindStaysInImage checks that find walks 10,000 files in
// its image's memory, without memory.grow: a grown memory cannot be
// recycled by the JS engine, whose fresh pages then cost a fault each.
func TestPreinitFindStaysInImage(t *testing.T) {
	m := preinitModule(t, "findutils.wasm")
	initial := int64(m.Memories[0].Min) << 16
	sb := newTest(t, Options{})
	benchTree(t, func(d string) error { return sb.Mkdir("/home/user/"+d, 0o755) },
		func(f string, c []byte) error { return sb.WriteFile("/home/user/"+f, c, 0o644) })
	for _, cmd := range []string{"find t -name '*7*' -type f > /dev/null", "find t > /dev/null", "find t -type d > /dev/null"} {
		res := run(t, sb, cmd)
		t.Logf("%s: %d fuel, peak memory %d bytes (image %d)", cmd, res.Metrics.FuelUsed, res.Metrics.PeakMemoryBytes, initial)
		if res.ExitCode != 0 || res.Metrics.PeakMemoryBytes != initial {
			t.Errorf("%s: status %d, peak memory %d bytes, want 0 and the image's %d (no memory.grow)", cmd, res.ExitCode, res.Metrics.PeakMemoryBytes, initial)
		}
	}
}

// TestPreinitProcessState checks that processes started from the same
// image each see their own arguments, environment, working directory,
// standard input and random numbers, as processes of a plain command do.
func TestPreinitProcessState(t *testing.T) {
	sb := newTest(t, Options{Seed: 7})
	tests := []struct{ cmd, want string }{
		{"/bin/echo one two; /bin/echo three", "one two\nthree\n"},
		{"A=1 printenv A; A=2 printenv A; printenv A || echo unset", "1\n2\nunset\n"},
		{"cd /tmp && realpath .; cd / && realpath .; mkdir -p /tmp/d && cd /tmp/d && realpath x", "/tmp\n/\n/tmp/d/x\n"},
		{"echo x | cat; echo y | cat; cat < /dev/null; echo z | tr z Z", "x\ny\nZ\n"},
		{"cd /tmp && echo hi > f && cat f && cd / && cat f 2>/dev/null || echo none", "hi\nnone\n"},
	}
	for _, tt := range tests {
		res := run(t, sb, tt.cmd)
		if string(res.Stdout) != tt.want {
			t.Errorf("%q: stdout %q, want %q (stderr %q)", tt.cmd, res.Stdout, tt.want, res.Stderr)
		}
	}

	// Random numbers differ between processes and repeat with the seed.
	const cmd = "shuf -i 1-1000 -n 5; shuf -i 1-1000 -n 5; seq 50 | sort -R | head -3; mktemp; mktemp"
	a := string(run(t, newTest(t, Options{Seed: 7}), cmd).Stdout)
	lines := strings.Split(strings.TrimSuffix(a, "\n"), "\n")
	if len(lines) != 15 || slices.Equal(lines[0:5], lines[5:10]) || lines[13] == lines[14] {
		t.Errorf("%q: two processes drew the same numbers:\n%s", cmd, a)
	}
	b := string(run(t, newTest(t, Options{Seed: 7}), cmd).Stdout)
	if a != b {
		t.Errorf("%q: differs between two sandboxes with the same seed:\n%s\n---\n%s", cmd, a, b)
	}
}
