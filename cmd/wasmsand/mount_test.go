package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
)

func TestParseMount(t *testing.T) {
	tests := []struct {
		in   string
		want sandbox.Mount
		bad  bool
	}{
		{in: "/srv/data:/mnt/data", want: sandbox.Mount{HostPath: "/srv/data", Path: "/mnt/data"}},
		{in: "/srv/data:/mnt/data:ro", want: sandbox.Mount{HostPath: "/srv/data", Path: "/mnt/data", ReadOnly: true}},
		{in: "/srv/data:/mnt/data:rw", want: sandbox.Mount{HostPath: "/srv/data", Path: "/mnt/data"}},
		{in: "rel/dir:/mnt/x/", want: sandbox.Mount{HostPath: "rel/dir", Path: "/mnt/x"}},
		{in: "/a:b:/mnt/c:ro", want: sandbox.Mount{HostPath: "/a:b", Path: "/mnt/c", ReadOnly: true}},
		{in: ".:/mnt/../work", want: sandbox.Mount{HostPath: ".", Path: "/work"}},
		{in: "/srv/data", bad: true},
		{in: ":/mnt/data", bad: true},
		{in: "/srv:mnt", bad: true},
		{in: "/srv:", bad: true},
		{in: "/srv:/", bad: true},
		{in: "/srv:/mnt/..", bad: true},
		{in: ":ro", bad: true},
		{in: "", bad: true},
		{in: "/srv:/mnt\x00x", bad: true},
	}
	for _, tc := range tests {
		got, err := parseMount(tc.in)
		switch {
		case tc.bad && err == nil:
			t.Errorf("parseMount(%q) = %+v, want an error", tc.in, got)
		case !tc.bad && err != nil:
			t.Errorf("parseMount(%q): %v", tc.in, err)
		case !tc.bad && got != tc.want:
			t.Errorf("parseMount(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func FuzzParseMount(f *testing.F) {
	for _, s := range []string{"/srv/data:/mnt/data", "/a:b:/mnt/c:ro", "x:/y:rw", ":/", "/:/:ro", "a:ro:/b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := parseMount(s)
		if err != nil {
			if m.Path != "" || m.HostPath != "" {
				t.Fatalf("parseMount(%q) failed but filled %+v", s, m)
			}
			return
		}
		if m.HostPath == "" || !strings.HasPrefix(m.Path, "/") || m.Path == "/" || strings.Contains(m.Path, ":") {
			t.Fatalf("parseMount(%q) = %+v", s, m)
		}
		if strings.Contains(m.Path, "/../") || strings.HasSuffix(m.Path, "/..") || strings.HasSuffix(m.Path, "/") {
			t.Fatalf("parseMount(%q): path %q is not clean", s, m.Path)
		}
		// The pieces give the spec back.
		back := m.HostPath + ":"
		if !strings.HasPrefix(s, back) {
			t.Fatalf("parseMount(%q): host %q is not a prefix", s, m.HostPath)
		}
		if m.ReadOnly && !strings.HasSuffix(s, ":ro") {
			t.Fatalf("parseMount(%q): read-only without :ro", s)
		}
	})
}

func TestMountFlag(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("from host\n"), 0o644)
	cfg, _, err := parseArgs([]string{"--mount", dir + ":/mnt/a:ro", "--mount", dir + ":/mnt/b", "-c", "true"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []sandbox.Mount{{HostPath: dir, Path: "/mnt/a", ReadOnly: true}, {HostPath: dir, Path: "/mnt/b"}}
	if len(cfg.opts.Mounts) != 2 || cfg.opts.Mounts[0] != want[0] || cfg.opts.Mounts[1] != want[1] {
		t.Errorf("Mounts = %+v, want %+v", cfg.opts.Mounts, want)
	}
	if _, code, err := parseArgs([]string{"--mount", "nocolon", "-c", "true"}, nil); err == nil || code != exitUsage {
		t.Errorf("a bad --mount: code %d, err %v", code, err)
	}
}

// TestMountCLI runs the built binary with two mounts.
func TestMountCLI(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("from host\n"), 0o644)
	out := t.TempDir()
	r := wasmsand(t, "", "--mount", dir+":/mnt/in:ro", "--mount", out+":/mnt/out",
		"-c", "cat /mnt/in/f.txt; wc -c < /mnt/in/f.txt > /mnt/out/n; echo x > /mnt/in/g")
	r.check(t, "mount", "from host\n", 1)
	if b, _ := os.ReadFile(filepath.Join(out, "n")); string(b) != "10\n" {
		t.Errorf("written through the mount: %q", b)
	}
	if !strings.Contains(r.stderr, "Read-only file system") {
		t.Errorf("stderr %q, want EROFS", r.stderr)
	}
	r = wasmsand(t, "", "--mount", filepath.Join(dir, "missing")+":/mnt/x", "-c", "true")
	if r.code != exitSetup || !strings.Contains(r.stderr, "/mnt/x") {
		t.Errorf("missing host directory: exit %d, stderr %q", r.code, r.stderr)
	}
}
