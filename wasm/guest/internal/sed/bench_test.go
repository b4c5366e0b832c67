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
