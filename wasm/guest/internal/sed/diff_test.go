package sed

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// diffCase is one differential case: sed args, standard input, files to
// create first, and files whose contents must match afterwards.
type diffCase struct {
	args  []string
	stdin string
	files map[string]string
	check []string
	// noStderr skips comparing the first line of standard error.
	noStderr bool
}

const lines = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"

var fixtures = map[string]string{
	"a.txt":    "alpha\nbeta\ngamma\n",
	"b.txt":    "one 1\ntwo 2\nthree 3\n",
	"nonl.txt": "no newline",
	"empty":    "",
	"utf.txt":  "héllo wörld\nÅngström ĳ\nnaïve café\n",
	"bin.dat":  "a\x00b\xff\xfec\nd\x01e\n",
	"ins.txt":  "INSERTED\nSECOND\n",
	"s.sed":    "s/alpha/ALPHA/\n/beta/d\n",
	"bad.sed":  "p\ns/x/y/q\n",
	"n.sed":    "#n\n/gamma/p\n",
	"csv":      "name,age,city\nann,31,oslo\nbob,25,rome\n",
	"code.go":  "package main\n\nfunc main() {\n\t// TODO: x\n\tprintln(\"hi\")\n}\n",
}

var diffCases = []diffCase{
	// s command basics and flags.
	{args: []string{"s/a/b/"}, stdin: "banana\n"},
	{args: []string{"s/a/b/g"}, stdin: "banana\nabc\nxyz\n"},
	{args: []string{"s/a/b/2"}, stdin: "banana\n"},
	{args: []string{"s/a/b/2g"}, stdin: "banana\n"},
	{args: []string{"-n", "s/a/b/p"}, stdin: "banana\nxyz\n"},
	{args: []string{"s/A/x/I"}, stdin: "aAaA\n"},
	{args: []string{"s/A/x/ig"}, stdin: "aAaA\n"},
	{args: []string{"s/x*/-/g"}, stdin: "abc\n"},
	{args: []string{"s/a*/x/g"}, stdin: "baaac\n"},
	{args: []string{"s/b*/x/2"}, stdin: "abc\n"},
	{args: []string{"s/^/> /"}, stdin: "a\nb\n"},
	{args: []string{"s/$/;/"}, stdin: "a\nb\n"},
	{args: []string{"s/.*/[&]/"}, stdin: "hello\n"},
	{args: []string{`s/l/\&/g`}, stdin: "hello\n"},
	{args: []string{`s/\(h\)\(e\)/\2\1/`}, stdin: "hello\n"},
	{args: []string{"-E", `s/(\w+) (\w+)/\2 \1/`}, stdin: "hello world\n"},
	{args: []string{"-r", `s/([0-9]+)/<\1>/g`}, stdin: "a1b22c333\n"},
	// groups split in one pass (posixre's splitter), and where it declines
	{args: []string{"-E", `s/([0-9]+)-([0-9]+)-([0-9]+)/\3.\2.\1/`}, stdin: "2024-08-07 x\nno date\n1-2-3-4\n12-é-3\n"},
	{args: []string{"-E", `s/^([^,]*),([^,]*)/\2,\1/`}, stdin: "name,age,city\nann,31\n,\nçà,là,x\n"},
	{args: []string{"-E", `s/([0-9]+)-/<\1>/g`}, stdin: "1-22-333-x-\n"},
	{args: []string{"-E", `s/([a-c]{1,2})(b)/[\1|\2]/g`}, stdin: "abb cb ab b\n"},
	{args: []string{"-E", `s/(X+)([0-9]*)$/\2\1/I`}, stdin: "axx12\nX\n"},
	{args: []string{`s/\([a-z]*\) \([0-9][0-9]*\)/\2 \1/`}, stdin: "north 14282 P9S2\n 5\n"},
	{args: []string{`s/[0-9]\{2,\}/N/g`}, stdin: "1 22 333\n"},
	{args: []string{`s/o\+/0/g`}, stdin: "foo boo\n"},
	{args: []string{`s/colou\?r/C/g`}, stdin: "color colour\n"},
	{args: []string{`s/cat\|dog/pet/g`}, stdin: "cat dog bird\n"},
	{args: []string{"-E", `s/cat|dog/pet/g`}, stdin: "cat dog bird\n"},
	{args: []string{`s/\bthe\b/THE/g`}, stdin: "the other theme the\n"},
	{args: []string{`s/\<a/A/g`}, stdin: "an apple a day\n"},
	{args: []string{`s/e\>/E/g`}, stdin: "the apple here\n"},
	{args: []string{`s/\s\+/_/g`}, stdin: "a  b\t c\n"},
	{args: []string{`s/\W/./g`}, stdin: "a-b c!\n"},
	{args: []string{`s/[[:digit:]]/#/g`}, stdin: "a1b2\n"},
	{args: []string{`s/[[:upper:]]/u/g`}, stdin: "AbC\n"},
	{args: []string{`s/[^a-c]/-/g`}, stdin: "abcdef\n"},
	{args: []string{`s/[]]/R/g`}, stdin: "a]b\n"},
	{args: []string{`s/a.c/X/`}, stdin: "abc\n"},
	{args: []string{`s|/usr|/opt|`}, stdin: "/usr/bin\n"},
	{args: []string{`s,a\,b,X,`}, stdin: "a,b\n"},
	{args: []string{`s/\//|/g`}, stdin: "a/b/c\n"},
	{args: []string{`s/a/\n/`}, stdin: "bab\n"},
	{args: []string{`s/a/\t/`}, stdin: "bab\n"},
	{args: []string{"s/a/x\\\ny/"}, stdin: "bab\n"},
	{args: []string{`s/\(.\)\1/<&>/g`}, stdin: "aabbcd\n"},
	{args: []string{"-E", `s/(.)(.)\2\1/[&]/`}, stdin: "xabba\n"},
	{args: []string{`s/.*/\U&/`}, stdin: "hello world\n"},
	{args: []string{`s/\w\+/\u&/g`}, stdin: "hello big world\n"},
	{args: []string{`s/.*/\L&/`}, stdin: "HeLLo\n"},
	{args: []string{"-E", `s/(\w+) (\w+)/\U\1\E \l\2/`}, stdin: "foo BAR\n"},
	{args: []string{`s/.*/\L\u&/`}, stdin: "hELLO\n"},
	{args: []string{`s/ö/oe/g`}, stdin: "schön böse\n"},
	{args: []string{`s/./X/g`}, stdin: "héllo\n"},
	{args: []string{`s/.*/\U&/`}, stdin: "straße café\n"},
	{args: []string{`s/[[:alpha:]]*/W/`}, stdin: "élan vital\n"},
	{args: []string{`s/a/b/w out.txt`}, stdin: "a\nc\na2\n", check: []string{"out.txt"}},
	{args: []string{`s/x/y/;s//z/`}, stdin: "xxx\n"},
	{args: []string{`/x/s//y/g`}, stdin: "axbx\nc\n"},
	{args: []string{`s/a/b/M`}, stdin: "a\n"},
	{args: []string{`N;s/^b/B/M`}, stdin: "a\nb\n"},
	{args: []string{`N;s/a$/A/M`}, stdin: "a\nb\n"},
	{args: []string{`N;s/^/>/Mg`}, stdin: "a\nb\n"},
	{args: []string{`N;s/^b/B/`}, stdin: "a\nb\n"},
	{args: []string{`N;N;s/\n/,/g`}, stdin: "a\nb\nc\n"},
	{args: []string{`s/\x41/a/g`}, stdin: "AAA\n"},
	{args: []string{`s/\o101/a/`}, stdin: "AAA\n"},
	{args: []string{`s/\d65/a/`}, stdin: "AAA\n"},
	{args: []string{`s/[\t]/T/`}, stdin: "a\tb\n"},
	{args: []string{`s/a\{3\}/X/`}, stdin: "aaaa\n"},
	{args: []string{"-E", `s/a{2,3}/X/g`}, stdin: "aaaaaaa\n"},
	{args: []string{"-E", `s/(a|b)+/X/`}, stdin: "ccabbac\n"},
	{args: []string{`s/^*a/X/`}, stdin: "*a\n"},
	{args: []string{`s/a**/X/`}, stdin: "baa\n"},
	{args: []string{"s/a/b/;s/b/c/;s/c/d/"}, stdin: "a\n"},
	{args: []string{"s/\\`a/X/g"}, stdin: "aaa\n"},
	{args: []string{`s/a\'/X/g`}, stdin: "aaa\n"},
	// Addresses and ranges.
	{args: []string{"-n", "3p"}, stdin: lines},
	{args: []string{"-n", "$p"}, stdin: lines},
	{args: []string{"3,5d"}, stdin: lines},
	{args: []string{"-n", "/four/,/seven/p"}, stdin: lines},
	{args: []string{"-n", "/four/,+2p"}, stdin: lines},
	{args: []string{"-n", "2,~4p"}, stdin: lines},
	{args: []string{"-n", "4,~4p"}, stdin: lines},
	{args: []string{"-n", "0~3p"}, stdin: lines},
	{args: []string{"-n", "2~3p"}, stdin: lines},
	{args: []string{"-n", "1~0p"}, stdin: lines},
	{args: []string{"0,/o/d"}, stdin: lines},
	{args: []string{"1,/o/d"}, stdin: lines},
	{args: []string{"-n", "5,2p"}, stdin: lines},
	{args: []string{"-n", "/t/,3p"}, stdin: lines},
	{args: []string{"-n", "8,$p"}, stdin: lines},
	{args: []string{"2!d"}, stdin: lines},
	{args: []string{"-n", "/e/!p"}, stdin: lines},
	{args: []string{"2,4!d"}, stdin: lines},
	{args: []string{"-n", `\,o,p`}, stdin: lines},
	{args: []string{"-n", `\%t%p`}, stdin: lines},
	{args: []string{"-n", "/ONE/Ip"}, stdin: lines},
	{args: []string{"-n", "/^t/,/^f/p"}, stdin: lines},
	{args: []string{"-n", "/two/,/two/p"}, stdin: lines},
	{args: []string{"/two/,+1{s/^/>/;s/$/</}"}, stdin: lines},
	{args: []string{"-n", "$!{$!p}"}, stdin: "a\nb\n"},
	{args: []string{"-n", "/x/,/y/p"}, stdin: "x\ny\nx\nz\n"},
	{args: []string{"-n", "2{p;p}"}, stdin: lines},
	{args: []string{"-n", "1,3{/two/!p}"}, stdin: lines},
	{args: []string{"-s", "-n", "1p;$p"}, files: map[string]string{"f1": "a\nb\n", "f2": "c\nd\n"}, stdin: "", noStderr: false},
	{args: []string{"-n", "1p;$p", "f1", "f2"}, files: map[string]string{"f1": "a\nb\n", "f2": "c\nd\n"}},
	{args: []string{"-s", "-n", "1p;$p", "f1", "f2"}, files: map[string]string{"f1": "a\nb\n", "f2": "c\nd\n"}},
	{args: []string{"-n", "$=", "a.txt", "b.txt"}},
	{args: []string{"-s", "-n", "$=", "a.txt", "b.txt"}},
	{args: []string{"F", "a.txt", "-"}, stdin: "in\n"},
	// Commands.
	{args: []string{"="}, stdin: "a\nb\n"},
	{args: []string{"-n", "l"}, stdin: "a\tb\\c\x01\n"},
	{args: []string{"-n", "l"}, stdin: "héllo\n"},
	{args: []string{"-n", "l 10"}, stdin: "abcdefghijklmnopqrstuvwxyz\n"},
	{args: []string{"-l", "8", "-n", "l"}, stdin: "abcdefghijklmnop\n"},
	{args: []string{"-n", "l 0"}, stdin: strings.Repeat("x", 150) + "\n"},
	{args: []string{"-n", "l"}, stdin: strings.Repeat("\x01", 40) + "\n"},
	{args: []string{"-n", "N;l"}, stdin: "a\nb\n"},
	{args: []string{"2q"}, stdin: lines},
	{args: []string{"2Q"}, stdin: lines},
	{args: []string{"3q5"}, stdin: lines},
	{args: []string{"3Q7"}, stdin: lines},
	{args: []string{"/four/q 3"}, stdin: lines},
	{args: []string{"$!N;P;D"}, stdin: lines},
	{args: []string{"N;P;D"}, stdin: lines},
	{args: []string{"$!N;s/\\n/ /"}, stdin: lines},
	{args: []string{"N"}, stdin: "a\nb\nc\n"},
	{args: []string{"n;d"}, stdin: lines},
	{args: []string{"-n", "n;p"}, stdin: lines},
	{args: []string{"-n", "h;n;G;p"}, stdin: lines},
	{args: []string{"1!G;h;$!d"}, stdin: lines},
	{args: []string{"-n", "H;${x;s/\\n/,/g;p}"}, stdin: lines},
	{args: []string{"x"}, stdin: "a\nb\nc\n"},
	{args: []string{"G"}, stdin: "a\nb\n"},
	{args: []string{"g"}, stdin: "a\nb\n"},
	{args: []string{"z;s/^$/empty/"}, stdin: "a\nb\n"},
	{args: []string{"y/abc/xyz/"}, stdin: "aabbcc\n"},
	{args: []string{"y/äö/ao/"}, stdin: "bär föö\n"},
	{args: []string{`y/\n/ /`}, stdin: "a\n"},
	{args: []string{`N;y/\n/|/`}, stdin: "a\nb\n"},
	{args: []string{`y,a\,b,x|y,`}, stdin: "a,b\n"},
	{args: []string{"2i\\\ninserted"}, stdin: "a\nb\nc\n"},
	{args: []string{"2a\\\nappended"}, stdin: "a\nb\nc\n"},
	{args: []string{"2c\\\nchanged"}, stdin: "a\nb\nc\n"},
	{args: []string{"2i inserted"}, stdin: "a\nb\nc\n"},
	{args: []string{"$a END"}, stdin: "a\nb\n"},
	{args: []string{"1i\\   lead"}, stdin: "a\n"},
	{args: []string{"a\\\nline1\\\nline2"}, stdin: "a\nb\n"},
	{args: []string{"2,3c\\\nX"}, stdin: "a\nb\nc\nd\n"},
	{args: []string{"2,3!c\\\nX"}, stdin: "a\nb\nc\nd\n"},
	{args: []string{"a foo\\tbar"}, stdin: "a\n"},
	{args: []string{"-e", "a\\", "-e", "from second"}, stdin: "a\n"},
	{args: []string{"1{a one\n}"}, stdin: "a\nb\n"},
	{args: []string{"a x", "nonl.txt"}},
	{args: []string{"i\\", "a.txt"}},
	{args: []string{"$!d;a end\ni begin"}, stdin: "a\nb\n"},
	{args: []string{"2r ins.txt"}, stdin: "a\nb\nc\n"},
	{args: []string{"r ins.txt"}, stdin: "a\nb\n"},
	{args: []string{"r nosuchfile"}, stdin: "a\nb\n"},
	{args: []string{"R ins.txt"}, stdin: "a\nb\nc\n"},
	{args: []string{"1r ins.txt\n1a after"}, stdin: "a\nb\n"},
	{args: []string{"-n", "/a/w w.txt"}, stdin: "a\nb\nab\n", check: []string{"w.txt"}},
	{args: []string{"-n", "N;W w.txt"}, stdin: "a\nb\nc\nd\n", check: []string{"w.txt"}},
	{args: []string{"w /dev/stdout"}, stdin: "a\nb\n"},
	{args: []string{"-n", "p;p"}, stdin: "a\n"},
	{args: []string{"-n", "N;P"}, stdin: "a\nb\n"},
	{args: []string{":a;s/^.\\{1,4\\}$/ &/;ta"}, stdin: "a\nabc\nabcdef\n"},
	{args: []string{":a;N;$!ba;s/\\n/+/g"}, stdin: lines},
	{args: []string{"s/x/X/;T;s/$/ changed/"}, stdin: "x\ny\n"},
	{args: []string{"s/x/X/;tend;s/$/ none/;:end"}, stdin: "x\ny\n"},
	{args: []string{"b end;s/a/b/;:end"}, stdin: "a\n"},
	{args: []string{"/a/b;s/$/!/"}, stdin: "a\nb\n"},
	{args: []string{"-n", "/start/,/end/{/start/n;/end/!p}"}, stdin: "x\nstart\n1\n2\nend\ny\n"},
	{args: []string{"# a comment\np # another"}, stdin: "a\n"},
	{args: []string{"-f", "s.sed", "a.txt"}},
	{args: []string{"-f", "n.sed", "a.txt"}},
	{args: []string{"#n\n/b/p"}, stdin: "a\nb\n"},
	{args: []string{"-e", "#n", "-e", "p"}, stdin: "a\n"},
	{args: []string{"  #n\np"}, stdin: "a\n"},
	{args: []string{"-e", "s/a/A/", "-e", "s/b/B/"}, stdin: "ab\n"},
	{args: []string{"--expression=s/a/A/", "--quiet", "-e", "p"}, stdin: "ab\n"},
	{args: []string{"p;p", "-n"}, stdin: "x\n"},
	{args: []string{"-n", "--regexp-extended", "/a+/p"}, stdin: "aa\nb\n"},
	{args: []string{"{p};{p}"}, stdin: "a\n"},
	{args: []string{"1{;p;}"}, stdin: "a\n"},
	{args: []string{"-n", "/a/ p"}, stdin: "a\n"},
	{args: []string{"-n", "1 , 2 p"}, stdin: "a\nb\nc\n"},
	{args: []string{"1!  G"}, stdin: "a\nb\n"},
	// Files, streams and newlines.
	{args: []string{"p", "nonl.txt"}},
	{args: []string{"-n", "p", "nonl.txt"}},
	{args: []string{"$!d", "nonl.txt", "a.txt"}},
	{args: []string{"p", "nonl.txt", "a.txt"}},
	{args: []string{"s/o/0/g", "empty", "a.txt", "empty"}},
	{args: []string{"p", "nosuch", "a.txt"}},
	{args: []string{"p", "nosuch"}},
	{args: []string{"s/\\x00/<NUL>/g", "bin.dat"}},
	{args: []string{"-n", "l", "bin.dat"}},
	{args: []string{"s/b/B/", "bin.dat"}},
	{args: []string{"-z", "s/\\n/,/g"}, stdin: "a\nb\nc\n"},
	{args: []string{"-z", "s/^./X/"}, stdin: "ab\x00cd\x00"},
	{args: []string{"-z", "-n", "2p"}, stdin: "ab\x00cd\x00ef"},
	{args: []string{"-z", "="}, stdin: "a\x00b\x00"},
	{args: []string{"-z", "N;l"}, stdin: "a\x00b\x00"},
	{args: []string{"-u", "s/a/b/"}, stdin: "a\na\n"},
	{args: []string{"-s", "F", "a.txt", "b.txt"}},
	{args: []string{"s/é/E/g", "utf.txt"}},
	{args: []string{"y/éö/eo/", "utf.txt"}},
	{args: []string{"-E", "s/^(\\w+)/<\\1>/", "utf.txt"}},
	{args: []string{"-n", "/[[:upper:]]/p", "utf.txt"}},
	{args: []string{"s/[[:space:]]/_/g", "utf.txt"}},
	{args: []string{"-E", "s/([^,]*),([^,]*)/\\2,\\1/", "csv"}},
	{args: []string{"-n", "2,${s/,/\\t/gp}", "csv"}},
	{args: []string{"/TODO/d", "code.go"}},
	{args: []string{"-n", "/func/,/^}/p", "code.go"}},
	{args: []string{"s/^\\t/    /", "code.go"}},
	{args: []string{"-n", "/^$/=", "code.go"}},
	{args: []string{"-E", "s/\"([^\"]*)\"/'\\1'/", "code.go"}},
	// In-place editing.
	{args: []string{"-i", "s/a/A/g", "f1"}, files: map[string]string{"f1": "banana\n"}, check: []string{"f1"}},
	{args: []string{"-i.bak", "s/a/A/", "f1"}, files: map[string]string{"f1": "banana\n"}, check: []string{"f1", "f1.bak"}},
	{args: []string{"--in-place=.orig", "1d", "f1", "f2"}, files: map[string]string{"f1": "a\nb\n", "f2": "c\nd\n"}, check: []string{"f1", "f2", "f1.orig", "f2.orig"}},
	{args: []string{"-i", "$a end", "f1", "f2"}, files: map[string]string{"f1": "a\nb\n", "f2": "c\nd\n"}, check: []string{"f1", "f2"}},
	{args: []string{"-n", "-i", "2p", "f1"}, files: map[string]string{"f1": "a\nb\nc\n"}, check: []string{"f1"}},
	{args: []string{"-i", "2q", "f1"}, files: map[string]string{"f1": "a\nb\nc\n"}, check: []string{"f1"}},
	{args: []string{"-i", "s/x/y/w /dev/stdout", "f1"}, files: map[string]string{"f1": "x\nz\n"}, check: []string{"f1"}},
	{args: []string{"-i", "=", "f1"}, files: map[string]string{"f1": "a\nb\n"}, check: []string{"f1"}},
	{args: []string{"-i", "p", "nosuch", "f1"}, files: map[string]string{"f1": "a\n"}, check: []string{"f1"}},
	{args: []string{"-i", "-e", "s/a/b/", "f1"}, files: map[string]string{"f1": "nonl a"}, check: []string{"f1"}},
	{args: []string{"-i", "p"}},
	{args: []string{"-i", "p", "."}},
	{args: []string{"-i", "F", "f1"}, files: map[string]string{"f1": "a\n"}, check: []string{"f1"}},
	// Errors.
	{args: []string{"s/b/x"}, stdin: "abc\n"},
	{args: []string{"-e", "p", "-e", `s/\(b/x/`}, stdin: "abc\n"},
	{args: []string{`s/\(b\)/\2/`}, stdin: "abc\n"},
	{args: []string{"s/x/y/gg"}, stdin: "x\n"},
	{args: []string{"s/x/y/pp"}, stdin: "x\n"},
	{args: []string{"s/x/y/0"}, stdin: "x\n"},
	{args: []string{"s/x/y/2/3"}, stdin: "x\n"},
	{args: []string{"s/x/y/q"}, stdin: "x\n"},
	{args: []string{"0p"}, stdin: "x\n"},
	{args: []string{"0,5p"}, stdin: "x\n"},
	{args: []string{"1,0p"}, stdin: "x\n"},
	{args: []string{"k"}, stdin: "x\n"},
	{args: []string{"1,2,3p"}, stdin: "x\n"},
	{args: []string{"1!!p"}, stdin: "x\n"},
	{args: []string{"px"}, stdin: "x\n"},
	{args: []string{"{p"}, stdin: "x\n"},
	{args: []string{"p}"}, stdin: "x\n"},
	{args: []string{"1}"}, stdin: "x\n"},
	{args: []string{"b foo"}, stdin: "x\n"},
	{args: []string{":"}, stdin: "x\n"},
	{args: []string{"1:a"}, stdin: "x\n"},
	{args: []string{"a"}, stdin: "x\n"},
	{args: []string{"y/abc/de/"}, stdin: "x\n"},
	{args: []string{"y/abc/def"}, stdin: "x\n"},
	{args: []string{"r"}, stdin: "x\n"},
	{args: []string{"w"}, stdin: "x\n"},
	{args: []string{"/abc"}, stdin: "x\n"},
	{args: []string{"/a/"}, stdin: "x\n"},
	{args: []string{"1,p"}, stdin: "x\n"},
	{args: []string{"+1p"}, stdin: "x\n"},
	{args: []string{"1,2q"}, stdin: "x\n"},
	{args: []string{"s/[a/x/"}, stdin: "x\n"},
	{args: []string{`s/a\{1/x/`}, stdin: "x\n"},
	{args: []string{"-E", "s/(a/x/"}, stdin: "x\n"},
	{args: []string{"-E", "s/a)/x/"}, stdin: "x\n"},
	{args: []string{"-E", "s/*/x/"}, stdin: "x\n"},
	{args: []string{`s/\1/x/`}, stdin: "x\n"},
	{args: []string{"s/[[:foo:]]/x/"}, stdin: "x\n"},
	{args: []string{"s/[z-a]/x/"}, stdin: "x\n"},
	{args: []string{"s//x/"}, stdin: "x\n"},
	{args: []string{"//Ip"}, stdin: "x\n"},
	{args: []string{"-f", "bad.sed"}, stdin: "x\n"},
	{args: []string{"-f", "nosuch.sed"}, stdin: "x\n"},
	{args: []string{}, stdin: "x\n"},
	{args: []string{"-k", "p"}, stdin: "x\n"},
	{args: []string{"--bogus", "p"}, stdin: "x\n"},
	{args: []string{"-n"}, stdin: "x\n"},
	{args: []string{"--sandbox", "w x"}, stdin: "x\n"},
	{args: []string{"--sandbox", "r x"}, stdin: "x\n"},
	{args: []string{"--posix", "p"}, stdin: "x\n"},
	{args: []string{"--version"}, noStderr: true},
	// Found by random testing against GNU sed.
	{args: []string{"-s", "-n", "1,2p", "a.txt", "b.txt"}},
	{args: []string{"-s", "-n", "2,+0p;2,1p;0,/e/p", "a.txt", "b.txt"}},
	{args: []string{"-n", "1,~2s/x/y/;t\n2,$P"}, stdin: "abc abc\nxyz\n\naaa\n"},
	{args: []string{"/^x/s/a/b/\n$!c\\\nCHG\n2,+1c\\\nCHG"}, stdin: "abc abc\nxyz\n\naaa\n"},
	{args: []string{"2{n;n};2,3d"}, stdin: lines},
	{args: []string{"/o/!s/x/y/\n1,~2G;s/\\n/+/\n1,~2N"}, stdin: "abc abc\nxyz\n\naaa\n"},
	{args: []string{"2{n;n};2,~4d"}, stdin: lines},
	{args: []string{"0,/b/s/\\w\\+/\\u&/g\n2,+1n"}, stdin: "one\ntwo\nthree\nfour\nfive\n"},
	{args: []string{"-n", "2,3n;p"}, stdin: lines},
	{args: []string{"-E", "/a/,/c/a\\\nAPP\n2,+1n\n2,+1c\\\nCHG"}, stdin: "abc abc\nxyz\n\naaa\n"},
	{args: []string{"2,+1l\n1,~2N\n1,2s/\\n/|/\n1~2h"}, stdin: "one\ntwo\nthree\nfour\nfive\n"},
	{args: []string{"-s", "2,+1G;s/\\n/+/\n2N"}, stdin: "one\ntwo\nthree\nfour\nfive\n"},
	{args: []string{"-n", "/2/,3{n;n};p"}, stdin: "1\n2\n3\n4\n5\n6\n2\n3\n"},
	{args: []string{"1,~2l\n/a/N\n1,~2d"}, stdin: "abc abc\nxyz\n\naaa\n"},
	{args: []string{"2{n;n};2,+1d"}, stdin: lines},
	{args: []string{"2{n;n};2,4d"}, stdin: lines},
	{args: []string{"2{n;n};2,/f/d"}, stdin: lines},
	{args: []string{"-s", "$!D\n$!x\n1,2p\n2!G;s/\\n/+/"}, stdin: "one\ntwo\nthree\nfour\nfive\n"},
	{args: []string{"G"}, stdin: "x"},
	{args: []string{"h;G"}, stdin: "x"},
	{args: []string{"x"}, stdin: "x"},
	{args: []string{"H;x"}, stdin: "x"},
	{args: []string{"g"}, stdin: "x"},
	{args: []string{"q"}, stdin: "x"},
	{args: []string{"z"}, stdin: "x"},
	{args: []string{"$a APP\n1Q"}, stdin: "x"},
	{args: []string{"-z", "i\\\nINS"}, stdin: "a"},
	{args: []string{"-z", "i INS"}, stdin: "a"},
	{args: []string{"-z", "a\\\nAPP"}, stdin: "a"},
	{args: []string{"-z", "c\\\nONE\\\ntwo"}, stdin: "a"},
	{args: []string{"-z", "/^x/l\nq"}, stdin: "a\nb\n"},
	{args: []string{"-z", "2!G;s/\\n/+/"}, stdin: "a.b\n(x)\n"},
	// More regex semantics.
	{args: []string{"-E", "/$?a/p"}, stdin: "a\n"},
	{args: []string{"-E", `s/\b?x//`}, stdin: "a\n"},
	{args: []string{"/\\b\\+/="}, stdin: "a+b\nab\n"},
	{args: []string{"-n", "/a\\<*/p"}, stdin: "a*\nab\n"},
	{args: []string{"s/\\>\\{2\\}//g"}, stdin: "a\n"},
	{args: []string{`s/\<\{2\}\w\+\>\1/&&/2`}, stdin: "a\n"},
	{args: []string{`s/a\|ab/X/`}, stdin: "abc\n"},
	{args: []string{"-E", `s/(a|ab)(c|bcd)/[\1,\2]/`}, stdin: "abcd\n"},
	{args: []string{`s/b*/x/g`}, stdin: "abc\n"},
	{args: []string{"-E", `s/(a|)+/x/g`}, stdin: "baac\n"},
	{args: []string{`s/\(a*\)*/x/`}, stdin: "aaab\n"},
	{args: []string{`s/\(ab\)*c/[\1]/`}, stdin: "ababc\n"},
	{args: []string{"-E", `s/(x)?y/[\1]/`}, stdin: "y\n"},
	{args: []string{`s/[a-z]*/(&)/g`}, stdin: "abc 123 de\n"},
	{args: []string{`s/\.$//`}, stdin: "end.\n"},
	{args: []string{`s/[.]/!/g`}, stdin: "a.b.c\n"},
	{args: []string{`s/a\{2\}/X/g`}, stdin: "aaaaa\n"},
	{args: []string{`s/\n/X/`}, stdin: "a\n"},
	{args: []string{`N;s/[\n]/X/`}, stdin: "a\nb\n"},
	{args: []string{`N;s/a.b/X/`}, stdin: "a\nb\n"},
	{args: []string{`N;s/a$//`}, stdin: "a\nb\n"},
	{args: []string{`s/\cA/ctrl/`}, stdin: "a\x01b\n"},
	{args: []string{`s/[[:space:][:punct:]]/_/g`}, stdin: "a b,c\n"},
	{args: []string{`s/[^[:alnum:]]//g`}, stdin: "a-b_c 1!\n"},
	{args: []string{"-E", `s/\<./\u&/g`}, stdin: "the quick fox\n"},
	{args: []string{"-E", `s/(.)\1+/\1/g`}, stdin: "aabbbcdd\n"},
	{args: []string{`s/\(.\)\(.\)\(.\)\(.\)\(.\)\(.\)\(.\)\(.\)\(.\)/\9\8\7\6\5\4\3\2\1/`}, stdin: "123456789\n"},
	{args: []string{`s/x/a\
b/`}, stdin: "x\n"},
	{args: []string{`s/x/[\&]/`}, stdin: "x\n"},
	{args: []string{`s&x&[\&]&`}, stdin: "x\n"},
	{args: []string{`s/o/\U&/2`}, stdin: "foo boo\n"},
	{args: []string{`s/\(foo\) \(bar\)/\u\1 \U\2\E!/`}, stdin: "foo bar\n"},
	{args: []string{"-E", `s/(.*)/\L\1/`}, stdin: "ÀÉÎ\n"},
	{args: []string{`s/ab*/X/2g`}, stdin: "abbaabab\n"},
	{args: []string{`s/^a/X/g`}, stdin: "aaa\n"},
	{args: []string{`s/a$/X/g`}, stdin: "aaa\n"},
	{args: []string{`s/\ba/X/g`}, stdin: "a ba ab\n"},
	{args: []string{`s/\Ba/X/g`}, stdin: "a ba ab\n"},
	{args: []string{`s/\>/|/g`}, stdin: "ab cd\n"},
	{args: []string{`s/\</|/g`}, stdin: "ab cd\n"},
	{args: []string{"-E", `s/a{,2}/X/`}, stdin: "aaa\n"},
	{args: []string{"-n", `/^$/!p`}, stdin: "a\n\nb\n"},
	{args: []string{"-E", "-n", `/^(ab)+$/p`}, stdin: "abab\naba\n"},
	{args: []string{"-n", `/\(a\)\1/p`}, stdin: "aa\nab\n"},
	{args: []string{`s/x/\x41\o102\d67/`}, stdin: "x\n"},
	// More commands and options.
	{args: []string{"-n", "-l", "1", "l"}, stdin: strings.Repeat("y", 100) + "\n"},
	{args: []string{"-n", "l 1"}, stdin: "abc\n"},
	{args: []string{"-n", "l 2"}, stdin: "abc\n"},
	{args: []string{"-n", "l", "-l", "5"}, stdin: "a\tbcdefg\n"},
	{args: []string{"w /dev/stderr"}, stdin: "a\n", noStderr: true},
	{args: []string{"2{h;d};${G}"}, stdin: "a\nb\nc\n"},
	{args: []string{"$!N;/a\\nb/D"}, stdin: "a\nb\nc\n"},
	{args: []string{"a X\n$!N;D"}, stdin: "a\nb\nc\n"},
	{args: []string{"i X\nN;N;D"}, stdin: "1\n2\n3\n4\n5\n"},
	{args: []string{"1~3{N;N;s/\\n/,/g}"}, stdin: lines},
	{args: []string{"/three/,/five/c\\\nGONE"}, stdin: lines},
	{args: []string{"/three/,/five/{/four/c\\\nFOUR\n}"}, stdin: lines},
	{args: []string{"$!{h;d};x;G"}, stdin: "a\nb\nc\n"},
	{args: []string{"-n", "$!{n;p}"}, stdin: "a\nb\nc\n"},
	{args: []string{"-n", "/b/{=;p}"}, stdin: "a\nb\nc\n"},
	{args: []string{"-s", "-n", "$=;1F", "a.txt", "b.txt", "nonl.txt"}},
	{args: []string{"-n", "/alpha/,/gamma/{//!p}", "a.txt"}},
	{args: []string{"s/e/E/w /dev/stdout", "a.txt"}},
	{args: []string{"-n", "s/a/A/gw out.txt", "a.txt"}, check: []string{"out.txt"}},
	{args: []string{"-e", "w out.txt", "-e", "s/a/b/w out.txt", "a.txt"}, check: []string{"out.txt"}},
	{args: []string{"R nonl.txt", "a.txt"}},
	{args: []string{"r /dev/stdin", "a.txt"}, stdin: "from stdin\n"},
	{args: []string{"1R /dev/stdin", "a.txt"}, stdin: "s1\ns2\n"},
	{args: []string{"0~2d", "a.txt", "b.txt"}},
	{args: []string{"-n", "2{p;q}", "a.txt", "b.txt"}},
	{args: []string{"--separate", "2q", "a.txt", "b.txt"}},
	{args: []string{"--null-data", "--quiet", "1p"}, stdin: "a\nb\x00c\x00"},
	{args: []string{"-z", "$!d"}, stdin: "a\x00b"},
	{args: []string{"--line-length=6", "-n", "l"}, stdin: "abcdefghij\n"},
	{args: []string{"--help"}},
	{args: []string{"-n", "/one/{:a;n;/four/q;p;ba}"}, stdin: lines},
	{args: []string{"-n", ":a}"}, stdin: lines},
	{args: []string{"-n", ":a b;p"}, stdin: lines},
	{args: []string{"-n", "-l", "3x", "l"}, stdin: "abcdef\n"},
	{args: []string{"s/x/a\nb/"}, stdin: "x\n"},
	{args: []string{"-i", "--follow-symlinks", "s/a/A/", "link"}, files: map[string]string{"target": "abc\n"}, check: []string{"target"}},
	{args: []string{"-i~", "s/a/A/", "f1"}, files: map[string]string{"f1": "abc\n"}, check: []string{"f1", "f1~"}},
	{args: []string{"-ibak/*.old", "s/a/A/", "f1"}, files: map[string]string{"f1": "abc\n", "bak/.keep": ""}, check: []string{"f1", "bak/f1.old"}},
	{args: []string{"-s", "-i", "1d", "a.txt", "b.txt"}, check: []string{"a.txt", "b.txt"}},
	{args: []string{"-n", "-i", "$p", "a.txt", "b.txt"}, check: []string{"a.txt", "b.txt"}},
	{args: []string{"1d;s/a/A/g", "a.txt", "-", "b.txt"}, stdin: "stdin a\n"},
	{args: []string{"y/abc/\n\t\\\\/"}, stdin: "abc\n"},
	{args: []string{"s/a/b/ ; p"}, stdin: "a\n"},
	{args: []string{"s/a/b/g3p"}, stdin: "aaaa\n", noStderr: false},
	{args: []string{"s/a/b/;;;p"}, stdin: "a\n"},
	{args: []string{"1d\n\n\n2d"}, stdin: "a\nb\nc\n"},
	{args: []string{"/a/I,/C/Id"}, stdin: "x\nA\nb\nc\ny\n"},
	{args: []string{"-E", "/a|b/d"}, stdin: "a\nb\nc\n"},
	{args: []string{"/a\\|b/d"}, stdin: "a\nb\nc\n"},
	{args: []string{"2,4{2d;4d}"}, stdin: lines},
	{args: []string{"-n", "/one/{:a;n;/four/q;p;ba}"}, stdin: lines},
	{args: []string{"y/abc/xy/"}, stdin: "a\n"},
	{args: []string{"s/a/b/w"}, stdin: "a\n"},
	{args: []string{"u"}, stdin: "a\n"},
	{args: []string{"1~2~3p"}, stdin: "a\n"},
	{args: []string{"s/(/x/", "-E"}, stdin: "a\n"},
	{args: []string{`s/\(/x/`}, stdin: "a\n"},
	{args: []string{`s/a\)/x/`}, stdin: "a\n"},
	{args: []string{"-E", `s/a{1/x/`}, stdin: "a\n"},
	{args: []string{"-E", `s/a{1,0}/x/`}, stdin: "a\n"},
	{args: []string{`s/a\{x\}/x/`}, stdin: "a\n"},
	{args: []string{`s/\{1\}/x/`}, stdin: "a\n"},
	{args: []string{`s/x/y/;s/z/\1/`}, stdin: "a\n"},
	{args: []string{"}"}, stdin: "a\n"},
	{args: []string{"1,2{p"}, stdin: "a\n"},
	{args: []string{"y"}, stdin: "a\n"},
	{args: []string{"s"}, stdin: "a\n"},
	{args: []string{"s/a"}, stdin: "a\n"},
	{args: []string{"s/a/b"}, stdin: "a\n"},
	{args: []string{"-l", "x", "p"}, stdin: "a\n"},
	{args: []string{"--expression"}, stdin: "a\n"},
	{args: []string{"-e"}, stdin: "a\n"},
}

