package main

import (
	"os/exec"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/difftest"
)

// prSetup makes the inputs of the pr cases: n (1..100), s (1..20), t (a
// line with tabs), ff (form feeds) and w (a long line), all touched to one
// fixed time so the headers' dates agree.
const prSetup = `seq 100 > n; seq 20 > s; printf 'alpha\tbeta\tgamma\nx\ty\n' > t; printf 'one\ftwo\nthree\n\ffour\n' > ff; ` +
	`printf '%s\n' 'a long line that goes well past the width of a narrow column of text' short > w; ` +
	`touch -d '2020-01-02 03:04:05' n s t ff w; `

// prCases compare pr with GNU coreutils' pr.
var prCases = []difftest.Case{
	{Script: prSetup + `pr n`},
	{Script: prSetup + `pr s t`},
	{Script: prSetup + `pr -l 20 n`},
	{Script: prSetup + `pr -l 10 s`},
	{Script: prSetup + `pr -t n | head -5`},
	{Script: prSetup + `pr -T -l 15 n | wc -l`},
	{Script: prSetup + `pr -h TITLE -l 15 s`},
	{Script: prSetup + `pr -D '%d/%m/%Y' -l 14 s`},
	{Script: prSetup + `pr --date-format='[%F %T]' -l 14 -h 'a header' s`},
	{Script: prSetup + `pr -d -l 20 s`},
	{Script: prSetup + `pr -t -d t`},
	{Script: prSetup + `pr -n -l 15 s`},
	{Script: prSetup + `pr -t -n: s | head -12`},
	{Script: prSetup + `pr -t -n.3 n | tail -3`},
	{Script: prSetup + `pr -t -n -N 98 s | tail -4`},
	{Script: prSetup + `pr -t -o 4 s | head -3`},
	{Script: prSetup + `pr -o 3 -l 13 s | head -8`},
	{Script: prSetup + `pr -3 -l 20 n`},
	{Script: prSetup + `pr -t -3 s`},
	{Script: prSetup + `pr -t -4 n`},
	{Script: prSetup + `pr -t -3 -s s`},
	{Script: prSetup + `pr -t -3 -s, s`},
	{Script: prSetup + `pr -t -2 -S' | ' s`},
	{Script: prSetup + `pr -t -2 -w 30 w s`},
	{Script: prSetup + `pr -t -2 -J w`},
	{Script: prSetup + `pr -t -n -2 s`},
	{Script: prSetup + `pr -t -a -3 s`},
	{Script: prSetup + `pr -a -4 -l 14 n | head -20`},
	{Script: prSetup + `pr -m -l 15 s t`},
	{Script: prSetup + `pr -t -m s t w`},
	{Script: prSetup + `pr -t -n -m s t`},
	{Script: prSetup + `pr -t -m -s s t`},
	{Script: prSetup + `pr -t -e t`},
	{Script: prSetup + `pr -t -e4 t`},
	{Script: prSetup + `pr -t -2 t s`},
	{Script: prSetup + `pr +2 -l 20 n | head -8`},
	{Script: prSetup + `pr +3:4 -l 15 n`},
	{Script: prSetup + `pr --pages=2:3 -t -l 5 s`},
	{Script: prSetup + `pr -f -l 14 s`},
	{Script: prSetup + `pr -F -l 16 s | od -c | tail -3`},
	{Script: prSetup + `pr -l 14 ff`},
	{Script: prSetup + `pr -t ff | od -c`},
	{Script: prSetup + `seq 3 | pr -t -`},
	{Script: prSetup + `seq 3 | pr -t -h X - s | head -5`},
	{Script: prSetup + `seq 3 | pr -l 12 | sed 1,2d | cut -c17-`},
	{Script: prSetup + `pr -t nope s; echo $?`, Stderr: true},
	{Script: prSetup + `pr nope; echo $?`, Stderr: true},
	{Script: prSetup + `pr -Q s; echo $?`, Stderr: true},
	{Script: prSetup + `pr -W 10 -t w`},
	{Script: prSetup + `pr -w 40 -l 12 s`},
	{Script: prSetup + `pr -t -l 3 -3 s`},
	{Script: prSetup + `pr --columns=2 --across --omit-header s`},
	{Script: prSetup + `pr --version | head -1`},
	{Script: prSetup + `pr --help`},
	{Script: prSetup + `pr -l 12 /dev/null | wc -c`},
	{Script: prSetup + `pr -t -d -2 s`},
	{Script: prSetup + `pr -t -n -a -2 s`},
	{Script: prSetup + `pr -t -m -w 30 w t`},
	{Script: prSetup + `pr -T ff | od -c`},
	{Script: prSetup + `pr -h 'a very long header that is wider than the whole page of seventy two columns' -l 12 s | head -4`},
	{Script: prSetup + `pr -t -n -N 5 -m s t | head -3`},
	{Script: prSetup + `pr -t -o 2 -3 s`},
	{Script: prSetup + `pr -t -4 -l 3 n | head -4`},
	{Script: prSetup + `pr -l 0 s; echo $?`, Stderr: true},
	{Script: prSetup + `pr -t -n5 s | head -2`},
	{Script: prSetup + `pr -m -t nope s; echo $?`, Stderr: true},
	{Script: prSetup + `pr -3 -m s t; echo $?`, Stderr: true},
	{Script: prSetup + `pr -t -2 ff`},
	{Script: prSetup + `pr -l 14 -2 ff`},
	{Script: prSetup + `pr -t -e -2 t`},
	{Script: prSetup + `pr -t -i t`},
	{Script: prSetup + `pr +2 -l 15 s t`},
	{Script: prSetup + `pr -t -J -3 s | head -3`},
	{Script: prSetup + `pr -t -a -2 -s: s | head -3`},
	{Script: prSetup + `pr -m -t s s s s | head -2`},
	{Script: prSetup + `pr --length=12 --header=H --indent=2 s | head -4`},
	{Script: prSetup + `pr -t --number-lines=:2 --first-line-number=99 s | head -3`},
	{Script: prSetup + `pr -t -x s; echo $?`, Stderr: true},
	{Script: prSetup + `pr --bogus s; echo $?`, Stderr: true},
	{Script: prSetup + `pr -t -w abc s; echo $?`, Stderr: true},
	{Script: prSetup + `printf 'a\001b\033c\177d\tz\200e\n' > cc; pr -t -c cc; pr -t -v cc; pr -t -2 -c cc; pr -t --show-nonprinting -2 cc`},
}

func TestDifferentialPr(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs the system's GNU pr")
	}
	if _, err := exec.LookPath("pr"); err != nil {
		t.Skip("pr not installed")
	}
	h := &difftest.Harness{
		Module:    "sysutils",
		Commands:  Names(),
		Reference: "GNU",
		Setup:     setupFixture,
	}
	h.Run(t, prCases)
}
