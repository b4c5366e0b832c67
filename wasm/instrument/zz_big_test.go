package instrument

import (
	"os"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/wasm/binary"
)

func TestZZBig(t *testing.T) {
	bin, _ := os.ReadFile("/tmp/big/big.wasm")
	best, besti := time.Duration(1<<62), time.Duration(1<<62)
	var out []byte
	for range 5 {
		d := threadCPU(func() { m, _ := binary.Decode(bin); m.Encode() })
		best = min(best, d)
		di := threadCPU(func() { out, _ = Instrument(bin, Options{Fuel: true}) })
		besti = min(besti, di)
	}
	t.Logf("%d bytes: decode+encode %v, instrument %v -> %d bytes", len(bin), best, besti, len(out))
	want, _ := runWASI(t, bin)
	got, used := runWASI(t, out)
	if got != want {
		t.Errorf("got %q want %q", got, want)
	}
	t.Logf("output %q fuel %d", got, used)
}
