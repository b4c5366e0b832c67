package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixture is the tree every differential case starts from.
var fixture = map[string]string{
	"f3":            "a\nb\nc\n",
	"nums":          "10\n9\n2\n-1\n3.5\n010\n1e2\n\nabc\n-0\n",
	"words":         "the quick brown fox\njumps over\n\nthe lazy dog\n\tindented line\ntrailing space \nThe End\n",
	"table":         "b 2 x\na 10 y\nc 1 z\na 2 w\nb 10 v\n",
	"csv":           "name,age,city\nbob,25,paris\nalice,30,berlin\ncarol,25,rome\ndave,4,oslo\n",
	"human":         "1K\n2M\n512\n1G\n3K\n1.5M\n",
	"versions":      "v1.10\nv1.2\nv1.9\nv2.0\nv1.2.1\nfile10.txt\nfile9.txt\n",
	"dups":          "a\na\nb\nA\nb\nc\na\n",
	"blanks":        "x\n\n\n\ny\n\n",
	"ctrl":          "tab\there\x01\x7f\xc3\xa9\n",
	"nonl":          "no newline",
	"code.go":       "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
	"dir/a.txt":     "alpha\nbeta\n",
	"dir/b.log":     "beta\ngamma\n",
	"dir/sub/c.txt": "gamma alpha\n",
	"empty":         "",
	"repeat":        "abcabc\nabab\nxyzxyz\naa\nabcab\n",
	"bin.dat":       "text\x00more\nalpha\n",
	"s1":            "apple\nbanana\ncherry\ndate\n",
	"s2":            "banana\ncarrot\ndate\nfig\n",
	"j1":            "1 alice red\n2 bob blue\n3 carol green\n5 eve pink\n",
	"j2":            "1 paris\n2 berlin\n4 rome\n5 oslo\n5 bergen\n",
	"jc1":           "a,1\nb,2\nc,3\n",
	"jc2":           "a,x\nc,z\nd,w\n",
	"tabs":          "\ta\tb\n  x\t\ty\n        eight\nno tabs\n",
	"utf8":          "héllo wörld\nçà et là\n日本語テキスト\n",
	"long":          "The quick brown fox jumps over the lazy dog. It was a bright cold day in April, and the clocks were striking thirteen. Call me Ishmael.  Some years ago, never mind how long precisely, having little or no money in my purse, I thought I would sail about a little.\n\n  Indented paragraph here with several words that should wrap around nicely at the chosen width, yes indeed.\n",
	"lines20":       "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n",
	"uq":            "a 1\na 1\nb 2\nB 2\nx b 2\ny b 2\nc\nc\nc\nd\n",
	"sorted1":       "a\nc\ne\ng\n",
	"sorted2":       "b\nc\nd\nh\n",
	"tbl":           "name age city\nbob 25 paris\nalexandra 3 rome\n",
	"colon":         "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
	"rec":           "a;b;c;",
}

