package awk

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
)

// The benchmarks run over 200,000 records (5.5 MB) of testutil.Records.
var records = testutil.Records(200000)

func BenchmarkAwkSum(b *testing.B) {
	testutil.Bench(b, Main, records, "awk", "{s+=$3} END{print s}")
}

func BenchmarkAwkGroup(b *testing.B) {
	testutil.Bench(b, Main, records, "awk", "{n[$2]+=$3} END{for(k in n) print k, n[k]}")
}

func BenchmarkAwkPrint(b *testing.B) {
	testutil.Bench(b, Main, records, "awk", "{print $2, $3}")
}
