package main

import (
	"github.com/wasmsand/wasmsand/wasm/guest/internal/difftest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// fixture is the tree every differential case starts from.
var fixture = map[string]string{
	"f3":            "a\nb\nc\n",
	"words":         "the quick brown fox\njumps over\n\nthe lazy dog\n",
	"dir/a.txt":     "alpha\nbeta\n",
	"dir/b.log":     "beta\ngamma\n",
	"dir/sub/c.txt": "gamma alpha\n",
	"utf8 name é":   "x\n",
	"empty":         "",
	"bin.dat":       "text\x00more\xff\xfe\n",
}

func setupFixture(t testing.TB, dir string) {
	t.Helper()
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	for name, data := range fixture {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Times last, so making children does not touch the directories'.
	filepath.Walk(dir, func(p string, _ os.FileInfo, _ error) error {
		return os.Chtimes(p, old, old)
	})
}

// Hostile archives, built by the GNU tools in the case itself: members
// named ../x, /abs/x and a/../../x must never land outside the target.
const evil = "mkdir -p ev/in && echo evil > ev/x && (cd ev/in && /usr/bin/tar -cf ../../evil.tar -P ../x /etc/hostname 2>/dev/null; true) && "

// diffCases are shell snippets run once with our archive tools first on
// PATH and once with the system's GNU tar, gzip and Info-ZIP zip/unzip;
// stdout and exit status must agree (and the first line of stderr where
// stderr is set). Compressed bytes differ between implementations, so
// cases compare listings and round trips, never raw archives.
var diffCases = []difftest.Case{
	// tar
	{Script: "tar -cf a.tar f3 dir && tar -tf a.tar | sort"},
	{Script: "tar cf a.tar f3 dir && tar tf a.tar | sort"},
	{Script: "tar -cvf a.tar f3 dir | sort"},
	{Script: "tar -cf a.tar dir && tar -tvf a.tar | sort -k6"},
	{Script: "tar -czf a.tgz dir f3 && tar -tzf a.tgz | sort"},
	{Script: "tar czf a.tgz dir && tar tf a.tgz | sort"},
	{Script: "tar -cf a.tar dir && mkdir o && tar -xf a.tar -C o && find o | sort && cat o/dir/a.txt"},
	{Script: "tar -czf a.tgz dir && mkdir o && tar -xzf a.tgz -C o && cat o/dir/sub/c.txt"},
	{Script: "tar -cf a.tar dir && mkdir o && tar -xvf a.tar -C o | sort"},
	{Script: "tar -cf a.tar dir && mkdir o && tar -xf a.tar -C o --strip-components=1 && find o | sort"},
	{Script: "tar -cf a.tar dir && mkdir o && tar -xf a.tar -C o --strip-components 2 && find o | sort"},
	{Script: "tar -cf a.tar dir && tar -xOf a.tar dir/a.txt"},
	{Script: "tar -cf a.tar dir f3 && tar -xOf a.tar f3 dir/b.log"},
	{Script: "tar -cf a.tar --exclude='*.log' dir && tar -tf a.tar | sort"},
	{Script: "tar -cf a.tar --exclude=sub dir && tar -tf a.tar | sort"},
	{Script: "tar -cf a.tar dir && tar -tf a.tar dir/sub | sort"},
	{Script: "tar -cPf a.tar ../$(basename $PWD)/f3 && tar -tf a.tar | sed 's,/.*/,/X/,'"},
	{Script: "tar -cf a.tar dir && tar -tf a.tar nope; echo $?"},
	{Script: "tar -cf a.tar -C dir . && tar -tf a.tar | sort"},
	{Script: "tar -cf a.tar -C dir sub && tar -tf a.tar"},
	{Script: "tar -cf - f3 | tar -tf -"},
	{Script: "tar -cf - dir | tar -xf - -C /tmp/../$PWD/.. 2>/dev/null; true; tar -cf - f3 | (mkdir o && cd o && tar -xf -) && cat o/f3"},
	{Script: "tar -cf a.tar 'utf8 name é' bin.dat && mkdir o && tar -xf a.tar -C o && cmp bin.dat o/bin.dat && ls o"},
	{Script: "tar -cf a.tar empty && tar -tvf a.tar | awk '{print $1, $3, $6}'"},
	{Script: "ln -s f3 link && tar -cf a.tar link && tar -tvf a.tar | awk '{print $1, $6, $7, $8}'"},
	{Script: "ln -s f3 link && tar -cf a.tar link && mkdir o && tar -xf a.tar -C o && readlink o/link"},
	{Script: "chmod 600 f3 && tar -cf a.tar f3 && mkdir o && tar -xf a.tar -C o && stat -c %a o/f3"},
	{Script: "tar -cf a.tar f3 && echo changed > f3 && tar -xf a.tar && cat f3"},
	{Script: "tar -cf a.tar f3 && tar -xkf a.tar; echo $?"},
	{Script: "tar -cf a.tar /dev/null 2>&1 | head -1; tar -tf a.tar"},
	{Script: "tar -cf a.tar $PWD/f3 2>/dev/null; tar -tf a.tar | sed 's,.*/,,'"},
	{Script: "tar -xf nope.tar; echo $?", Stderr: true},
	{Script: "tar -tf f3; echo $?"},
	{Script: "tar -cf a.tar; echo $?", Stderr: true},
	{Script: "tar -tf; echo $?"},
	// Members at block boundaries, past the writer's one-write size, and
	// names at and past the 100 bytes a header holds.
	{Script: "mkdir s && for n in 0 1 511 512 513 1024 65535 65536 65537 70000 200000; do head -c $n /dev/zero | tr '\\0' x > s/f$n; done && " +
		"n=$(printf 'n%.0s' $(seq 100)) && echo hundred > s/$n && echo long > s/${n}1 && mkdir s/${n}d && echo deep > s/${n}d/$n && " +
		"tar -czf a.tgz s && tar -tvzf a.tgz | awk '{print $1, $3, $6}' | sort && mkdir o && tar -xzf a.tgz -C o && diff -r s o/s && echo same"},
	{Script: "tar; echo $?", Stderr: true},
	{Script: "tar -cf a.tar nope; echo $?", Stderr: true},
	{Script: "tar -ctf a.tar f3; echo $?"},
	{Script: "tar -xf a.tar --strip-components=x; echo $?"},
	{Script: evil + "mkdir o && tar -xf evil.tar -C o 2>err; echo $?; find o | sort; head -1 err"},
	{Script: evil + "tar -tf evil.tar"},
	{Script: "mkdir -p p/q && echo in > p/q/f && tar -cf a.tar -P p/q/../q/f 2>/dev/null && mkdir o && tar -xf a.tar -C o; echo $?; find o | sort"},
	// gzip, gunzip, zcat
	{Script: "gzip f3 && ls && zcat f3.gz"},
	{Script: "gzip -k f3 && ls && gunzip -c f3.gz"},
	{Script: "gzip -c words > w.gz && ls && gunzip w.gz && cat w"},
	{Script: "gzip -9 -c words | gzip -d"},
	{Script: "gzip -1 -c words | zcat"},
	{Script: "cat words | gzip | gunzip"},
	{Script: "cat words | gzip -c | zcat -"},
	{Script: "gzip -c bin.dat | gunzip | cmp - bin.dat && echo same"},
	{Script: "gzip < empty | gunzip | wc -c"},
	{Script: "gzip -c f3 > a.gz && gzip -c words >> a.gz && zcat a.gz"},
	{Script: "gzip -r dir && find dir | sort && gunzip -r dir && find dir | sort"},
	{Script: "gzip f3 && gzip -d f3.gz && cat f3 && ls"},
	{Script: "gzip f3 && gzip -t f3.gz; echo $?"},
	{Script: "gzip -k f3 && gzip f3; echo $?", Stderr: true},
	{Script: "gzip -k f3 && gzip -f f3; echo $?; ls"},
	{Script: "gzip f3 && gzip f3.gz; echo $?", Stderr: true},
	{Script: "gunzip f3; echo $?", Stderr: true},
	{Script: "gzip nope; echo $?", Stderr: true},
	{Script: "zcat f3; echo $?", Stderr: true},
	{Script: "gzip dir; echo $?", Stderr: true},
	{Script: "gzip -c f3 | head -c 20 | gunzip > /dev/null; echo $?"},
	{Script: "(gzip -c f3; echo garbage) > g.gz; zcat g.gz; echo $?"},
	{Script: "gzip -k words && touch -d 2021-01-01 words.gz && gzip -l words.gz | awk '{print $2, $4}'"},
	{Script: "gzip -cn f3 | gunzip -c"},
	{Script: "gzip -c words > words.gz && gunzip -c words.gz | wc -l"},
	{Script: "cp f3 x.tgz; gzip -c f3 > x.tgz && gunzip x.tgz && ls x.*"},
	{Script: "gzip -S .z f3 && ls && gunzip -S .z f3.z && ls"},
	{Script: "gzip -k f3 && gzip -dk f3.gz 2>/dev/null; echo $?"},
	{Script: "gzip -c f3 > f3.gz && gunzip -f f3.gz && cat f3"},
	{Script: "gzip --nope; echo $?"},
	// zip, unzip
	{Script: "zip -q a.zip f3 words && unzip -l a.zip | awk '{print $1, $4}'"},
	{Script: "zip -qr a.zip dir && unzip -l a.zip | awk '{print $1, $4}' | sort"},
	{Script: "zip -q a.zip dir && unzip -l a.zip | awk '{print $1, $4}'"},
	{Script: "zip -qr a.zip dir f3 && mkdir o && unzip -q a.zip -d o && find o | sort && cat o/dir/sub/c.txt"},
	{Script: "zip -qr a.zip dir && unzip -qo a.zip -d o && unzip -qo a.zip -d o && cat o/dir/a.txt"},
	{Script: "zip -qr a.zip dir && mkdir o && cd o && unzip -q ../a.zip && find . | sort"},
	{Script: "zip -qr a.zip dir && unzip -p a.zip dir/a.txt"},
	{Script: "zip -qr a.zip dir && unzip -p a.zip 'dir/*.txt' | sort"},
	{Script: "zip -qr a.zip dir && unzip -qd o a.zip dir/b.log && find o | sort"},
	{Script: "zip -qr a.zip dir && unzip -q a.zip -x 'dir/sub/*' -d o && find o | sort"},
	{Script: "zip -qj a.zip dir/a.txt dir/sub/c.txt && unzip -l a.zip | awk '{print $4}'"},
	{Script: "zip -q a.zip bin.dat 'utf8 name é' && mkdir o && unzip -q a.zip -d o && cmp bin.dat o/bin.dat && ls o"},
	{Script: "zip -q a.zip f3 && unzip -tq a.zip"},
	{Script: "zip -q a.zip f3 && zip -q a.zip words && unzip -l a.zip | awk '{print $4}'"},
	{Script: "zip -q a.zip f3 words && zip -qd a.zip words && unzip -l a.zip | awk '{print $4}'"},
	{Script: "zip -q a.zip f3 && echo new > f3 && unzip -qn a.zip && cat f3"},
	{Script: "zip -q a.zip f3 && echo new > f3 && unzip -q a.zip < /dev/null; cat f3"},
	{Script: "zip -q a.zip f3 && echo new > f3 && echo y | unzip -q a.zip > /dev/null; cat f3"},
	{Script: "zip -q a.zip f3 && unzip -q a.zip nope; echo $?"},
	{Script: "unzip -q nope.zip; echo $?"},
	{Script: "unzip -q f3; echo $?"},
	{Script: "zip -q a.zip nope; echo $?"},
	{Script: "zip -q b f3 && ls b.zip"},
	{Script: "zip -qm a.zip f3 && ls && unzip -l a.zip | tail -1"},
	{Script: "chmod 755 f3 && zip -q a.zip f3 && mkdir o && unzip -q a.zip -d o && stat -c %a o/f3"},
	{Script: "zip -q a.zip empty && unzip -l a.zip | awk 'NR==4{print $1, $4}'"},
	{Script: evil + "cd ev/in && /usr/bin/zip -q ../../evil.zip ../x && cd ../.. && mkdir o && unzip -o -q evil.zip -d o; find o | sort"},
	{Script: "zip -qr a.zip dir && unzip -l a.zip dir/a.txt | awk '{print $1, $4}'"},
	{Script: "zip -q a.zip f3 && unzip -Z1 a.zip 2>/dev/null || unzip -l a.zip | awk 'NR==4{print $4}'"},
}

func TestDifferentialGNU(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs GNU tar, gzip and Info-ZIP")
	}
	for _, tool := range []string{"bash", "tar", "gzip", "zip", "unzip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (apt-get install tar gzip zip unzip)", tool)
		}
	}
	h := &difftest.Harness{
		Module:            "archive",
		Commands:          Names(),
		Reference:         "GNU",
		Setup:             setupFixture,
		Locale:            "C.UTF-8",
		FirstLineOfStderr: true,
	}
	h.Run(t, diffCases)
}