// runGNU runs the real sed in dir.
func runGNU(t *testing.T, gnu, dir string, c diffCase) (string, string, int) {
	cmd := exec.Command(gnu, c.args...)
	cmd.Args[0] = "sed"
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"}
	cmd.Stdin = strings.NewReader(c.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func runOurs(t *testing.T, dir string, c diffCase) (string, string, int) {
	t.Chdir(dir)
	var out, errb bytes.Buffer
	env := &tool.Env{Args: append([]string{"sed"}, c.args...), Stdin: strings.NewReader(c.stdin), Stdout: &out, Stderr: &errb}
	code := tool.Run(Main, env)
	return out.String(), errb.String(), code
}

func setup(t *testing.T, c diffCase) string {
	dir := t.TempDir()
	for _, m := range []map[string]string{fixtures, c.files} {
		for name, data := range m {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Symlink("target", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func snapshot(dir string, names []string) map[string]string {
	m := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			m[n] = "<missing>"
			continue
		}
		m[n] = string(b)
	}
	return m
}

// TestDifferential runs every case through this sed and GNU sed and
// compares standard output, exit status, the first line of standard
// error and the files named by the case.
func TestDifferential(t *testing.T) {
	gnu, err := exec.LookPath("sed")
	if err != nil {
		t.Skip("GNU sed not installed")
	}
	if out, _ := exec.Command(gnu, "--version").Output(); !bytes.Contains(out, []byte("GNU sed")) {
		t.Skip("sed is not GNU sed")
	}
	for _, c := range diffCases {
		name := strings.Join(c.args, " ")
		t.Run(name, func(t *testing.T) {
			gdir, odir := setup(t, c), setup(t, c)
			gout, gerr, gcode := runGNU(t, gnu, gdir, c)
			oout, oerr, ocode := runOurs(t, odir, c)
			if len(c.args) > 0 && (c.args[0] == "--version" || c.args[0] == "--help") {
				gout, oout = firstLine(gout)[:3], firstLine(oout)[:3]
			}
			if oout != gout {
				t.Errorf("stdout:\n got %q\nwant %q", oout, gout)
			}
			if ocode != gcode {
				t.Errorf("exit: got %d want %d (stderr %q)", ocode, gcode, oerr)
			}
			if !c.noStderr && firstLine(oerr) != firstLine(gerr) {
				t.Errorf("stderr:\n got %q\nwant %q", firstLine(oerr), firstLine(gerr))
			}
			if len(c.check) > 0 {
				g, o := snapshot(gdir, c.check), snapshot(odir, c.check)
				for _, n := range sortedKeys(g) {
					if g[n] != o[n] {
						t.Errorf("file %s:\n got %q\nwant %q", n, o[n], g[n])
					}
				}
			}
		})
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
