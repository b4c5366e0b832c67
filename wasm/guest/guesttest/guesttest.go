// Package guesttest gives tests a directory of built guest tool modules.
// The build runs once per test binary and is cached on disk under the
// user cache directory, keyed by a hash of the guest sources, so it is
// redone only when they change (guest.Cached; package platform/native
// uses the same directory).
package guesttest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest"
)

var (
	once   sync.Once
	dir    string
	dirErr error
)

// Dir returns a directory holding the built guest modules and their
// manifest.json, building them if the cache has none for the current
// sources. It fails tb if the build fails.
//
// If $WASMSAND_TOOLS_DIR is set, it is used as is: a way to test against
// tools built elsewhere (for example from a clean checkout while guest
// sources are being edited).
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("WASMSAND_TOOLS_DIR"); d != "" {
		return d
	}
	once.Do(func() { dir, dirErr = build() })
	if dirErr != nil {
		tb.Fatalf("guesttest: %v", dirErr)
	}
	return dir
}

func build() (string, error) {
	return guest.Cached(context.Background(), guest.CacheRoot(), nil)
}

// Records returns n lines of realistic tabular text, the data of the
// tools' benchmarks natively and in the sandbox, "date region amount
// code", as sort, uniq, cut and friends meet in logs and CSV exports:
//
//	2024-03-17 north 48213 K7Q2
//
// The same n gives the same bytes every time.
func Records(n int) []byte {
	regions := []string{"north", "south", "east", "west", "central", "xray", "island", "metro"}
	var b bytes.Buffer
	b.Grow(n * 30)
	x := uint32(2463534242)
	next := func() uint32 { // xorshift32
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		return x
	}
	for range n {
		r := next()
		fmt.Fprintf(&b, "2024-%02d-%02d %s %d %c%d%c%d\n",
			1+r%12, 1+(r>>4)%28, regions[(r>>9)%uint32(len(regions))], next()%100000,
			'A'+byte(r>>12)%26, (r>>17)%10, 'A'+byte(r>>21)%26, (r>>26)%10)
	}
	return b.Bytes()
}

// JSONRecords turns the first n lines of records (as Records makes them)
// into JSON objects, one a line, the data of jq's benchmark:
//
//	{"date":"2024-03-17","region":"north","amount":48213,"code":"K7Q2"}
func JSONRecords(records []byte, n int) []byte {
	var b bytes.Buffer
	for i, line := range bytes.Split(records, []byte("\n")) {
		f := bytes.Fields(line)
		if i == n || len(f) < 4 {
			break
		}
		fmt.Fprintf(&b, `{"date":%q,"region":%q,"amount":%s,"code":%q}`+"\n", f[0], f[1], f[2], f[3])
	}
	return b.Bytes()
}
