package main

import "testing"

// TestState keeps one sandbox across CLI calls with --state.
func TestState(t *testing.T) {
	dir := t.TempDir()
	wasmsand(t, "", "--state", dir, "-c", `echo hi > f; x=42; f() { echo "f $x"; }; cd /tmp; exit 3`).check(t, "first call", "", 3)
	wasmsand(t, "", "--state", dir, "-c", `pwd; cat ~/f; f`).check(t, "second call", "/tmp\nhi\nf 42\n", 0)
	wasmsand(t, "", "--state", dir, "--state-name", "other", "-c", `pwd; type -t f || echo none`).check(t, "another name", "/home/user\nnone\n", 0)
	wasmsand(t, "", "--state", dir, "--state-name", "../x", "-c", `:`).check(t, "a bad name", "", 2)
}
