package shell

import (
	"errors"
	"io"
	"testing"
)

func TestOutputFullError(t *testing.T) {
	if !errors.Is(errOutputFull, io.ErrClosedPipe) {
		t.Fatal("errOutputFull is not a closed pipe")
	}
	if want := "command substitution: output limit reached: io: read/write on closed pipe"; errOutputFull.Error() != want {
		t.Fatalf("errOutputFull = %q, want %q", errOutputFull, want)
	}
}
