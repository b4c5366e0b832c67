package instrument

import (
	"os"
	"testing"
	"time"
)

func TestZZGoCPU(t *testing.T) {
	bin, _ := os.ReadFile("/tmp/gocpu/gocpu.wasm")
	inst := mustInstrument(t, bin, Options{Fuel: true})
	orig, meter := newCPURunner(t, bin), newCPURunner(t, inst)
	d0, d1 := time.Duration(1<<62), time.Duration(1<<62)
	var o0, o1 string
	for range 5 {
		d0 = min(d0, threadCPU(func() { o0 = orig.run(t, "1") }))
		d1 = min(d1, threadCPU(func() { o1 = meter.run(t, "1") }))
	}
	t.Logf("%q %q: %v %v ratio %.3f", o0, o1, d0, d1, float64(d1)/float64(d0))
}