func setupFixture(t *testing.T, dir string) {
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
		if err := os.Chtimes(p, old, old.Add(time.Duration(len(data))*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
}

// diffCases are shell snippets run once with our commands first on PATH
// and once with the system's GNU tools; stdout and exit status must agree
// (and stderr too where stderr is set).
var diffCases = []struct {
	script string
	stderr bool
}{
	// cat
	{script: "cat f3 f3"},
	{script: "cat -n words"},
	{script: "cat -b words"},
	{script: "cat -s blanks"},
	{script: "cat -E f3"},
	{script: "cat -T code.go"},
	{script: "cat -A ctrl"},
	{script: "cat -v ctrl"},
	{script: "cat -ns blanks nonl f3"},
	{script: "printf 'in\\n' | cat f3 - nonl"},
	{script: "cat nope f3", stderr: true},
	{script: "cat dir", stderr: true},
	{script: "cat -z", stderr: true},
	{script: "cat --nope", stderr: true},
	// echo (through env: echo is also a shell builtin)
	{script: "env echo hello world"},
	{script: "env echo -n no newline"},
	{script: "env echo -e 'a\\tb\\nc\\x41\\0101\\\\'"},
	{script: "env echo -e 'stop\\chere'"},
	{script: "env echo -E 'a\\tb'"},
	{script: "env echo -ne 'x' -n"},
	{script: "env echo -- -n"},
	// ls
	{script: "ls"},
	{script: "ls -a dir"},
	{script: "ls -A dir"},
	{script: "ls -R dir"},
	{script: "ls -d dir f3"},
	{script: "ls -F dir"},
	{script: "ls -r"},
	{script: "ls -S"},
	{script: "ls -t"},
	{script: "ls -1 dir/sub f3 dir"},
	{script: "ls nope f3", stderr: true},
	{script: "ls -z", stderr: true},
	{script: "ls -l f3 nums | awk '{$3=$4=\"\"; print}'"},
	{script: "ls -l dir | awk '{$3=$4=\"\"; print}'"},
	{script: "ls -lh dir | awk '{$3=$4=\"\"; print}'"},
	{script: "mkdir big && head -c 5000 /dev/zero > big/x && ls -lhS big | awk '{$3=$4=\"\"; print}'"},
	{script: "ln -s f3 link && ls -l link | awk '{$3=$4=\"\"; print}' && ls -F link"},
	// wc
	{script: "wc words"},
	{script: "wc -l words"},
	{script: "wc -w words f3"},
	{script: "wc -c nonl"},
	{script: "wc -L words"},
	{script: "wc -lwc words f3 empty"},
	{script: "cat words | wc"},
	{script: "cat words | wc -l"},
	{script: "wc -m ctrl"},
	{script: "wc nope f3", stderr: true},
	// head
	{script: "head -n 2 words"},
	{script: "head -3 words"},
	{script: "head -c 10 words"},
	{script: "head -n -2 words"},
	{script: "head -c -5 words"},
	{script: "head f3 nums"},
	{script: "head -q -n1 f3 nums"},
	{script: "head -v -n1 f3"},
	{script: "seq 100 | head -n 3"},
	{script: "head -n x f3", stderr: true},
	{script: "head nope f3", stderr: true},
	// grep
	{script: "grep the words"},
	{script: "grep -i the words"},
	{script: "grep -v the words"},
	{script: "grep -c the words"},
	{script: "grep -n o words"},
	{script: "grep -w the words"},
	{script: "grep -x 'jumps over' words"},
	{script: "grep -o 'o[a-z]' words"},
	{script: "grep -E 'qu|la' words"},
	{script: "grep 'q.*k' words"},
	{script: "grep -F 'a.' csv; echo; grep 'a.' csv"},
	{script: "grep -e fox -e dog words"},
	{script: "grep -l alpha dir/a.txt dir/b.log"},
	{script: "grep -L alpha dir/a.txt dir/b.log"},
	{script: "grep -r alpha dir | sort"},
	{script: "cd dir && grep -r gamma"},
	{script: "grep -rh beta dir"},
	{script: "grep -H beta dir/a.txt"},
	{script: "grep -q fox words"},
	{script: "grep -q nothing words"},
	{script: "grep nothing words"},
	{script: "grep -s x nope"},
	{script: "grep x nope", stderr: true},
	{script: "grep -A1 jumps words"},
	{script: "grep -B2 lazy words"},
	{script: "grep -C1 -n lazy words"},
	{script: "grep -m1 the words"},
	{script: "grep -c -m1 the words"},
	{script: "grep '\\(abc\\)\\1' repeat"},
	{script: "grep -E '(ab)\\1' repeat"},
	{script: "grep -o '\\(ab\\)\\1' repeat"},
	{script: "grep -E '^(a|b)+$' repeat"},
	{script: "grep '^[[:upper:]]' words"},
	{script: "grep '[[:space:]]$' words"},
	{script: "grep 'a\\{2\\}' repeat"},
	{script: "grep -E 'x{2,}|c{1}a' repeat"},
	{script: "grep '\\<over\\>' words"},
	{script: "grep -w 'ab.*' repeat"},
	{script: "grep -ow 'the' words"},
	{script: "grep -b -o ab repeat"},
	{script: "grep '' empty; echo $?"},
	{script: "grep -e '' f3"},
	{script: "grep alpha bin.dat"},
	{script: "grep -a text bin.dat"},
	{script: "grep -c text bin.dat"},
	{script: "grep 'a\\|z' f3 repeat"},
	{script: "grep '[' f3", stderr: true},
	{script: "grep '\\(' f3", stderr: true},
	{script: "grep -E 'a{1' f3; echo $?"},
	{script: "grep", stderr: true},
	{script: "grep -y the words"},
	{script: "printf 'foo\\nbar\\n' | grep -f - words"},
	{script: "grep -n '' nonl"},
	{script: "grep --include='*.txt' -r a dir | sort"},
	{script: "grep --exclude-dir=sub -r a dir | sort"},
	// sort
	{script: "sort words"},
	{script: "sort -r words"},
	{script: "sort -n nums"},
	{script: "sort -g nums"},
	{script: "sort -k2 table"},
	{script: "sort -k2n table"},
	{script: "sort -k2,2n -k1,1 table"},
	{script: "sort -k1,1 -s table"},
	{script: "sort -t, -k2n csv"},
	{script: "sort -t, -k2,2n -k3r csv"},
	{script: "sort -u dups"},
	{script: "sort -f dups"},
	{script: "sort -fu dups"},
	{script: "sort -h human"},
	{script: "sort -V versions"},
	{script: "sort -b -k2 words"},
	{script: "sort -c f3; echo $?"},
	{script: "sort -c words; echo $?", stderr: true},
	{script: "sort -o out f3 nums && cat out"},
	{script: "sort -rn nums"},
	{script: "sort -k1.2,1.3 table"},
	{script: "sort -d words"},
	{script: "printf 'b\\0a\\0' | sort -z | tr '\\0' '\\n'"},
	{script: "sort nope", stderr: true},
	{script: "sort -k0 f3", stderr: true},
	// mkdir, rm, cp, mv, touch
	{script: "mkdir -v x y && ls -d x y"},
	{script: "mkdir -pv p/q/r && ls -R p"},
	{script: "mkdir f3", stderr: true},
	{script: "mkdir a/b", stderr: true},
	{script: "mkdir -p dir/sub && echo ok"},
	{script: "mkdir", stderr: true},
	{script: "rm -v f3 nums && ls"},
	{script: "rm nope", stderr: true},
	{script: "rm -f nope; echo $?"},
	{script: "rm dir", stderr: true},
	{script: "rm -rv dir/sub && ls dir"},
	{script: "mkdir e && rm -dv e"},
	{script: "rm -d dir", stderr: true},
	{script: "rm -r .", stderr: true},
	{script: "rm", stderr: true},
	{script: "cp -v f3 g && cat g"},
	{script: "cp f3 nums dir && ls dir"},
	{script: "cp dir d2", stderr: true},
	{script: "cp -rv dir d2 | sort && ls -R d2"},
	{script: "cp -r dir dir/sub", stderr: true},
	{script: "cp f3 f3", stderr: true},
	{script: "cp -n f3 nums && cat nums"},
	{script: "cp f3 nums words", stderr: true},
	{script: "cp -p f3 g && ls -l --time-style=+%s f3 g | awk '{print $1, $6}'"},
	{script: "cp -a dir d3 && ls -lR --time-style=+%s d3 | awk '{print $1, $5, $6, $7}'"},
	{script: "cp nope x", stderr: true},
	{script: "cp", stderr: true},
	{script: "mv -v f3 g && ls"},
	{script: "mv f3 nums dir && ls dir"},
	{script: "mv dir dir/sub", stderr: true},
	{script: "mv nope x", stderr: true},
	{script: "mv -n f3 nums && cat nums f3"},
	{script: "touch new && ls new"},
	{script: "touch -c none; ls none; echo $?"},
	{script: "touch -d '2021-03-04 05:06:07' f3 && ls -l --time-style=+%FT%T f3 | awk '{print $6}'"},
	{script: "touch -t 202001020304.05 f3 && ls -l --time-style=+%FT%T f3 | awk '{print $6}'"},
	{script: "touch -r nums f3 && ls -l --time-style=+%s nums f3 | awk '{print $6}'"},
	{script: "touch -d @86400 f3 && ls -l --time-style=+%s f3 | awk '{print $6}'"},
	{script: "touch -d nonsense f3", stderr: true},
	{script: "touch nodir/x", stderr: true},
	// seq, yes, sleep, true, false
	{script: "seq 5"},
	{script: "seq 2 5"},
	{script: "seq 10 -3 1"},
	{script: "seq 1 0.5 3"},
	{script: "seq 0.1 0.1 0.5"},
	{script: "seq -w 8 10"},
	{script: "seq -w -1 1"},
	{script: "seq -s, 5"},
	{script: "seq -f '%03g' 3"},
	{script: "seq -f 'n=%.2f' 1 0.25 2"},
	{script: "seq 5 1; echo $?"},
	{script: "seq 1 0 3", stderr: true},
	{script: "seq x", stderr: true},
	{script: "seq 1e2 1e2 3e2"},
	{script: "yes | head -3"},
	{script: "yes a b | head -2"},
	{script: "sleep 0.01 && echo slept"},
	{script: "sleep 0.01s 0.01; echo $?"},
	{script: "sleep x", stderr: true},
	{script: "env true; echo $?"},
	{script: "env false; echo $?"},
	{script: "env true --nope; echo $?"},

	// tail
	{script: "tail lines20"},
	{script: "tail -n 3 lines20"},
	{script: "tail -3 lines20"},
	{script: "tail -n +18 lines20"},
	{script: "tail +18 lines20"},
	{script: "tail -c 7 lines20"},
	{script: "tail -c +45 lines20"},
	{script: "tail -n 2 f3 nums"},
	{script: "tail -q -n1 f3 nums"},
	{script: "tail -v -n1 f3"},
	{script: "tail -n 1 nonl"},
	{script: "tail -n 0 f3"},
	{script: "seq 100 | tail -n 2"},
	{script: "tail -z -n1 rec; printf 'a\\0b\\0' | tail -z -n 1 | od -c"},
	{script: "tail -n x f3", stderr: true},
	{script: "tail nope f3", stderr: true},
	// tac
	{script: "tac f3"},
	{script: "tac nonl"},
	{script: "tac words f3"},
	{script: "tac -s ';' rec"},
	{script: "tac -b -s ';' rec"},
	{script: "tac -r -s '[0-9]' nums"},
	{script: "tac nope", stderr: true},
	// nl
	{script: "nl words"},
	{script: "nl -ba words"},
	{script: "nl -bn f3"},
	{script: "nl -n ln f3"},
	{script: "nl -n rz -w 3 f3"},
	{script: "nl -s ': ' -v 10 -i 5 f3"},
	{script: "nl -b p'^t' words"},
	{script: "printf 'a\\n\\\\:\\\\:\\\\:\\nh\\n\\\\:\\\\:\\nb\\n\\\\:\\nf\\n' | nl -ha -fa"},
	{script: "nl -x f3", stderr: true},
	// uniq
	{script: "uniq dups"},
	{script: "uniq -c dups"},
	{script: "uniq -d dups"},
	{script: "uniq -u dups"},
	{script: "uniq -i dups"},
	{script: "uniq -ci uq"},
	{script: "uniq -f 1 uq"},
	{script: "uniq -s 2 uq"},
	{script: "uniq -w 1 uq"},
	{script: "uniq -D uq"},
	{script: "uniq --all-repeated=separate uq"},
	{script: "uniq --all-repeated=prepend uq"},
	{script: "uniq --group uq"},
	{script: "uniq --group=both uq"},
	{script: "sort dups | uniq -c"},
	{script: "uniq dups out && cat out"},
	{script: "uniq -dc uq"},
	{script: "uniq nope", stderr: true},
	{script: "uniq -f x f3", stderr: true},
	// cut
	{script: "cut -d, -f2 csv"},
	{script: "cut -d, -f1,3 csv"},
	{script: "cut -d, -f2- csv"},
	{script: "cut -d: -f1,7 colon"},
	{script: "cut -d: -f-3 colon"},
	{script: "cut -c1-3 words"},
	{script: "cut -b2,4-5 words"},
	{script: "cut -c3- f3 csv"},
	{script: "cut -d, -f2 --complement csv"},
	{script: "cut -d: -f1,3 --output-delimiter=' | ' colon"},
	{script: "cut -f1 words"},
	{script: "cut -s -d' ' -f2 words"},
	{script: "cut -d' ' -f1-2 -s words"},
	{script: "cut -b1-2,5- --output-delimiter=. csv"},
	{script: "cut -f1", stderr: true},
	{script: "cut -d, -f0 csv", stderr: true},
	{script: "cut csv", stderr: true},
	{script: "cut -c2-1 csv", stderr: true},
	{script: "cut -d ab -f1 csv", stderr: true},
	// tr
	{script: "tr a-z A-Z < words"},
	{script: "tr '[:lower:]' '[:upper:]' < words"},
	{script: "tr -d aeiou < words"},
	{script: "tr -s ' ' < words"},
	{script: "tr -s '\\n' < blanks"},
	{script: "tr -d '[:digit:]' < csv"},
	{script: "tr -c 'a-z\\n' '_' < words"},
	{script: "tr -cd '[:alpha:]\\n' < csv"},
	{script: "tr -ds a-c ' ' < words"},
	{script: "tr abc x < words"},
	{script: "tr -t abc xy < words"},
	{script: "tr 'a-c' 'A-C' < repeat"},
	{script: "tr '\\n' ',' < f3"},
	{script: "tr '[a*]' < f3", stderr: true},
	{script: "tr 'a-z' '[x*3]y' < words"},
	{script: "tr '[:space:]' '\\n' < words | grep -c ."},
	{script: "tr '\\000-\\037' '?' < ctrl"},
	{script: "tr '[=a=]' '#' < words"},
	{script: "tr", stderr: true},
	{script: "tr a", stderr: true},
	{script: "tr -d a b", stderr: true},
	{script: "tr z-a x", stderr: true},
	// paste
	{script: "paste f3 s1"},
	{script: "paste -d, f3 s1 s2"},
	{script: "paste -s f3"},
	{script: "paste -s -d, f3 s1"},
	{script: "paste -d ':,' s1 s2 f3"},
	{script: "seq 6 | paste - -"},
	{script: "seq 5 | paste -s -d '+'"},
	{script: "paste -d '\\n' f3 s1"},
	{script: "paste nonl f3"},
	{script: "paste nope f3", stderr: true},
	// join
	{script: "join j1 j2"},
	{script: "join -a1 j1 j2"},
	{script: "join -a2 j1 j2"},
	{script: "join -v1 j1 j2"},
	{script: "join -v2 j1 j2"},
	{script: "join -a1 -a2 -e NULL -o 0,1.2,2.2 j1 j2"},
	{script: "join -o 1.2,2.2 j1 j2"},
	{script: "join -o auto -a1 -e - j1 j2"},
	{script: "join -t, jc1 jc2"},
	{script: "join -t, -a1 -a2 jc1 jc2"},
	{script: "join -1 2 -2 1 <(printf 'x a\\ny b\\n') <(printf 'a 1\\nb 2\\n')"},
	{script: "join -i <(printf 'A 1\\nb 2\\n') <(printf 'a x\\nB y\\n')"},
	{script: "join --header tbl tbl"},
	{script: "join <(printf 'b 1\\na 2\\n') <(printf 'a x\\nb y\\n')", stderr: true},
	{script: "join j1", stderr: true},
	{script: "join -t ab j1 j2", stderr: true},
	// comm
	{script: "comm s1 s2"},
	{script: "comm -12 s1 s2"},
	{script: "comm -23 s1 s2"},
	{script: "comm -13 s1 s2"},
	{script: "comm -3 sorted1 sorted2"},
	{script: "comm --output-delimiter=: s1 s2"},
	{script: "comm --total s1 s2"},
	{script: "comm words s1", stderr: true},
	{script: "comm --nocheck-order words s1"},
	{script: "comm s1", stderr: true},
	// fold
	{script: "fold -w 10 long"},
	{script: "fold -s -w 20 long"},
	{script: "fold -w 5 tabs"},
	{script: "fold -b -w 4 utf8"},
	{script: "fold -w 3 f3 words"},
	{script: "fold -w 0 f3", stderr: true},
	// fmt
	{script: "fmt long"},
	{script: "fmt -w 40 long"},
	{script: "fmt -u long"},
	{script: "fmt -w 30 words"},
	{script: "fmt -60 long"},
	// expand / unexpand
	{script: "expand tabs"},
	{script: "expand -t 4 tabs"},
	{script: "expand -t 2,6 tabs"},
	{script: "expand -i tabs"},
	{script: "expand code.go"},
	{script: "unexpand -a tabs"},
	{script: "expand tabs | unexpand"},
	{script: "expand tabs | unexpand -a"},
	{script: "printf '        x       y\\n' | unexpand -t 4"},
	{script: "printf '  a\\n         b\\n' | unexpand --first-only"},
	{script: "expand -t 3,2 tabs", stderr: true},
	// rev
	{script: "rev words"},
	{script: "rev nonl f3"},
	{script: "rev nope", stderr: true},
	// column
	{script: "column -t tbl"},
	{script: "column -t -s: colon"},
	{script: "column -t -s: -o ' | ' colon"},
	{script: "seq 30 | column -c 40"},
	{script: "seq 30 | column -x -c 40"},
	{script: "column -c 60 s1"},
	{script: "column -t -R 2 tbl"},
	// split
	{script: "split -l 7 lines20 && ls x* && cat xac"},
	{script: "split -l 5 -d lines20 part. && ls part.* && cat part.03"},
	{script: "split -b 10 words && ls x* && cat xab"},
	{script: "split -n 3 lines20 && wc -c x*"},
	{script: "split -n l/3 lines20 && wc -l x*"},
	{script: "split -n r/3 lines20 && cat xab"},
	{script: "split -n 2/4 lines20"},
	{script: "split -a 3 -l 10 lines20 p && ls p*"},
	{script: "split -C 12 words && wc -c x*"},
	{script: "split -l 2 --additional-suffix=.txt f3 && ls x*"},
	{script: "split -l 4 --numeric-suffixes=5 lines20 && ls x*"},
	{script: "seq 700 | split -l 1 && ls | wc -l && ls | tail -3"},
	{script: "seq 1000 | split -l 1 -a 2 ; echo $?; ls | wc -l", stderr: true},
	{script: "split --verbose -l 10 lines20"},
	{script: "split -l 0 f3", stderr: true},
	// csplit
	{script: "csplit lines20 5 12 && cat xx01"},
	{script: "csplit lines20 /5/ /1[2-9]/ && ls xx*"},
	{script: "csplit -s lines20 '/^1/' '{*}' && wc -l xx*"},
	{script: "csplit -f pre -n 3 lines20 10 && ls pre*"},
	{script: "csplit lines20 /7/+2 && cat xx00"},
	{script: "csplit lines20 %5% /9/ && cat xx00"},
	{script: "csplit -k lines20 5 '{10}'; echo $?; ls xx*", stderr: true},
	{script: "csplit lines20 30; echo $?; ls", stderr: true},
	{script: "csplit lines20 /zz/", stderr: true},
	{script: "csplit -z lines20 1 5 && ls xx*"},
	{script: "csplit --suppress-matched lines20 /10/ && cat xx01"},
	{script: "csplit -b '%03x.txt' lines20 10 && ls xx*"},
	// shuf (properties, not order)
	{script: "shuf lines20 | sort -n"},
	{script: "shuf -n 3 lines20 | wc -l"},
	{script: "shuf -i 1-10 | sort -n"},
	{script: "shuf -e a b c | sort"},
	{script: "shuf -r -n 5 -e x | uniq -c"},
	{script: "shuf -n 0 f3"},
	{script: "shuf -i 5-1", stderr: true},
	{script: "shuf -o out f3 && sort out"},
	// tee
	{script: "echo hi | tee t1 t2 && cat t1 t2"},
	{script: "echo a | tee t1 && echo b | tee -a t1 && cat t1"},
	{script: "seq 3 | tee /dev/null"},
	{script: "echo x | tee nodir/x; echo $?", stderr: true},
	// egrep / fgrep
	{script: "egrep 'qu|la' words"},
	{script: "fgrep 'a.' csv"},
	{script: "egrep -c '(ab)+' repeat"},
	{script: "grep -R alpha dir | sort"},
	{script: "grep --color=never the words"},
	{script: "grep -r --include='*.log' a dir"},
	{script: "grep -r --exclude='*.log' a dir | sort"},
	// grep literal fast path
	{script: "grep -c line words"},
	{script: "grep -n brown words"},
	{script: "grep -b lazy words"},
	{script: "grep -v the words"},
	{script: "grep -c 'fo*x' words"},
	{script: "grep -w jump words; echo $?"},
	{script: "seq 10000 | grep -c 99"},
	{script: "seq 10000 | grep -n '^99'"},
	// ls modes and columns
	{script: "chmod 755 f3 && chmod 600 nums && ls -l f3 nums | awk '{print $1}'"},
	{script: "chmod 751 dir && ls -ld dir | awk '{print $1}'"},
	{script: "chmod 755 f3 && ls -F f3 nums"},
	{script: "ls -C"},
	{script: "ls -x"},
	{script: "ls -C -w 30"},
	{script: "ls -m"},
	{script: "ls -C dir"},
	// sort -m, -R
	{script: "sort -m sorted1 sorted2"},
	{script: "sort -m -r <(printf 'c\\nb\\n') <(printf 'd\\na\\n')"},
	{script: "sort -mu sorted1 sorted2 sorted1"},
	{script: "sort -m -k2n <(printf 'x 1\\ny 5\\n') <(printf 'z 2\\nw 3\\n')"},
	{script: "sort -R dups | sort"},
	{script: "sort -R dups | uniq | wc -l"},
	{script: "sort -R --random-source=words lines20 | sort -n"},
	{script: "sort -s -k1,1 uq"},
	{script: "sort -n -k2 j1"},
	{script: "sort -t: -k3,3n colon"},
	{script: "sort -k1.2 words"},
	{script: "sort -nu nums"},
	{script: "sort -rk2,2 -k1 table"},
	// wc
	{script: "wc -l lines20 words"},
	{script: "wc -c lines20"},
	{script: "wc -lc words"},
	{script: "seq 100000 | wc -l"},
	{script: "wc -m utf8"},
	// head extras
	{script: "head -n +3 lines20"},
	{script: "seq 10 | head -c 5"},
	// cat extras
	{script: "cat -nE f3"},
	{script: "cat - < f3"},
	// pipelines
	{script: "cat words | grep -v '^$' | sort | head -3 | wc -l"},
	{script: "seq 20 | grep 1 | sort -rn | head -n 2"},
}

func buildNative(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "coreutils")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for name := range Commands {
		if err := os.Symlink(bin, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
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
	cmd.Env = []string{"PATH=" + path, "LC_ALL=C", "TZ=UTC", "HOME=" + dir}
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

func TestDifferentialGNU(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs the system's GNU tools")
	}
	for _, tool := range []string{"bash", "grep", "sort", "ls", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	if out, _ := exec.Command("ls", "--version").Output(); !bytes.Contains(out, []byte("GNU")) {
		t.Skip("system ls is not GNU coreutils")
	}
	ours := buildNative(t)
	sysPath := os.Getenv("PATH")
	for _, c := range diffCases {
		t.Run(strings.ReplaceAll(c.script, "/", "∕"), func(t *testing.T) {
			want := runScript(t, c.script, sysPath)
			got := runScript(t, c.script, ours+":"+sysPath)
			if got.stdout != want.stdout {
				t.Errorf("stdout differs\n got: %q\nwant: %q", got.stdout, want.stdout)
			}
			if got.code != want.code {
				t.Errorf("exit status %d, GNU %d (stderr %q, GNU %q)", got.code, want.code, got.stderr, want.stderr)
			}
			if c.stderr && got.stderr != want.stderr {
				t.Errorf("stderr differs\n got: %q\nwant: %q", got.stderr, want.stderr)
			}
		})
	}
}
