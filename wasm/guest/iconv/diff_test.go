package main

import (
	"os/exec"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/difftest"
)

// fixture is the tree every differential case starts from.
var fixture = map[string]string{
	"f3":      "a\nb\nc\n",
	"words":   "the quick brown fox\njumps over\n\nthe lazy dog\n",
	"utf8":    "h\u00e9llo w\u00f6rld\n\u65e5\u672c\u8a9e\u30c6\u30ad\u30b9\u30c8\n",
	"bin.dat": "text\x00more\x01\x02\xff\xfe data here\nalpha\x00\x00\x00longer string\n",
}

// diffCases compare iconv with glibc's.
var diffCases = []difftest.Case{
	{Script: `iconv -f utf-8 -t latin1 utf8 | od -An -tx1`, Stderr: true},
	{Script: `printf 'a\351\n' | iconv -f latin1 -t utf-8 | od -c | head -1`},
	{Script: `printf 'a\303\251\n' | iconv -f utf-8 -t ascii; echo $?`, Stderr: true},
	{Script: `printf 'a\351\n' | iconv -f utf-8 -t latin1; echo $?`, Stderr: true},
	{Script: `printf 'a\303\251b\n' | iconv -c -f utf-8 -t ascii; echo $?`},
	{Script: `printf 'a\303\251b\n' | iconv -f utf-8 -t ascii//IGNORE; echo " $?"`, Stderr: true},
	{Script: `printf 'hi' | iconv -t utf-16 | od -An -tx1`},
	{Script: `printf 'hi' | iconv -t utf-16be | od -An -tx1`},
	{Script: `printf 'hi' | iconv -t utf-32 | od -An -tx1`},
	{Script: `printf 'hi' | iconv -t UTF-32BE | od -An -tx1`},
	{Script: `printf '\377\376h\000i\000' | iconv -f utf-16 -t utf-8`},
	{Script: `printf '\376\377\000h\000i' | iconv -f utf-16 -t utf-8`},
	{Script: `printf 'h\000\000\330' | iconv -f utf-16le -t utf-8; echo " $?"`, Stderr: true},
	{Script: `printf 'a\303' | iconv -f utf-8 -t utf-16le | od -c; echo $?`, Stderr: true},
	{Script: `printf 'hi' | iconv -f utf-8 -t foo; echo $?`, Stderr: true},
	{Script: `printf 'hi' | iconv -f bar -t utf-8; echo $?`, Stderr: true},
	{Script: `iconv -f utf-8 -t ascii nope; echo $?`, Stderr: true},
	{Script: `printf 'x\342\202\254' | iconv -f utf-8 -t cp1252 | od -An -tx1`},
	{Script: `printf 'x\342\202\254' | iconv -f utf-8 -t WINDOWS-1252 | od -An -tx1`},
	{Script: `printf '\342\202\254' | iconv -f utf-8 -t iso-8859-15 | od -An -tx1`},
	{Script: `printf '\342\202\254' | iconv -t latin1//TRANSLIT; echo $?`, Stderr: true},
	{Script: `printf 'caf\303\251 \342\202\254' | LC_ALL=C.UTF-8 iconv -t ascii//TRANSLIT`},
	{Script: `printf '\320\237\321\200\320\270' | iconv -f utf-8 -t koi8-r | od -An -tx1`},
	{Script: `printf '\360\237\230\200' | iconv -f utf-8 -t utf-16le | od -An -tx1`},
	{Script: `printf '\346\227\245\346\234\254' | iconv -f utf-8 -t shift_jis | od -An -tx1`},
	{Script: `printf '\223\372\226\173' | iconv -f sjis -t utf-8 | od -An -tx1`},
	{Script: `printf 'abc' | iconv -f ascii -t utf-8`},
	{Script: `printf 'a\200' | iconv -f ascii -t utf-8; echo " $?"`, Stderr: true},
	{Script: `iconv -f latin1 -t utf-8 bin.dat | od -c | head -2`},
	{Script: `iconv -f utf-8 -t utf-16 -o out utf8 && od -An -tx1 out | head -1`},
	{Script: `iconv -f UTF8 -t ISO_8859-1 utf8 | od -An -tx1 | head -1`},
	{Script: `iconv -f utf-8 -t utf-8 words f3`},
	{Script: `iconv -t utf-16 f3 f3 | od -An -tx1`},
	{Script: `printf 'caf\303\251' | iconv -f utf-8 -t cp850 | od -An -tx1`},
	{Script: `iconv -x; echo $?`, StderrLines: 1, Stderr: true},
}

func TestDifferentialGlibc(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs glibc's iconv")
	}
	if _, err := exec.LookPath("iconv"); err != nil {
		t.Skip("iconv not installed")
	}
	h := &difftest.Harness{
		Module: "iconv",
		// The binary is named iconv already: no further links.
		Reference: "glibc",
		Setup: func(t testing.TB, dir string) {
			difftest.WriteFiles(t, dir, fixture)
		},
	}
	h.Run(t, diffCases)
}
