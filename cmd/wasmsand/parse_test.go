package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		bad  bool
	}{
		{"0", 0, false},
		{"4096", 4096, false},
		{"64K", 64 << 10, false},
		{"64k", 64 << 10, false},
		{"64KB", 64 << 10, false},
		{"16MiB", 16 << 20, false},
		{"16 M", 16 << 20, false},
		{"2G", 2 << 30, false},
		{"1GiB", 1 << 30, false},
		{"1.5K", 1536, false},
		{"1T", 1 << 40, false},
		{"", 0, true},
		{"M", 0, true},
		{"12X", 0, true},
		{"-5", 0, true},
		{"1.2.3", 0, true},
		{"99999999999999999999", 0, true},
		{"9000000T", 0, true},
	}
	for _, tc := range tests {
		got, err := parseBytes(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("parseBytes(%q) = %d, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestParseTimeout(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{"2s", 2 * time.Second, false},
		{"500ms", 500 * time.Millisecond, false},
		{"1m30s", 90 * time.Second, false},
		{"3", 3 * time.Second, false},
		{"0.5", 500 * time.Millisecond, false},
		{"soon", 0, true},
		{"-1s", 0, true},
		{"-2", 0, true},
	}
	for _, tc := range tests {
		got, err := parseTimeout(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("parseTimeout(%q) = %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseTimeout(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestWithParams(t *testing.T) {
	tests := []struct {
		text   string
		params []string
		want   string
	}{
		{"echo hi\n", nil, "echo hi\n"},
		{"#!/bin/bash\necho $1\n", []string{"a b"}, "set -- 'a b'; #!/bin/bash\necho $1\n"},
		{"echo\n", []string{"", "it's", "$x"}, `set -- '' "it's" '$x'; echo` + "\n"},
	}
	for _, tc := range tests {
		got, err := withParams(tc.text, tc.params)
		if err != nil || got != tc.want {
			t.Errorf("withParams(%q, %q) = %q, %v; want %q", tc.text, tc.params, got, err, tc.want)
		}
	}
}

func TestIncomplete(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"echo hi\n", false},
		{"echo 'open\n", true},
		{"echo \"open\n", true},
		{"if true; then\n", true},
		{"if true; then\necho x\nfi\n", false},
		{"for i in 1 2; do\n", true},
		{"while true\n", true},
		{"f() {\n", true},
		{"cat <<EOF\nbody\n", true},
		{"cat <<EOF\nbody\nEOF\n", false},
		{"echo a |\n", true},
		{"echo a &&\n", true},
		{"echo a \\\n", true},
		{"echo a \\\\\n", false},
		{"echo $(\n", true},
		{"arr=(1\n", true},
		{"case x in\n", true},
		{"echo )\n", false}, // an error more input cannot fix
		{"fi\n", false},
	}
	for _, tc := range tests {
		if got := incomplete(tc.text); got != tc.want {
			t.Errorf("incomplete(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestParseArgs(t *testing.T) {
	cfg, _, err := parseArgs([]string{
		"--timeout", "2s", "--fs-limit", "1M", "--memory-limit", "64MiB", "--output-limit", "1K",
		"--max-processes", "8", "--max-inodes", "100", "--fuel", "1000", "--seed", "-3",
		"--clock", "2024-01-02T03:04:05Z", "--cwd", "/tmp", "--env", "A=1", "--env", "B=",
		"--tools", "/t", "--cache-dir", "", "-c", "echo", "x", "--y",
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	o := cfg.opts
	if o.Timeout != 2*time.Second || o.FSLimit != 1<<20 || o.MemoryLimit != 64<<20 || o.OutputLimit != 1024 ||
		o.MaxProcesses != 8 || o.MaxInodes != 100 || o.Fuel != 1000 || o.Seed != -3 || o.Cwd != "/tmp" ||
		strings.Join(o.Env, ",") != "A=1,B=" || o.ToolsDir != "/t" || o.CacheDir != "" ||
		!cfg.hasCmd || cfg.command != "echo" || strings.Join(cfg.args, ",") != "x,--y" {
		t.Errorf("parseArgs: got %+v, opts %+v", cfg, o)
	}
	if o.Clock == nil || !o.Clock().Equal(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Errorf("--clock not applied")
	}

	cfg, _, err = parseArgs([]string{"script.sh", "-c", "x"}, io.Discard)
	if err != nil || cfg.hasCmd || strings.Join(cfg.args, ",") != "script.sh,-c,x" {
		t.Errorf("flags after the script must go to the script: got %+v, %v", cfg, err)
	}
	// Without --tools: the tools beside the executable, or "" (the
	// platform's own, built into the user cache) where there are none.
	if cfg.opts.ToolsDir != defaultToolsDir() {
		t.Errorf("default tools directory %q, want %q", cfg.opts.ToolsDir, defaultToolsDir())
	}
}
