package main

import (
	"github.com/wasmsand/wasmsand/wasm/guest/internal/difftest"
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

func setupFixture(t testing.TB, dir string) {
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
var diffCases = []difftest.Case{
	{Script: "awk '{print $1}' table"},
	{Script: "awk '{print $NF}' table"},
	{Script: "awk '{s+=$2} END{print s}' table"},
	{Script: "awk '{print NR\": \"$0}' table"},
	{Script: "awk 'NR==2' table"},
	{Script: "awk 'NR%2' table"},
	{Script: "awk '$2 > 5' table"},
	{Script: "awk '$1 == \"a\"' table"},
	{Script: "awk '/^b/' table"},
	{Script: "awk '!/^b/' table"},
	{Script: "awk '/a/,/c/' table"},
	{Script: "awk 'NR==2,NR==3 {print NR}' table"},
	{Script: "awk -F, '{print $2}' csv"},
	{Script: "awk -F, 'NR>1 {print $3, $1}' csv"},
	{Script: "awk -F: '{print $1, $7}' passwd"},
	{Script: "awk -F: -v OFS=- '{$1=$1; print}' passwd"},
	{Script: "awk -F '[:,]' '{print NF}' passwd"},
	{Script: "awk -F'\\t' '{print $2}' tabs"},
	{Script: "awk -Ft '{print $2}' tabs"},
	{Script: "awk 'BEGIN{FS=\"\\t\"} {print $2}' tabs"},
	{Script: "awk -v x=5 'BEGIN{print x*2}'"},
	{Script: "awk -v 's=a\\tb' 'BEGIN{print s}'"},
	{Script: "awk -v n=2 '$2==n' table"},
	{Script: "awk '{print x, $1}' x=1 table x=2 table"},
	{Script: "awk -f prog.awk csv"},
	{Script: "awk -f lib.awk -f /dev/stdin table <<'EOF'\n{print double($2)}\nEOF"},
	{Script: "awk -- '{print $1}' table"},
	{Script: "awk 'BEGIN{print ENVIRON[\"HOME\"] != \"\"}'"},
	{Script: "FOO=bar awk 'BEGIN{print ENVIRON[\"FOO\"]}'"},
	{Script: "awk 'BEGIN{printf \"%5.2f|%-3s|%c|%d|%x|%o|%e\\n\", 3.14159, \"x\", 65, -7.9, 255, 8, 12345.678}'"},
	{Script: "awk 'BEGIN{printf \"%s %s\\n\", \"a\", \"b\"; printf(\"%03d\\n\", 7)}'"},
	{Script: "awk 'BEGIN{printf \"%*d|%-*d|\\n\", 5, 42, 4, 7}'"},
	{Script: "awk 'BEGIN{printf \"%c%c\\n\", \"hello\", 256+65}'"},
	{Script: "awk 'BEGIN{print length(\"hello\"), length()}' </dev/null"},
	{Script: "awk '{print length}' words"},
	{Script: "awk 'BEGIN{print substr(\"hello\", 2, 3), substr(\"hello\", 0), substr(\"hello\", -1, 3), substr(\"hello\", 4)}'"},
	{Script: "awk 'BEGIN{print index(\"foobar\", \"bar\"), index(\"x\", \"y\")}'"},
	{Script: "awk 'BEGIN{n=split(\"a:b:c\", arr, \":\"); print n, arr[1], arr[3]}'"},
	{Script: "awk 'BEGIN{n=split(\"a1b22c\", arr, /[0-9]+/); print n, arr[2], arr[3]}'"},
	{Script: "awk 'BEGIN{n=split(\"  a  b  \", arr); print n, arr[1]}'"},
	{Script: "awk 'BEGIN{s=\"hello world\"; gsub(/o/, \"0\", s); print s}'"},
	{Script: "awk 'BEGIN{s=\"aaa\"; n=sub(/a/, \"[&]\", s); print n, s}'"},
	{Script: "awk 'BEGIN{s=\"aaa\"; gsub(/a/, \"\\\\&\", s); print s}'"},
	{Script: "awk '{gsub(/the/, \"THE\"); print}' words"},
	{Script: "awk 'BEGIN{print match(\"foobar\", /o+/), RSTART, RLENGTH}'"},
	{Script: "awk 'BEGIN{print match(\"x\", /y/), RSTART, RLENGTH}'"},
	{Script: "awk 'BEGIN{print toupper(\"abc\"), tolower(\"ÀBC\")}'"},
	{Script: "awk 'BEGIN{print sprintf(\"%05.1f\", 3.14159)}'"},
	{Script: "awk 'BEGIN{print int(3.9), int(-3.9), sqrt(16), exp(0), log(1), atan2(0, -1)}'"},
	{Script: "awk 'BEGIN{print sin(0), cos(0)}'"},
	{Script: "awk 'BEGIN{print 1e6, 100000*100000, 0.1+0.2, 1/3, 2^10, 2**3, -0}'"},
	{Script: "awk 'BEGIN{OFMT=\"%.2f\"; print 1/3; CONVFMT=\"%.3f\"; x = 1/3 \"\"; print x}'"},
	{Script: "awk 'BEGIN{print 7%3, -7%3, 7.5%2}'"},
	{Script: "awk 'BEGIN{x = \"10\"; y = 9; print (x > y), (\"10\" > \"9\")}'"},
	{Script: "awk '{print ($1 < $2)}' table"},
	{Script: "awk '{print $2+0}' nums"},
	{Script: "awk '$1+0 > 2' nums | grep -v x"},
	{Script: "awk 'BEGIN{a[\"x\"]=1; a[\"y\"]=2; delete a[\"x\"]; for (k in a) print k, a[k]; print (\"x\" in a)}'"},
	{Script: "awk 'BEGIN{a[1,2]=3; for (k in a) {split(k, p, SUBSEP); print p[1], p[2]}; print ((1,2) in a)}'"},
	{Script: "awk '{c[$1]++} END{print c[\"a\"], c[\"b\"], c[\"c\"], length(c)}' table"},
	{Script: "awk '{c[$1]+=$2} END{for (k in c) print k, c[k]}' table | sort"},
	{Script: "awk 'BEGIN{delete a; a[1]; print length(a); delete a; print length(a)}'"},
	{Script: "awk 'function f(a, b) {return a+b} BEGIN{print f(1, 2), f(3)}'"},
	{Script: "awk 'function fact(n) {return n<=1 ? 1 : n*fact(n-1)} BEGIN{print fact(10)}'"},
	{Script: "awk 'function fill(arr) {arr[\"k\"]=1} BEGIN{fill(x); print x[\"k\"]}'"},
	{Script: "awk 'BEGIN{i=0; while (i<3) {print i; i++}; do {print \"d\" i} while (i-- > 2)}'"},
	{Script: "awk 'BEGIN{for (i=0; i<5; i++) {if (i==1) continue; if (i==3) break; print i}}'"},
	{Script: "awk 'NR==3 {next} {print}' table"},
	{Script: "awk 'NR==2 {exit} {print} END{print \"end\"}' table"},
	{Script: "awk 'BEGIN{exit 3} END{print \"not\"}'"},
	{Script: "awk '{exit 4} END{exit}' table"},
	{Script: "awk 'END{print NR, $0}' table"},
	{Script: "awk '{print FILENAME, FNR, NR}' table csv"},
	{Script: "awk 'FNR==1{nextfile} {print}' table"},
	{Script: "awk '{$2=\"\"; print}' table"},
	{Script: "awk '{$5=\"e\"; print; print NF}' table"},
	{Script: "awk '{NF=2; print}' table"},
	{Script: "awk '{$0=\"x y\"; print $2, NF}' table"},
	{Script: "awk -v OFS=: '{$1=$1} 1' table"},
	{Script: "awk 'BEGIN{ORS=\"|\"} {print $1} END{printf \"\\n\"}' table"},
	{Script: "awk 'BEGIN{RS=\"\"} {print NR\": \"$1, NF}' paras"},
	{Script: "awk 'BEGIN{RS=\"\"; FS=\"\\n\"} {print $1}' paras"},
	{Script: "awk 'BEGIN{RS=\";\"} {print}' <<<'a;b;c'"},
	{Script: "awk '{print}' nonl"},
	{Script: "awk 'BEGIN{while ((getline line < \"table\") > 0) n++; print n}'"},
	{Script: "awk 'BEGIN{getline; print \"got\", $0; getline x; print x}' table"},
	{Script: "awk 'NR==1{getline; print \"after\", $0}' table"},
	{Script: "awk 'BEGIN{print (getline line < \"nofile\")}'"},
	{Script: "awk 'BEGIN{print \"x\" > \"out\"; print \"y\" >> \"out\"; close(\"out\"); while ((getline l < \"out\") > 0) print \"r\", l}'"},
	{Script: "awk '{print > ($1 \".txt\")} END{close(\"a.txt\"); while ((getline l < \"a.txt\") > 0) print l}' table"},
	{Script: "awk 'BEGIN{print \"to stderr\" > \"/dev/stderr\"}' 2>&1"},
	{Script: "awk 'BEGIN{printf \"x\" | \"cat\"; close(\"cat\"); print \"\"}'"},
	{Script: "awk 'BEGIN{system(\"echo hi\"); print \"after\"}'"},
	{Script: "awk 'BEGIN{r = system(\"exit 3\"); print r}'"},
	{Script: "awk 'BEGIN{printf \"before \"; system(\"echo mid\"); print \"end\"}'"},
	{Script: "awk 'BEGIN{\"echo a b\" | getline; print $2, NR}'"},
	{Script: "awk 'BEGIN{\"echo one; echo two\" | getline x; print x; \"echo one; echo two\" | getline x; print x}'"},
	{Script: "awk 'BEGIN{while ((\"seq 3\" | getline n) > 0) s += n; print s}'"},
	{Script: "awk 'BEGIN{c = \"echo x\"; c | getline a; close(c); c | getline b; print a b}'"},
	{Script: "awk 'BEGIN{cmd = \"printf \" \"%s\" \"\\\"q\\\"\"; cmd | getline v; print v}'"},
	{Script: "awk '{print $1 | \"sort -u\"}' table"},
	{Script: "awk '{print $2 | \"sort -n\"} END{close(\"sort -n\"); print \"done\"}' table"},
	{Script: "awk 'BEGIN{print \"b\\na\" | \"sort\"; print \"first\" > \"/dev/stderr\"}' 2>/dev/null"},
	{Script: "awk '{print | \"cat 1>&2\"}' table 2>&1"},
	{Script: "awk 'BEGIN { \"pwd\" | getline d; print (d != \"\") }'"},
	{Script: "awk '{print length($0), substr($0, 2, 3), toupper($0)}' utf8"},
	{Script: "awk '{print index($0, \"é\")}' utf8"},
	{Script: "awk '{n=split($0, c, \"\"); print n, c[1]}' utf8"},
	{Script: "awk 'BEGIN{printf \"%c\\n\", \"é\"}'"},
	{Script: "awk 'match($0, /ö/) {print RSTART, RLENGTH}' utf8"},
	{Script: "awk '/[[:upper:]]/' words"},
	{Script: "awk '/^[[:space:]]/' words"},
	{Script: "awk '$0 ~ \"o.e\"' words"},
	{Script: "awk '$1 ~ /^(a|c)$/' table"},
	{Script: "awk '/x{2}/' <<<'axxb'"},
	{Script: "awk 'BEGIN{x; print x == 0, x == \"\"}'"},
	{Script: "awk 'BEGIN{print substr(\"abc\", 2)}' | awk '{print $0 $0}'"},
	{Script: "awk 'BEGIN{print -3 % 2, 2^-1}'"},
	{Script: "awk 'BEGIN{x[1]=1; print length(x)}'"},
	{Script: "awk 'BEGIN { printf \"%s\\n\" }'; echo $?", Stderr: false},
	{Script: "awk 'BEGIN{'", Stderr: false},
	{Script: "awk '{print}' nofile", Stderr: true},
	{Script: "awk -v 1x=2 'BEGIN{}'", Stderr: true},
	{Script: "awk -f nofile", Stderr: false},
	{Script: "awk"},
	{Script: "awk --nope"},
	{Script: "awk 'BEGIN{y=0; x=1/y}'"},
	{Script: "printf 'a\\0b\\n' | awk '{print length}'"},
	{Script: "printf '\\xff\\xfe x\\n' | awk '{print $2; print}' | od -c | head -2"},
	{Script: "seq 1 1000 | awk '{s+=$1} END{print s, NR}'"},
	{Script: "awk 'BEGIN{srand(1); x=rand(); print (x >= 0 && x < 1)}'"},
	{Script: "awk 'BEGIN{print substr(\"hello\", 2.5, 2)}'"},
	{Script: "awk 'BEGIN{print 10+0, \"1e1\"+0, \" 12 \"+0, \"3x\"+1}'"},
	{Script: "awk 'BEGIN{$0=\"a b c\"; $2=\"\"; print NF; print}'"},
	{Script: "awk 'BEGIN{n = split(\"\", arr); print n, length(arr)}'"},
	{Script: "awk '{ $3 = $3 \"!\"; print }' OFS=, table"},
}

func TestDifferentialGawk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs GNU awk")
	}
	gawk, err := exec.LookPath("gawk")
	if err != nil {
		t.Skip("gawk not installed (apt-get install gawk)")
	}
	oracle := t.TempDir()
	// GNU awk calls itself gawk in messages; name it awk as ours is.
	if err := os.Symlink(gawk, filepath.Join(oracle, "awk")); err != nil {
		t.Fatal(err)
	}
	h := &difftest.Harness{
		Module:            "awk",
		Reference:         "gawk",
		ReferencePath:     oracle,
		Setup:             setupFixture,
		Locale:            "C.UTF-8",
		FirstLineOfStderr: true,
		ReferenceStderr:   func(s string) string { return strings.Replace(s, "gawk:", "awk:", 1) },
	}
	h.Run(t, diffCases)
}
