package yes

import (
	"strings"
	"syscall"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// limitWriter accepts limit bytes, then fails as a closed pipe does.
type limitWriter struct {
	strings.Builder
	limit int
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if w.Len() >= w.limit {
		return 0, syscall.EPIPE
	}
	return w.Builder.Write(p)
}

func TestYes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		line string
	}{
		{[]string{"yes"}, "y\n"},
		{[]string{"yes", "a", "b"}, "a b\n"},
		{[]string{"yes", "--", "-x"}, "-x\n"},
	} {
		w := &limitWriter{limit: 100000}
		var errOut strings.Builder
		code := tool.Run(Main, &tool.Env{Args: tc.args, Stdout: w, Stderr: &errOut})
		if code != tool.ExitPipe || errOut.Len() != 0 {
			t.Errorf("%q: code %d, stderr %q", tc.args, code, errOut.String())
		}
		out := w.String()
		if len(out) < 100000 || !strings.HasPrefix(strings.Repeat(tc.line, len(out)/len(tc.line)+1), out) {
			t.Errorf("%q: output is not whole %q lines (%d bytes)", tc.args, tc.line, len(out))
		}
	}
}
