package main

import (
	"os/exec"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/difftest"
)

// xzCases compare xz, unxz, xzcat, lzma, unlzma and lzcat with XZ Utils.
// Compressed bytes differ between encoders, so compressed output is only
// ever compared after decompression, and round trips cross between ours
// and the host's (/usr/bin/xz is always XZ Utils).
var xzCases = []difftest.Case{
	{Script: "xz f3 && ls && /usr/bin/xz -dc f3.xz"},
	{Script: "xz -k f3 && ls f3 f3.xz && /usr/bin/xz -t f3.xz && echo ok"},
	{Script: "xz -c words | /usr/bin/xz -d"},
	{Script: "/usr/bin/xz -c words | xz -d"},
	{Script: "/usr/bin/xz -c words > w.xz && unxz w.xz && cat w && ls w.xz", Stderr: true},
	{Script: "/usr/bin/xz -c bin.dat | xzcat | od -c"},
	{Script: "xz -c empty | /usr/bin/xz -dc | wc -c"},
	{Script: "xz -9 -c words | /usr/bin/xz -dc"},
	{Script: "xz -0 -C crc32 -c words | /usr/bin/xz -dc"},
	{Script: "xz -C sha256 -c words | /usr/bin/xz -t && echo ok"},
	{Script: "xz -C none -c words | /usr/bin/xz -dc"},
	{Script: "seq 100000 | xz -c | /usr/bin/xz -dc | md5sum"},
	{Script: "seq 100000 | /usr/bin/xz -c | xz -dc | md5sum"},
	{Script: "(/usr/bin/xz -c f3; /usr/bin/xz -c words) | xz -dc"},
	{Script: "(/usr/bin/xz -c f3; printf '\\0\\0\\0\\0'; /usr/bin/xz -c words) | xzcat"},
	{Script: "(/usr/bin/xz -c f3; /usr/bin/xz -c words) | xz -dc --single-stream"},
	{Script: "xz nope; echo $?", Stderr: true},
	{Script: "xz dir; echo $?", Stderr: true},
	{Script: "xz -q dir; echo $?", Stderr: true},
	{Script: "xz -Q dir; echo $?", Stderr: true},
	{Script: "xz -k f3 && xz -k f3; echo $?", Stderr: true},
	{Script: "xz -k f3 && xz -kf f3; echo $?; /usr/bin/xz -dc f3.xz"},
	{Script: "xz f3 && xz f3.xz; echo $?", Stderr: true},
	{Script: "cp f3 x.txz && xz x.txz; echo $?", Stderr: true},
	{Script: "xz -d f3; echo $?", Stderr: true},
	{Script: "/usr/bin/xz -c f3 > nosuf && xz -d nosuf; echo $?", Stderr: true},
	{Script: "/usr/bin/xz -c f3 > a.txz && unxz a.txz && ls a.tar && cat a.tar"},
	{Script: "echo hello | xz -d; echo $?", Stderr: true},
	{Script: "xz -dc < empty; echo $?", Stderr: true},
	{Script: "/usr/bin/xz -c words | head -c 30 | xz -dc >/dev/null; echo $?", Stderr: true},
	{Script: "(/usr/bin/xz -c f3; echo junk) | xz -dc; echo $?", Stderr: true},
	{Script: "/usr/bin/xz -c words > w.xz && printf '\\377' | dd of=w.xz bs=1 seek=30 conv=notrunc 2>/dev/null && xz -dc w.xz >/dev/null; echo $?", Stderr: true},
	{Script: "xz -t f3; echo $?", Stderr: true},
	{Script: "/usr/bin/xz -k f3 && xz -t f3.xz; echo $?; ls"},
	{Script: "xzcat -f f3; echo $?"},
	{Script: "xz -dcf words"},
	{Script: "xz -S .foo -k f3 && ls f3.foo && xz -dS .foo -c f3.foo"},
	{Script: "xz -z -d f3; echo $?", Stderr: true},
	{Script: "chmod 600 f3 && xz f3 && stat -c %a f3.xz && unxz f3.xz && stat -c '%a %Y' f3"},
	{Script: "ln -s f3 l && xz l; echo $?", Stderr: true},
	{Script: "xz -F nope f3; echo $?", Stderr: true},
	{Script: "xz -C md5 f3; echo $?", Stderr: true},
	{Script: "xz --bogus; echo $?"},
	{Script: "xz -T2 -c f3 | /usr/bin/xz -dc"},
	{Script: "cat f3 | xz | /usr/bin/xz -d"},
	{Script: "xz -c - < words | /usr/bin/unxz"},
	{Script: "xz --help | head -2"},
	// lzma, unlzma, lzcat
	{Script: "lzma f3 && ls && /usr/bin/lzma -dc f3.lzma"},
	{Script: "/usr/bin/lzma -c words | lzcat"},
	{Script: "/usr/bin/lzma -c words | xz -dc"},
	{Script: "lzma -c words | /usr/bin/xz -dc"},
	{Script: "xz -F lzma -c words | /usr/bin/unlzma"},
	{Script: "seq 50000 | lzma -9 | /usr/bin/lzcat | tail -1"},
	{Script: "/usr/bin/lzma -k f3 && unlzma f3.lzma; echo $?", Stderr: true},
	{Script: "/usr/bin/lzma -k f3 && unlzma -f f3.lzma; echo $?; cat f3"},
	{Script: "/usr/bin/xz -c f3 | unlzma; echo $?", Stderr: true},
	{Script: "/usr/bin/lzma -c f3 | xz -F xz -dc; echo $?", Stderr: true},
	{Script: "/usr/bin/lzma -c f3 > t.tlz && unlzma t.tlz && cat t.tar"},
	{Script: "lzma f3 && lzma f3.lzma; echo $?", Stderr: true},
	{Script: "echo hello | lzcat; echo $?", Stderr: true},
	{Script: "lzma -c empty | /usr/bin/lzcat | wc -c"},
}

