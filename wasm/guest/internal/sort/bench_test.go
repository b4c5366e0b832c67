package sort

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
)

// The benchmarks run over 200,000 records (5.5 MB) of testutil.Records.
var records = testutil.Records(200000)

func BenchmarkSort(b *testing.B) { testutil.Bench(b, Main, records, "sort") }

func BenchmarkSortNumericKey(b *testing.B) { testutil.Bench(b, Main, records, "sort", "-n", "-k3") }

func BenchmarkSortKey(b *testing.B) { testutil.Bench(b, Main, records, "sort", "-k2,2") }

func BenchmarkSortUnique(b *testing.B) { testutil.Bench(b, Main, records, "sort", "-u") }

func BenchmarkSortReverseNumeric(b *testing.B) { testutil.Bench(b, Main, records, "sort", "-rn") }
