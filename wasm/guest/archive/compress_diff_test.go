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
