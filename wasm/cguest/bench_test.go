package cguest_test

import (
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
)

// BenchmarkPythonStart is a warm `python3 -c pass`: the module compiled,
// the library placed.
func BenchmarkPythonStart(b *testing.B) {
	sb := newSandbox(b, sandbox.Options{})
	run(b, sb, "python3 -c pass")
	b.ResetTimer()
	for range b.N {
		if res := run(b, sb, "python3 -c pass"); res.ExitCode != 0 {
			b.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
		}
	}
}

// BenchmarkPythonNewSandbox is `python3 -c pass` in a new sandbox each
// time: placing the library is part of it.
func BenchmarkPythonNewSandbox(b *testing.B) {
	run(b, newSandbox(b, sandbox.Options{}), "python3 -c pass")
	b.ResetTimer()
	for range b.N {
		sb := newSandbox(b, sandbox.Options{})
		if res := run(b, sb, "python3 -c pass"); res.ExitCode != 0 {
			b.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
		}
		sb.Close()
	}
}

// BenchmarkSQLiteStart is a warm `sqlite3 :memory: 'select 1'`.
func BenchmarkSQLiteStart(b *testing.B) {
	sb := newSandbox(b, sandbox.Options{})
	run(b, sb, "sqlite3 :memory: 'select 1'")
	b.ResetTimer()
	for range b.N {
		if res := run(b, sb, "sqlite3 :memory: 'select 1'"); res.ExitCode != 0 {
			b.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
		}
	}
}
