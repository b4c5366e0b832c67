package sandbox

import (
	"errors"
	"io"
	"testing"
)

// TestOutputLimitError checks that a full capture reads as a closed pipe,
// which the WASI host turns into EPIPE, and words itself as before.
func TestOutputLimitError(t *testing.T) {
	c := &capture{limit: 3}
	n, err := c.Write([]byte("abcdef"))
	if n != 3 || !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("Write = %d, %v; want 3 and a closed pipe", n, err)
	}
	if want := "output limit reached: io: read/write on closed pipe"; err.Error() != want {
		t.Fatalf("err = %q, want %q", err, want)
	}
}