func TestDifferentialXz(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs XZ Utils")
	}
	for _, p := range []string{"/usr/bin/xz", "/usr/bin/lzma", "/usr/bin/unlzma", "/usr/bin/lzcat", "/usr/bin/unxz"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not installed (Debian package xz-utils)", p)
		}
	}
	h := &difftest.Harness{
		Module:    "archive",
		Commands:  Names(),
		Reference: "XZ Utils",
		Setup:     setupFixture,
	}
	h.Run(t, xzCases)
}

// bzip2Cases compare bzip2, bunzip2 and bzcat with bzip2 1.0.8; as with
// xz, compressed bytes are compared only after decompression
// (/usr/bin/bzip2 is always the reference's).
var bzip2Cases = []difftest.Case{
	{Script: "bzip2 f3 && ls && /usr/bin/bzip2 -dc f3.bz2"},
	{Script: "bzip2 -k f3 && ls f3 f3.bz2 && /usr/bin/bzip2 -t f3.bz2 && echo ok"},
	{Script: "bzip2 -c words | /usr/bin/bzip2 -d"},
	{Script: "/usr/bin/bzip2 -c words | bzip2 -d"},
	{Script: "/usr/bin/bzip2 -c words > w.bz2 && bunzip2 w.bz2 && cat w && ls", Stderr: true},
	{Script: "/usr/bin/bzip2 -c bin.dat | bzcat | od -c"},
	{Script: "bzip2 < empty | /usr/bin/bzip2 -dc | wc -c"},
	{Script: "/usr/bin/bzip2 < empty | bzip2 -dc | wc -c"},
	{Script: "seq 200000 | bzip2 -1 | /usr/bin/bzcat | md5sum"},
	{Script: "seq 200000 | /usr/bin/bzip2 | bzcat | md5sum"},
	{Script: "head -c 300000 /dev/zero | bzip2 | /usr/bin/bzcat | wc -c"},
	{Script: "(/usr/bin/bzip2 -c f3; /usr/bin/bzip2 -c words) | bzip2 -dc"},
	{Script: "(bzip2 -c f3; bzip2 -c words) | /usr/bin/bzip2 -dc"},
	{Script: "bzip2 nope; echo $?", Stderr: true},
	{Script: "bzip2 dir; echo $?", Stderr: true},
	{Script: "bzip2 -q dir; echo $?", Stderr: true},
	{Script: "bzip2 -k f3 && bzip2 -k f3; echo $?", Stderr: true},
	{Script: "bzip2 -k f3 && bzip2 -kf f3; echo $?; /usr/bin/bzcat f3.bz2"},
	{Script: "bzip2 f3 && bzip2 f3.bz2; echo $?", Stderr: true},
	{Script: "cp f3 x.tbz && bzip2 x.tbz; echo $?", Stderr: true},
	{Script: "bunzip2 f3; echo $?; ls", Stderr: true},
	{Script: "/usr/bin/bzip2 -c f3 > x && bunzip2 x; echo $?; cat x.out", Stderr: true},
	{Script: "/usr/bin/bzip2 -c f3 > a.tbz2 && bunzip2 a.tbz2 && cat a.tar"},
	{Script: "echo hello | bzip2 -d; echo $?", Stderr: true},
	{Script: "bzip2 -dc < empty; echo $?", Stderr: true, StderrLines: 3},
	{Script: "/usr/bin/bzip2 -c words | head -c 30 > t.bz2; bunzip2 t.bz2; echo $?; ls t*", Stderr: true, StderrLines: 3},
	{Script: "(/usr/bin/bzip2 -c f3; echo junk) > j.bz2; bzip2 -t j.bz2; echo $?; bzip2 -tv j.bz2; bunzip2 j.bz2; echo $?; cat j", Stderr: true},
	{Script: "bzip2 -t nope; echo $?", Stderr: true},
	{Script: "/usr/bin/bzip2 -c words | head -c 30 | bzip2 -dc >/dev/null; echo $?", Stderr: true, StderrLines: 3},
	{Script: "(/usr/bin/bzip2 -c f3; echo junk) | bzip2 -dc; echo $?", Stderr: true},
	{Script: "seq 1000 | /usr/bin/bzip2 > w.bz2 && printf '\\377\\377' | dd of=w.bz2 bs=1 seek=60 conv=notrunc 2>/dev/null && bzip2 -dc w.bz2 >/dev/null; echo $?", Stderr: true, StderrLines: 3},
	{Script: "seq 1000 | /usr/bin/bzip2 > w.bz2 && printf '\\377\\377' | dd of=w.bz2 bs=1 seek=60 conv=notrunc 2>/dev/null && bzip2 -t w.bz2; echo $?", Stderr: true},
	{Script: "bzip2 -t f3; echo $?", Stderr: true},
	{Script: "/usr/bin/bzip2 -k f3 && bzip2 -t f3.bz2; echo $?; ls"},
	{Script: "/usr/bin/bzip2 -k f3 words && bzip2 -tv f3.bz2 words.bz2"},
	{Script: "bzip2 -v f3 words empty 2>&1 | sed -E 's/-?[0-9]+(\\.[0-9]+)?/N/g'"},
	{Script: "/usr/bin/bzip2 -k f3 && bunzip2 -v f3.bz2", Stderr: true},
	{Script: "bzip2 -dc nope f3; echo $?", Stderr: true},
	{Script: "bzip2 -z -d f3; echo $?", Stderr: true},
	{Script: "chmod 600 f3 && bzip2 f3 && stat -c %a f3.bz2 && bunzip2 f3.bz2 && stat -c '%a %Y' f3"},
	{Script: "ln -s f3 l && bzip2 l; echo $?", Stderr: true},
	{Script: "bzip2 -x f3; echo $?", Stderr: true},
	{Script: "bzip2 --bogus f3; echo $?", Stderr: true},
	{Script: "bzip2 --help; echo $?", Stderr: true},
	{Script: "cat f3 | bzip2 -9 | /usr/bin/bunzip2"},
	{Script: "bzip2 -c -- -f3 2>&1; echo $?"},
	{Script: "BZIP2=-k bzip2 f3 && ls f3 f3.bz2"},
}

func TestDifferentialBzip2(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs bzip2")
	}
	for _, p := range []string{"/usr/bin/bzip2", "/usr/bin/bunzip2", "/usr/bin/bzcat"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not installed (Debian package bzip2)", p)
		}
	}
	h := &difftest.Harness{
		Module:    "archive",
		Commands:  Names(),
		Reference: "bzip2",
		Setup:     setupFixture,
	}
	h.Run(t, bzip2Cases)
}
