package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// sandboxCases run inside a sandbox.Sandbox; each starts from the same
// files and must print exactly want and exit with code.
var sandboxCases = []struct {
	cmd, want string
	code      int
}{
	{"basename /a/b.txt .txt; dirname /a/b.txt", "b\n/a\n", 0},
	{"mkdir -p d/e && rmdir -v d/e d", "rmdir: removing directory, 'd/e'\nrmdir: removing directory, 'd'\n", 0},
	{"ln -s f l && readlink l && cat l", "f\nhello\n", 0},
	{"ln f h && stat -c '%h %s %n' f h", "2 6 f\n2 6 h\n", 0},
	{"realpath f; realpath -m x/../y", "/home/user/f\n/home/user/y\n", 0},
	{"chmod 751 f && stat -c '%a %A' f", "751 -rwxr-x--x\n", 0},
	{"chmod u-w,o+w f && stat -c %A f", "-r--r--rw-\n", 0},
	{"chmod -v 600 f", "mode of 'f' changed from 0644 (rw-r--r--) to 0600 (rw-------)\n", 0},
	{"chown root f; echo $?; stat -c %U:%G f", "0\nuser:user\n", 0},
	{"stat -c '%F|%s|%U|%u' f /home/user", "regular file|6|user|1000\ndirectory|4096|user|1000\n", 0},
	{"id; id -u; id -un; whoami", "uid=1000(user) gid=1000(user) groups=1000(user)\n1000\nuser\nuser\n", 0},
	{"hostname; uname; uname -n; nproc", "wasmsand\nLinux\nwasmsand\n1\n", 0},
	{"uname -a", "Linux wasmsand 6.1.0-wasmsand #1 SMP PREEMPT_DYNAMIC 2024-01-01 x86_64 GNU/Linux\n", 0},
	{"which bc; which nosuch; echo $?", "/usr/bin/bc\n1\n", 0},
	{"printf x > t && chmod 755 t && which /home/user/t ./t; chmod -x t; which ./t; echo $?", "/home/user/t\n./t\n1\n", 0},
	{"env -i A=1 B=2", "A=1\nB=2\n", 0},
	{"env -i A=1 printenv A", "1\n", 0},
	{"FOO=bar printenv FOO", "bar\n", 0},
	{"env test -f f && env [ -d /tmp ] && echo yes", "yes\n", 0},
	{"env test 3 -gt 10; echo $?", "1\n", 0},
	{"expr 6 '*' 7; expr abc.txt : '\\(.*\\)\\.txt'", "42\nabc\n", 0},
	{"echo '2^100; scale=5; 1/3' | bc", "1267650600228229401496703205376\n.33333\n", 0},
	{"echo 'scale=10; 4*a(1)' | bc -l", "3.1415926532\n", 0},
	{"base64 f; base64 f | base64 -d", "aGVsbG8K\nhello\n", 0},
	{"base32 f", "NBSWY3DPBI======\n", 0},
	{"md5sum f; sha1sum f", "b1946ac92492d2347c6235b4d2611184  f\nf572d396fae9206628714fb2ce00f72e94f2258f  f\n", 0},
	{"sha256sum f | cut -c1-16; sha512sum f | cut -c1-16", "5891b5b522d5df08\ne7c22b994c59d9cf\n", 0},
	{"md5sum f > s && md5sum -c s", "f: OK\n", 0},
	{"cksum f", "3015617425 6 f\n", 0},
	{"od -c f; xxd f; hexdump -C f", "0000000   h   e   l   l   o  \\n\n0000006\n00000000: 6865 6c6c 6f0a                           hello.\n00000000  68 65 6c 6c 6f 0a                                 |hello.|\n00000006\n", 0},
	{"printf 'ab\\0cdefg\\0' > b && strings b", "cdefg\n", 0},
	{"file f /tmp", "f:    ASCII text\n/tmp: directory\n", 0},
	{"printf '\\x89PNG\\r\\n\\x1a\\n' > p && file -b p", "PNG image data\n", 0},
	{"truncate -s 3 f && cat f && wc -c < f", "hel3\n", 0},
	{"mktemp -u x.XXXX | wc -c", "7\n", 0},
	{"d=$(mktemp -d) && test -d $d && echo ok", "ok\n", 0},
	{"install -m 600 f g && stat -c %a g", "600\n", 0},
	{"install -d a/b && test -d a/b && echo ok", "ok\n", 0},
	{"du -b f", "6\tf\n", 0},
	{"df | head -1 | cut -c1-24", "Filesystem     1K-blocks\n", 0},
	{"df | tail -1 | cut -d' ' -f1", "wasmsand\n", 0},
	{"date -d @0 -u", "Thu Jan  1 00:00:00 UTC 1970\n", 0},
	{"date -u -d '2024-03-05 2 days ago' +%F", "2024-03-03\n", 0},
	{"date -u +%Y", "2030\n", 0},
	{"timeout 5 true; echo $?", "0\n", 0},
	{"timeout 5 sh -c 'exit 3'; echo $?", "3\n", 0},
	{"timeout 5 nosuch; echo $?", "127\n", 0},
	{"ls /usr/bin | grep -c -x -e bc -e xxd -e od -e stat -e '\\['", "5\n", 0},
	{"sha224sum f | cut -c1-16; sha384sum f | cut -c1-16; b2sum f | cut -c1-16", "2d6d67d91d0badcd\n1d0f284efe3edea4\nf60ce482e5cc1229\n", 0},
	{"sum f; sum -s f", "36979     1 f\n542 1 f\n", 0},
	{"mkdir -p t/a && printf x > t/a/b && LC_ALL=C tree t", "t\n`-- a\n    `-- b\n\n2 directories, 1 file\n", 0},
	{"echo 'a $X ${X}' | X=1 envsubst", "a 1 1\n", 0},
	{"nohup echo hi; nohup nosuch 2>/dev/null; echo $?", "hi\n127\n", 0},
	{"printf 'a\\r\\n' | dos2unix | od -c | head -1; printf 'a b\\nb c\\n' | tsort", "0000000   a  \\n\na\nb\nc\n", 0},
	{"factor 12 1000000016000000063", "12: 2 2 3\n1000000016000000063: 1000000007 1000000009\n", 0},
	{"ls /usr/bin | grep -c -x -e rg -e git -e yq -e tree -e b2sum", "5\n", 0},
	// The process table: yes runs until it is killed.
	{"yes >/dev/null & until pgrep -x yes >/dev/null; do :; done; ps -o pid=,ppid=,stat=,comm= | awk -v j=$! -v s=$$ '$4 != \"ps\" && $4 != \"awk\" {print ($1==j ? \"J\" : $1==s ? \"S\" : $1), ($2==s ? \"S\" : $2), $3, $4}'; kill $!",
		"S 0 Ss bash\nJ S S yes\n", 0},
	{"yes >/dev/null & until pgrep -x yes >/dev/null; do :; done; /usr/bin/kill $!; wait $!; echo $?", "143\n", 0},
	{"yes >/dev/null & until pidof yes >/dev/null; do :; done; /usr/bin/kill -9 $!; wait $!; echo $?", "137\n", 0},
	{"yes >/dev/null & until pidof yes >/dev/null; do :; done; [ \"$(pidof yes)\" = $! ] && [ \"$(pgrep yes)\" = $! ] && echo same; pkill -x yes; wait $!; echo $?", "same\n143\n", 0},
	{"yes >/dev/null & until pidof yes >/dev/null; do :; done; pkill -HUP -e yes | sed \"s/$!/J/\"; wait $!; echo $?", "yes killed (pid J)\n129\n", 0},
	{"/usr/bin/kill 99999; echo $?; /usr/bin/kill -0 $$; echo $?; /usr/bin/kill $$ 2>&1", "1\n0\nkill: (1): Operation not permitted\n", 1},
	{"[ \"$(ps -o pid= -p $$ | tr -d ' ')\" = $$ ] && ps -o comm=,args= -p $$", "bash            bash\n", 0},
	{"sh -c 'ps -o ppid= -C ps; echo $$' | tr -d ' ' | uniq | wc -l", "1\n", 0},
	{"ps | head -1; ps -f | head -1; ps aux | head -1 | cut -c1-41", "  PID TTY          TIME CMD\nUID        PID  PPID  C STIME TTY          TIME CMD\nUSER       PID %CPU %MEM    VSZ   RSS TTY\n", 0},
	{"ps -o user=,tty=,time=,etime= -p $$", "user     ?        00:00:00       00:00\n", 0},
	{"/usr/bin/time -f '%C %x' sh -c 'exit 3' 2>&1; echo $?", "Command exited with non-zero status 3\nsh -c exit 3 3\n3\n", 0},
	{"/usr/bin/time -p true 2>&1 | cut -d' ' -f1; /usr/bin/time -f %M seq 10 2>&1 >/dev/null | awk '$1 > 1000 {print \"big\"}'", "real\nuser\nsys\nbig\n", 0},
	{"/usr/bin/time nosuch 2>&1 | head -2", "/usr/bin/time: cannot run nosuch: No such file or directory\nCommand exited with non-zero status 127\n", 0},
	{"free -m | awk '/Mem/ {print $2}'; free -b | awk '/Swap/ {print $2, $3, $4}'; free | head -1", "256\n0 0 0\n               total        used        free      shared  buff/cache   available\n", 0},
	{"uptime; uptime -p; uptime -s", " 08:09:10 up 0 min,  1 user,  load average: 0.00, 0.00, 0.00\nup 0 minutes\n2030-06-07 08:09:10\n", 0},
	{"arch; groups; logname; tty; echo $?; pwd; /usr/bin/pwd; nice", "x86_64\nuser\nuser\nnot a tty\n1\n/home/user\n/home/user\n0\n", 0},
	{"seq 1000 | xz | xz -d | tail -1; seq 1000 | bzip2 | bzcat | tail -1; seq 5 | lzma | unlzma | head -1", "1000\n1000\n1\n", 0},
	{"seq 3 > n && xz -k n && bzip2 -k n && ls n* && xzcat n.xz && bunzip2 -c n.bz2 | wc -l", "n\nn.bz2\nn.xz\n1\n2\n3\n3\n", 0},
	{"printf 'b\\na\\n' > s && sort s | sponge s && cat s && printf 'hi' | basenc --base16", "a\nb\n6869\n", 0},
	{"ls /usr/bin | grep -c -x -e ps -e kill -e time -e free -e uptime -e xz -e bzip2 -e sponge", "8\n", 0},
	{"mkfifo p && [ -p p ] && stat -c %a p && { seq 3 > p & } && sort -r < p; rm p", "644\n3\n2\n1\n", 0},
	{"cal 2 2024 | head -2; printf 'caf\\303\\251' | iconv -f utf-8 -t latin1 | od -An -tx1", "   February 2024      \nSu Mo Tu We Th Fr Sa  \n 63 61 66 e9\n", 0},
	{"dd if=/dev/zero bs=1k count=2 2>&1 >/dev/null | head -2; getconf PAGESIZE; getconf _NPROCESSORS_ONLN; getconf _PHYS_PAGES", "2+0 records in\n2+0 records out\n4096\n1\n65536\n", 0},
}

func TestInSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every guest module")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	clock := time.Date(2030, 6, 7, 8, 9, 10, 0, time.UTC)
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{
		ToolsDir: guesttest.Dir(t),
		CacheDir: filepath.Join(cache, "wasmsand-test", "modules"),
		Clock:    func() time.Time { return clock },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	for _, c := range sandboxCases {
		if _, err := sb.Run(ctx, "cd /home/user && rm -rf f l h d t s g a b p n n.xz n.bz2 x.* /tmp/tmp.*"); err != nil {
			t.Fatal(err)
		}
		if err := sb.WriteFile("/home/user/f", []byte("hello\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := sb.Run(ctx, "cd /home/user && "+c.cmd)
		if err != nil {
			t.Fatalf("%s: %v", c.cmd, err)
		}
		if string(res.Stdout) != c.want || res.ExitCode != c.code {
			t.Errorf("%s:\n got %q (exit %d, stderr %q)\nwant %q (exit %d)", c.cmd, res.Stdout, res.ExitCode, res.Stderr, c.want, c.code)
		}
	}
}
