package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is the tree every differential case starts from.
var fixture = map[string]string{
	"table":    "b 2 x\na 10 y\nc 1 z\na 2 w\nb 10 v\n",
	"csv":      "name,age,city\nbob,25,paris\nalice,30,berlin\ncarol,25,rome\ndave,4,oslo\n",
	"passwd":   "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000:User,,,:/home/user:/bin/sh\nnobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n",
	"words":    "the quick brown fox\njumps over\n\nthe lazy dog\n\tindented line\ntrailing space \nThe End\n",
	"utf8":     "héllo wörld\nnaïve café\n日本語 テキスト\n",
	"nums":     "3\n1.5\n-2\n10\n0x1A\n1e3\nabc\n",
	"paras":    "a 1\nb 2\n\nc 3\n\n\nd 4\n",
	"prog.awk": "BEGIN { FS = \",\" }\nNR > 1 { sum[$2] += 1 }\nEND { for (k in sum) n++; print n }\n",
	"lib.awk":  "function double(x) { return 2 * x }\n",
	"nonl":     "last line without newline",
	"tabs":     "a\tb c\td\n1\t2 3\t4\n",
}

func setupFixture(t *testing.T, dir string) {
	t.Helper()
	for name, data := range fixture {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// diffCases are shell snippets run once with our awk first on PATH and
// once with GNU awk as awk; stdout and exit status must agree (and the
// first line of stderr where stderr is set). They stay within the POSIX
// core GoAWK and gawk share.
var diffCases = []struct {
	script string
	stderr bool
}{
	{script: "awk '{print $1}' table"},
	{script: "awk '{print $NF}' table"},
	{script: "awk '{s+=$2} END{print s}' table"},
	{script: "awk '{print NR\": \"$0}' table"},
	{script: "awk 'NR==2' table"},
	{script: "awk 'NR%2' table"},
	{script: "awk '$2 > 5' table"},
	{script: "awk '$1 == \"a\"' table"},
	{script: "awk '/^b/' table"},
	{script: "awk '!/^b/' table"},
	{script: "awk '/a/,/c/' table"},
	{script: "awk 'NR==2,NR==3 {print NR}' table"},
	{script: "awk -F, '{print $2}' csv"},
	{script: "awk -F, 'NR>1 {print $3, $1}' csv"},
	{script: "awk -F: '{print $1, $7}' passwd"},
	{script: "awk -F: -v OFS=- '{$1=$1; print}' passwd"},
	{script: "awk -F '[:,]' '{print NF}' passwd"},
	{script: "awk -F'\\t' '{print $2}' tabs"},
	{script: "awk -Ft '{print $2}' tabs"},
	{script: "awk 'BEGIN{FS=\"\\t\"} {print $2}' tabs"},
	{script: "awk -v x=5 'BEGIN{print x*2}'"},
	{script: "awk -v 's=a\\tb' 'BEGIN{print s}'"},
	{script: "awk -v n=2 '$2==n' table"},
	{script: "awk '{print x, $1}' x=1 table x=2 table"},
	{script: "awk -f prog.awk csv"},
	{script: "awk -f lib.awk -f /dev/stdin table <<'EOF'\n{print double($2)}\nEOF"},
	{script: "awk -- '{print $1}' table"},
	{script: "awk 'BEGIN{print ENVIRON[\"HOME\"] != \"\"}'"},
	{script: "FOO=bar awk 'BEGIN{print ENVIRON[\"FOO\"]}'"},
	{script: "awk 'BEGIN{printf \"%5.2f|%-3s|%c|%d|%x|%o|%e\\n\", 3.14159, \"x\", 65, -7.9, 255, 8, 12345.678}'"},
	{script: "awk 'BEGIN{printf \"%s %s\\n\", \"a\", \"b\"; printf(\"%03d\\n\", 7)}'"},
	{script: "awk 'BEGIN{printf \"%*d|%-*d|\\n\", 5, 42, 4, 7}'"},
	{script: "awk 'BEGIN{printf \"%c%c\\n\", \"hello\", 256+65}'"},
	{script: "awk 'BEGIN{print length(\"hello\"), length()}' </dev/null"},
	{script: "awk '{print length}' words"},
	{script: "awk 'BEGIN{print substr(\"hello\", 2, 3), substr(\"hello\", 0), substr(\"hello\", -1, 3), substr(\"hello\", 4)}'"},
	{script: "awk 'BEGIN{print index(\"foobar\", \"bar\"), index(\"x\", \"y\")}'"},
	{script: "awk 'BEGIN{n=split(\"a:b:c\", arr, \":\"); print n, arr[1], arr[3]}'"},
	{script: "awk 'BEGIN{n=split(\"a1b22c\", arr, /[0-9]+/); print n, arr[2], arr[3]}'"},
	{script: "awk 'BEGIN{n=split(\"  a  b  \", arr); print n, arr[1]}'"},
	{script: "awk 'BEGIN{s=\"hello world\"; gsub(/o/, \"0\", s); print s}'"},
	{script: "awk 'BEGIN{s=\"aaa\"; n=sub(/a/, \"[&]\", s); print n, s}'"},
	{script: "awk 'BEGIN{s=\"aaa\"; gsub(/a/, \"\\\\&\", s); print s}'"},
	{script: "awk '{gsub(/the/, \"THE\"); print}' words"},
	{script: "awk 'BEGIN{print match(\"foobar\", /o+/), RSTART, RLENGTH}'"},
	{script: "awk 'BEGIN{print match(\"x\", /y/), RSTART, RLENGTH}'"},
	{script: "awk 'BEGIN{print toupper(\"abc\"), tolower(\"ÀBC\")}'"},
	{script: "awk 'BEGIN{print sprintf(\"%05.1f\", 3.14159)}'"},
	{script: "awk 'BEGIN{print int(3.9), int(-3.9), sqrt(16), exp(0), log(1), atan2(0, -1)}'"},
	{script: "awk 'BEGIN{print sin(0), cos(0)}'"},
	{script: "awk 'BEGIN{print 1e6, 100000*100000, 0.1+0.2, 1/3, 2^10, 2**3, -0}'"},
	{script: "awk 'BEGIN{OFMT=\"%.2f\"; print 1/3; CONVFMT=\"%.3f\"; x = 1/3 \"\"; print x}'"},
	{script: "awk 'BEGIN{print 7%3, -7%3, 7.5%2}'"},
	{script: "awk 'BEGIN{x = \"10\"; y = 9; print (x > y), (\"10\" > \"9\")}'"},
	{script: "awk '{print ($1 < $2)}' table"},
	{script: "awk '{print $2+0}' nums"},
	{script: "awk '$1+0 > 2' nums | grep -v x"},
	{script: "awk 'BEGIN{a[\"x\"]=1; a[\"y\"]=2; delete a[\"x\"]; for (k in a) print k, a[k]; print (\"x\" in a)}'"},
	{script: "awk 'BEGIN{a[1,2]=3; for (k in a) {split(k, p, SUBSEP); print p[1], p[2]}; print ((1,2) in a)}'"},
	{script: "awk '{c[$1]++} END{print c[\"a\"], c[\"b\"], c[\"c\"], length(c)}' table"},
	{script: "awk '{c[$1]+=$2} END{for (k in c) print k, c[k]}' table | sort"},
	{script: "awk 'BEGIN{delete a; a[1]; print length(a); delete a; print length(a)}'"},
	{script: "awk 'function f(a, b) {return a+b} BEGIN{print f(1, 2), f(3)}'"},
	{script: "awk 'function fact(n) {return n<=1 ? 1 : n*fact(n-1)} BEGIN{print fact(10)}'"},
	{script: "awk 'function fill(arr) {arr[\"k\"]=1} BEGIN{fill(x); print x[\"k\"]}'"},
	{script: "awk 'BEGIN{i=0; while (i<3) {print i; i++}; do {print \"d\" i} while (i-- > 2)}'"},
	{script: "awk 'BEGIN{for (i=0; i<5; i++) {if (i==1) continue; if (i==3) break; print i}}'"},
	{script: "awk 'NR==3 {next} {print}' table"},
	{script: "awk 'NR==2 {exit} {print} END{print \"end\"}' table"},
	{script: "awk 'BEGIN{exit 3} END{print \"not\"}'"},
	{script: "awk '{exit 4} END{exit}' table"},
	{script: "awk 'END{print NR, $0}' table"},
	{script: "awk '{print FILENAME, FNR, NR}' table csv"},
	{script: "awk 'FNR==1{nextfile} {print}' table"},
	{script: "awk '{$2=\"\"; print}' table"},
	{script: "awk '{$5=\"e\"; print; print NF}' table"},
	{script: "awk '{NF=2; print}' table"},
	{script: "awk '{$0=\"x y\"; print $2, NF}' table"},
	{script: "awk -v OFS=: '{$1=$1} 1' table"},
	{script: "awk 'BEGIN{ORS=\"|\"} {print $1} END{printf \"\\n\"}' table"},
	{script: "awk 'BEGIN{RS=\"\"} {print NR\": \"$1, NF}' paras"},
	{script: "awk 'BEGIN{RS=\"\"; FS=\"\\n\"} {print $1}' paras"},
	{script: "awk 'BEGIN{RS=\";\"} {print}' <<<'a;b;c'"},
	{script: "awk '{print}' nonl"},
	{script: "awk 'BEGIN{while ((getline line < \"table\") > 0) n++; print n}'"},
	{script: "awk 'BEGIN{getline; print \"got\", $0; getline x; print x}' table"},
	{script: "awk 'NR==1{getline; print \"after\", $0}' table"},
	{script: "awk 'BEGIN{print (getline line < \"nofile\")}'"},
	{script: "awk 'BEGIN{print \"x\" > \"out\"; print \"y\" >> \"out\"; close(\"out\"); while ((getline l < \"out\") > 0) print \"r\", l}'"},
	{script: "awk '{print > ($1 \".txt\")} END{close(\"a.txt\"); while ((getline l < \"a.txt\") > 0) print l}' table"},
	{script: "awk 'BEGIN{print \"to stderr\" > \"/dev/stderr\"}' 2>&1"},
	{script: "awk 'BEGIN{printf \"x\" | \"cat\"; close(\"cat\"); print \"\"}'"},
	{script: "awk 'BEGIN{system(\"echo hi\"); print \"after\"}'"},
	{script: "awk 'BEGIN{r = system(\"exit 3\"); print r}'"},
	{script: "awk 'BEGIN{printf \"before \"; system(\"echo mid\"); print \"end\"}'"},
	{script: "awk 'BEGIN{\"echo a b\" | getline; print $2, NR}'"},
	{script: "awk 'BEGIN{\"echo one; echo two\" | getline x; print x; \"echo one; echo two\" | getline x; print x}'"},
	{script: "awk 'BEGIN{while ((\"seq 3\" | getline n) > 0) s += n; print s}'"},
	{script: "awk 'BEGIN{c = \"echo x\"; c | getline a; close(c); c | getline b; print a b}'"},
	{script: "awk 'BEGIN{cmd = \"printf \" \"%s\" \"\\\"q\\\"\"; cmd | getline v; print v}'"},
	{script: "awk '{print $1 | \"sort -u\"}' table"},
	{script: "awk '{print $2 | \"sort -n\"} END{close(\"sort -n\"); print \"done\"}' table"},
	{script: "awk 'BEGIN{print \"b\\na\" | \"sort\"; print \"first\" > \"/dev/stderr\"}' 2>/dev/null"},
	{script: "awk '{print | \"cat 1>&2\"}' table 2>&1"},
	{script: "awk 'BEGIN { \"pwd\" | getline d; print (d != \"\") }'"},
	{script: "awk '{print length($0), substr($0, 2, 3), toupper($0)}' utf8"},
	{script: "awk '{print index($0, \"é\")}' utf8"},
	{script: "awk '{n=split($0, c, \"\"); print n, c[1]}' utf8"},
	{script: "awk 'BEGIN{printf \"%c\\n\", \"é\"}'"},
	{script: "awk 'match($0, /ö/) {print RSTART, RLENGTH}' utf8"},
	{script: "awk '/[[:upper:]]/' words"},
	{script: "awk '/^[[:space:]]/' words"},
	{script: "awk '$0 ~ \"o.e\"' words"},
	{script: "awk '$1 ~ /^(a|c)$/' table"},
	{script: "awk '/x{2}/' <<<'axxb'"},
	{script: "awk 'BEGIN{x; print x == 0, x == \"\"}'"},
	{script: "awk 'BEGIN{print substr(\"abc\", 2)}' | awk '{print $0 $0}'"},
	{script: "awk 'BEGIN{print -3 % 2, 2^-1}'"},
	{script: "awk 'BEGIN{x[1]=1; print length(x)}'"},
	{script: "awk 'BEGIN { printf \"%s\\n\" }'; echo $?", stderr: false},
	{script: "awk 'BEGIN{'", stderr: false},
	{script: "awk '{print}' nofile", stderr: true},
	{script: "awk -v 1x=2 'BEGIN{}'", stderr: true},
	{script: "awk -f nofile", stderr: false},
	{script: "awk"},
	{script: "awk --nope"},
	{script: "awk 'BEGIN{y=0; x=1/y}'"},
	{script: "printf 'a\\0b\\n' | awk '{print length}'"},
	{script: "printf '\\xff\\xfe x\\n' | awk '{print $2; print}' | od -c | head -2"},
	{script: "seq 1 1000 | awk '{s+=$1} END{print s, NR}'"},
	{script: "awk 'BEGIN{srand(1); x=rand(); print (x >= 0 && x < 1)}'"},
	{script: "awk 'BEGIN{print substr(\"hello\", 2.5, 2)}'"},
	{script: "awk 'BEGIN{print 10+0, \"1e1\"+0, \" 12 \"+0, \"3x\"+1}'"},
	{script: "awk 'BEGIN{$0=\"a b c\"; $2=\"\"; print NF; print}'"},
	{script: "awk 'BEGIN{n = split(\"\", arr); print n, length(arr)}'"},
	{script: "awk '{ $3 = $3 \"!\"; print }' OFS=, table"},
}

func buildNative(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "awk")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

type result struct {
	stdout, stderr string
	code           int
}

func runScript(t *testing.T, script, path string) result {
	dir := t.TempDir()
	setupFixture(t, dir)
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + path, "LC_ALL=C.UTF-8", "TZ=UTC", "HOME=" + dir}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return result{out.String(), errOut.String(), code}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func TestDifferentialGawk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs GNU awk")
	}
	gawk, err := exec.LookPath("gawk")
	if err != nil {
		t.Skip("gawk not installed (apt-get install gawk)")
	}
	ours := buildNative(t)
	oracle := t.TempDir()
	// GNU awk calls itself gawk in messages; name it awk as ours is.
	if err := os.Symlink(gawk, filepath.Join(oracle, "awk")); err != nil {
		t.Fatal(err)
	}
	sysPath := os.Getenv("PATH")
	for _, c := range diffCases {
		t.Run(strings.ReplaceAll(c.script, "/", "∕"), func(t *testing.T) {
			want := runScript(t, c.script, oracle+":"+sysPath)
			got := runScript(t, c.script, ours+":"+sysPath)
			if got.stdout != want.stdout {
				t.Errorf("stdout differs\n got: %q\nwant: %q", got.stdout, want.stdout)
			}
			if got.code != want.code {
				t.Errorf("exit status %d, gawk %d (stderr %q, gawk %q)", got.code, want.code, got.stderr, want.stderr)
			}
			if c.stderr {
				w := strings.Replace(firstLine(want.stderr), "gawk:", "awk:", 1)
				if g := firstLine(got.stderr); g != w {
					t.Errorf("stderr differs\n got: %q\nwant: %q", g, w)
				}
			}
		})
	}
}
