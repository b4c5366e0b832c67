package head

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
)

// The benchmarks run over 200,000 records (5.5 MB) of testutil.Records.
var records = testutil.Records(200000)

func BenchmarkHeadLines(b *testing.B) { testutil.Bench(b, Main, records, "head", "-n", "100000") }
