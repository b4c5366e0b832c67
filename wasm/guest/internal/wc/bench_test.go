package wc

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
)

// The benchmarks run over 200,000 records (5.5 MB) of testutil.Records.
var records = testutil.Records(200000)

func BenchmarkWcLines(b *testing.B) { testutil.Bench(b, Main, records, "wc", "-l") }

func BenchmarkWcWords(b *testing.B) { testutil.Bench(b, Main, records, "wc", "-w") }

func BenchmarkWcAll(b *testing.B) { testutil.Bench(b, Main, records, "wc") }
