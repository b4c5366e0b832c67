package tail

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
)

// The benchmarks run over 200,000 records (5.5 MB) of testutil.Records.
var records = testutil.Records(200000)

func BenchmarkTailLast(b *testing.B) { testutil.Bench(b, Main, records, "tail", "-1") }

func BenchmarkTailFrom(b *testing.B) { testutil.Bench(b, Main, records, "tail", "-n", "+100000") }
