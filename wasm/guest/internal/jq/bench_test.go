package jq

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/testutil"
)

// BenchmarkSelect filters 20,000 JSON objects, the bench table's jq case.
func BenchmarkSelect(b *testing.B) {
	var in bytes.Buffer
	for i, line := range bytes.Split(testutil.Records(20000), []byte("\n")) {
		f := bytes.Fields(line)
		if len(f) < 4 {
			break
		}
		fmt.Fprintf(&in, `{"date":%q,"region":%q,"amount":%s,"code":%q,"n":%d}`+"\n", f[0], f[1], f[2], f[3], i)
	}
	testutil.Bench(b, Main, in.Bytes(), "jq", "-c", "select(.amount > 50000) | .region")
}
