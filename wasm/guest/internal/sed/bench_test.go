package sed

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
)

// The benchmarks run over 200,000 records (5.5 MB) of testutil.Records.
var records = testutil.Records(200000)

func BenchmarkSedRegexSubst(b *testing.B) {
	testutil.Bench(b, Main, records, "sed", "-E", `s/([0-9]+)-([0-9]+)-([0-9]+)/\3.\2.\1/`)
}

func BenchmarkSedLiteralSubst(b *testing.B) {
	testutil.Bench(b, Main, records, "sed", "s/north/NORTH/g")
}

func BenchmarkSedAddress(b *testing.B) {
	testutil.Bench(b, Main, records, "sed", "-n", `/[0-9]\{5\} [A-Z]7/p`)
}

// A match in mid-line: the search tries many starts before it.
func BenchmarkSedRegexSubstMidLine(b *testing.B) {
	testutil.Bench(b, Main, records, "sed", "-E", `s/([0-9]+) ([A-Z])/\2\1/`)
}

func BenchmarkSedTwoCommands(b *testing.B) {
	testutil.Bench(b, Main, records, "sed", "-e", "s/a/b/", "-e", "s/K7/Q/")
}
