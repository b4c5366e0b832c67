package tr

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
)

// The benchmarks run over 200,000 records (5.5 MB) of testutil.Records.
var records = testutil.Records(200000)

func BenchmarkTrUpper(b *testing.B) { testutil.Bench(b, Main, records, "tr", "a-z", "A-Z") }

func BenchmarkTrDelete(b *testing.B) { testutil.Bench(b, Main, records, "tr", "-d", "0-9") }

func BenchmarkTrSqueeze(b *testing.B) { testutil.Bench(b, Main, records, "tr", "-s", " ") }
