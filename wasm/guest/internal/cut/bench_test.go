package cut

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
)

// The benchmarks run over 200,000 records (5.5 MB) of testutil.Records.
var records = testutil.Records(200000)

func BenchmarkCutField(b *testing.B) { testutil.Bench(b, Main, records, "cut", "-d", " ", "-f2") }

func BenchmarkCutFields(b *testing.B) { testutil.Bench(b, Main, records, "cut", "-d", " ", "-f1,3") }

func BenchmarkCutBytes(b *testing.B) { testutil.Bench(b, Main, records, "cut", "-c1-7") }
