package grep

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
)

// The benchmarks run over 200,000 records (5.5 MB) of testutil.Records.
var records = testutil.Records(200000)

func BenchmarkGrepLiteral(b *testing.B) { testutil.Bench(b, Main, records, "grep", "-c", "xray") }

func BenchmarkGrepRegex(b *testing.B) {
	testutil.Bench(b, Main, records, "grep", "-cE", "[0-9]+ [A-Z][0-9]X")
}

func BenchmarkGrepFixedMany(b *testing.B) {
	testutil.Bench(b, Main, records, "grep", "-cF", "-e", "north", "-e", "K7", "-e", "2024-13")
}

func BenchmarkGrepInvert(b *testing.B) { testutil.Bench(b, Main, records, "grep", "-v", "east") }
