package main

import (
	"github.com/wasmsand/wasmsand/wasm/guest/internal/difftest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is the tree every differential case starts from. Object keys are
// sorted: this jq always prints them sorted (see DIFFERENCES.md).
var fixture = map[string]string{
	"a.json":      `{"age":30,"name":"alice","tags":["x","y"]}`,
	"users.json":  `[{"age":30,"name":"alice","role":"admin"},{"age":25,"name":"bob","role":"user"},{"age":35,"name":"carol","role":"user"}]`,
	"nested.json": `{"a":{"b":{"c":[1,2,{"d":"deep"}]}},"e":null,"f":false,"n":-1.5,"s":"str\u00e9\n"}`,
	"stream.json": "1 2\n3\n\"four\" [5]\n{\"six\":6}\n",
	"lines.txt":   "alpha\nbeta\n\ngamma\n",
	"bad.json":    `{"a":1,}`,
	"prog.jq":     ".[] | select(.age > 26) | .name\n",
	"nums.json":   "[3,1,2,10,-4.5,0]",
	"utf8.json":   `{"emoji":"😀","text":"héllo wörld"}`,
	"objs.json":   `{"a":[1,{"c":2}],"b":{"d":[3]}} {"a":[4,{"e":5}],"b":{}} {"a":[6,[7]],"b":[8,9,10]} {"a":[],"b":null}`,
	"wide.json":   `{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10} {"k1":1} {"k9":[1,2]}`,
	"strs.json":   `{"s":"north","t":"é"} {"s":"nort\u0068","t":"\u00e9"} {"s":"north\n","t":"é"} {"s":"` + strings.Repeat("long ", 10) + `","t":"😀"} {"s":"` + strings.Repeat("long ", 10) + `","t":"\ud83d\ude00"}`,
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

// diffCases are shell snippets run once with our jq first on PATH and once
// with the system's jq; stdout and exit status must agree (and the first
// line of stderr where stderr is set).
var diffCases = []difftest.Case{
	{Script: "jq . a.json"},
	{Script: "jq -c . users.json"},
	{Script: "jq .name a.json"},
	{Script: "jq -r .name a.json"},
	{Script: "jq -j '.tags[]' a.json; echo"},
	{Script: "jq '.tags[1]' a.json"},
	{Script: "jq '.tags[-1]' a.json"},
	{Script: "jq '.[0:2] | length' users.json"},
	{Script: "jq -r '.[].name' users.json"},
	{Script: "jq -c '.[] | select(.role == \"user\")' users.json"},
	{Script: "jq -c 'map(select(.age > 26) | .name)' users.json"},
	{Script: "jq 'map(.age) | add' users.json"},
	{Script: "jq 'map(.age) | add / length' users.json"},
	{Script: "jq -c 'sort_by(.age) | map(.name)' users.json"},
	{Script: "jq -S -c 'group_by(.role) | map({role: .[0].role, n: length})' users.json"},
	{Script: "jq -c 'max_by(.age), min_by(.age) | .name' users.json"},
	{Script: "jq -c '[.[] | .name] | join(\",\")' users.json"},
	{Script: "jq -c 'map({(.name): .age}) | add' users.json"},
	{Script: "jq -c 'to_entries' a.json"},
	{Script: "jq -c 'with_entries(.value |= tostring)' a.json"},
	{Script: "jq -c 'keys, (keys_unsorted | sort), length' a.json"},
	{Script: "jq -c 'has(\"name\"), has(\"zzz\")' a.json"},
	{Script: "jq -c 'del(.tags)' a.json"},
	{Script: "jq -c '.age += 1' a.json"},
	{Script: "jq -c '.tags |= map(ascii_upcase)' a.json"},
	{Script: "jq -S -c '.new = \"v\"' a.json"},
	{Script: "jq -c 'paths' nested.json"},
	{Script: "jq -c '[paths(type == \"number\")]' nested.json"},
	{Script: "jq -c 'getpath([\"a\",\"b\",\"c\",2,\"d\"])' nested.json"},
	{Script: "jq '.a.b.c[2].d' nested.json"},
	{Script: "jq -c '.. | numbers' nested.json"},
	{Script: "jq -c '[.. | strings]' nested.json"},
	{Script: "jq '.e // \"default\"' nested.json"},
	{Script: "jq '.f // \"default\"' nested.json"},
	{Script: "jq '.missing?' nested.json"},
	{Script: "jq -c '.[] | type' users.json"},
	{Script: "jq 'type' nested.json"},
	{Script: "jq -c 'to_entries | map(.key)' nested.json"},
	{Script: "jq -r '.s' nested.json | od -c | head -2"},
	{Script: "jq '.n | floor, ceil, fabs, sqrt?' nested.json"},
	{Script: "jq -c 'sort' nums.json"},
	{Script: "jq -c 'sort | reverse' nums.json"},
	{Script: "jq -c 'min, max, add, length' nums.json"},
	{Script: "jq -c 'map(. * 2)' nums.json"},
	{Script: "jq -c 'unique' nums.json"},
	{Script: "jq -c '[.[] | select(. > 1)]' nums.json"},
	{Script: "jq -c 'index(2), indices(1)' nums.json"},
	{Script: "jq -c 'first, last, nth(2)' nums.json"},
	{Script: "jq -c '[limit(2; .[])]' nums.json"},
	{Script: "jq -c 'flatten' <<< '[1,[2,[3,[4]]]]'"},
	{Script: "jq -c 'flatten(1)' <<< '[1,[2,[3,[4]]]]'"},
	{Script: "jq -c 'range(5)' -n"},
	{Script: "jq -c '[range(0;10;3)]' -n"},
	{Script: "jq -n '[1,2,3] | reduce .[] as $x (0; . + $x)'"},
	{Script: "jq -n -c '[foreach (1,2,3) as $x (0; . + $x)]'"},
	{Script: "jq -n 'def f(x): x * 2; f(21)'"},
	{Script: "jq -n 'def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; 10 | fac'"},
	{Script: "jq -n '\"a,b,c\" | split(\",\")' -c"},
	{Script: "jq -n -r '\"hello\" | test(\"l+\"), ascii_upcase, ltrimstr(\"he\"), rtrimstr(\"lo\"), startswith(\"he\")'"},
	{Script: "jq -n -c '\"foo bar foo\" | [match(\"foo\"; \"g\").offset]'"},
	{Script: "jq -n -r '\"test 123 abc 456\" | [scan(\"[0-9]+\")] | join(\"+\")'"},
	{Script: "jq -n -r '\"abc\" | sub(\"b\"; \"X\"), gsub(\"[ac]\"; \"Y\")'"},
	{Script: "jq -n -c '\"x=1\" | capture(\"(?<k>[a-z])=(?<v>[0-9])\")'"},
	{Script: "jq -n -r '[1,\"a\",null] | @csv'"},
	{Script: "jq -n -r '[1,\"a\tb\",null] | @tsv'"},
	{Script: "jq -n -r '\"<&>\" | @html'"},
	{Script: "jq -n -r '\"a b&c\" | @uri'"},
	{Script: "jq -n -r '\"hello\" | @base64, (@base64 | @base64d)'"},
	{Script: "jq -n -r '{\"a\":1} | @json, tojson'"},
	{Script: "jq -n -r '[1,2] | @sh'"},
	{Script: "jq -n -r '\"x\" | \"value: \\(.)\"'"},
	{Script: "jq -n '\"[1,2]\" | fromjson | length'"},
	{Script: "jq -n '\"42\" | tonumber + 1'"},
	{Script: "jq -n '42 | tostring | length'"},
	{Script: "jq -n 'infinite | isinfinite, (nan | isnan)'"},
	{Script: "jq -n '[1,2] | contains([1])'"},
	{Script: "jq -n '\"foobar\" | inside(\"xfoobarx\")'"},
	{Script: "jq -n -c '{\"a\":{\"b\":1}} * {\"a\":{\"c\":2}}'"},
	{Script: "jq -n -c '[1,2,3] - [2]'"},
	{Script: "jq -n -c '{\"a\":1} + {\"b\":2}'"},
	{Script: "jq -n '10 / 4, 10 % 3, -7 % 3'"},
	{Script: "jq -n -c 'try error(\"x\") catch .'"},
	{Script: "jq -n -c '[.[]?]'"},
	{Script: "jq -n -c 'if 1 > 2 then \"a\" elif 2 > 1 then \"b\" else \"c\" end'"},
	{Script: "jq -n -c '[1,2,3] | any(. > 2), all(. > 0)'"},
	{Script: "jq -n -c '[3,1] as [$a, $b] | {a: $a, b: $b}'"},
	{Script: "jq -n -c '{\"k\": [1,2]} as {k: [$x, $y]} | $x + $y'"},
	{Script: "jq -n -c 'label $out | foreach (1,2,3) as $i (0; . + $i; if . > 2 then ., break $out else . end)'"},
	{Script: "jq -n -c '[1,[2]] | walk(if type == \"number\" then . + 1 else . end)'"},
	{Script: "jq -n -c '{\"a\":1,\"b\":null} | del(..|nulls)'"},
	{Script: "jq -n -c '[{\"a\":1},{\"a\":2}] | INDEX(.a)'"},
	{Script: "jq -n -c '\"abc\" | explode, (explode | implode)'"},
	{Script: "jq -n -c '[\"a\",\"b\"] | to_entries | from_entries'"},
	{Script: "jq -n -c 'input' <<< '1 2'"},
	{Script: "jq -c '[., input]' stream.json"},
	{Script: "jq -n -c '[inputs]' stream.json"},
	{Script: "jq -c . stream.json"},
	{Script: "jq -s -c . stream.json"},
	{Script: "jq -s 'length' stream.json a.json"},
	{Script: "jq -c . a.json nested.json"},
	{Script: "jq -R . lines.txt"},
	{Script: "jq -R -s . lines.txt"},
	{Script: "jq -R -r 'ascii_upcase' lines.txt"},
	{Script: "jq -n -R -c '[inputs | select(length > 0)]' lines.txt"},
	{Script: "jq -rR 'length' lines.txt"},
	{Script: "jq -n --arg x hello '$x'"},
	{Script: "jq -n --arg x 5 '$x + \"!\"'"},
	{Script: "jq -n --argjson x '{\"a\":[1,2]}' -c '$x.a'"},
	{Script: "jq -n --slurpfile s stream.json -c '$s'"},
	{Script: "jq -n --rawfile r lines.txt '$r'"},
	{Script: "jq -S -n -c '$ARGS' --args a b c"},
	{Script: "jq -n -c '$ARGS.positional' --jsonargs 1 '{\"a\":2}' null"},
	{Script: "jq -n -c --arg a 1 --argjson b 2 '$ARGS.named'"},
	{Script: "FOO=bar jq -n -r 'env.FOO, $ENV.FOO'"},
	{Script: "jq -f prog.jq users.json"},
	{Script: "jq -r -f prog.jq users.json"},
	{Script: "jq --tab . a.json"},
	{Script: "jq --indent 4 . a.json"},
	{Script: "jq --indent 1 '.tags' a.json"},
	{Script: "jq --indent 0 . a.json"},
	{Script: "jq -S . a.json"},
	{Script: "jq -a . utf8.json"},
	{Script: "jq -r .text utf8.json"},
	{Script: "jq '.text | length, utf8bytelength' utf8.json"},
	{Script: "jq -c '.emoji | explode' utf8.json"},
	{Script: "jq -e .f nested.json; echo $?"},
	{Script: "jq -e .e nested.json; echo $?"},
	{Script: "jq -e .a.b nested.json >/dev/null; echo $?"},
	{Script: "jq -n 'halt'; echo $?"},
	{Script: "jq -n '\"bye\\n\" | halt_error'; echo $?", Stderr: true},
	{Script: "jq -n '{\"a\":1} | halt_error(3)'; echo $?", Stderr: true},
	{Script: "jq -n 'error(\"custom\")'; echo $?"},
	{Script: "jq -n '1, error(\"x\"), 2'; echo $?"},
	{Script: "jq '.[] | .name' a.json; echo $?"},
	{Script: "jq -n '1 +'; echo $?"},
	{Script: "jq -n '}'; echo $?"},
	{Script: "jq . nofile; echo $?", Stderr: true},
	{Script: "jq . nofile a.json; echo $?"},
	{Script: "jq --arg x; echo $?"},
	{Script: "echo '{\"a\":1}' | jq .a"},
	{Script: "echo '[1,2,3]' | jq -c 'map(. + 1)'"},
	{Script: "echo '\"\\u0000\\u001f\\u007f\\ud83d\\ude00\"' | jq ."},
	{Script: "echo '[0.1, 0.5, 100, 1.5e3, -0, 1e-5, 0.0001, 1e17, 1e16, 123456789012, 1.5e300, -2.5e-7, 3.0]' | jq -c ."},
	{Script: "jq -n -c '[1/3, 2/3, 1e1000 | tostring]'"},
	{Script: "echo '\"text\"' | jq -r ."},
	{Script: "printf '{\"a\":1}{\"a\":2}' | jq .a"},
	{Script: "printf '1 2\\n[3]{\"a\":\"\\\\ud83d\\\\ude00\"}\"x\"true null' | jq -c ."},
	{Script: "printf '[\"\\\\u00e9\\\\t\\\\/\\\\\\\\\", \"a\\303\\251b\\342\\202\\254\"]' | jq -c ."},
	{Script: "echo '[1e1000, -1e1000, 1E2, 0.5e-3, -0.0, 123456789012345678]' | jq -c ."},
	{Script: "echo '{\"a\":{\"b\":[{\"c\":null}, {\"c\":[]}]}} ' | jq -c '.a.b[1], .a'"},
	{Script: "jq -n '[limit(3; repeat(1))]' -c"},
	{Script: "jq -n -c '[splits(\", \")]' <<< 'null' --arg x y || true"},
	{Script: "jq -n -r '@text \"v=\\(1+1)\"'"},
	{Script: "jq -n -c 'now | type'"},
	{Script: "jq -n -r '0 | todate'"},
	{Script: "jq -n -r '\"2015-03-05T23:51:47Z\" | fromdate'"},
	{Script: "jq -n -c '1 as $x | [$x, $x+1]'"},
	{Script: "jq -n -c '[1,2,3] | .[1:]'"},
	{Script: "jq -n -c '\"abcdef\" | .[2:4]'"},
	{Script: "jq -n -c '[3,1,2] | sort_by(-.)'"},
	{Script: "jq -n -c '\"abc\" | ltrimstr(\"a\"), ltrimstr(\"x\")'"},
	{Script: "jq -n -c '{} | .a.b.c = 1'"},
	{Script: "jq -n -c '[1,null,2] | map(values)'"},
	{Script: "jq -n -c 'splits(\"a\")' <<< '' || echo fail"},
	{Script: "jq -n -c '\"a1b2\" | [splits(\"[0-9]\")]'"},
	{Script: "jq -n -c 'tostream' <<< ''"},
	{Script: "jq -c 'tostream' <<< '{\"a\":[1,2]}'"},
	{Script: "jq -c 'fromstream(tostream)' <<< '{\"a\":[1,2]}'"},
	{Script: "jq -c 'getpath([\"x\",\"y\"])' <<< '{}'"},
	{Script: "jq -c 'setpath([\"x\",0]; 1)' <<< '{}'"},
	{Script: "jq -c 'leaf_paths' <<< '{\"a\":{\"b\":1},\"c\":2}'"},
	{Script: "jq -c 'env | type' -n"},
	{Script: "jq -c 'input_filename' a.json"},
	{Script: "jq -c 'ascii' -n <<< '' || true"},
	{Script: "jq -c 'splits' -n 2>/dev/null; echo $?"},
	// Many inputs through one filter (jq's loop over inputs): errors
	// end one input's results and the next input goes on. (halt, and a
	// parse error after good inputs, are tested in package
	// internal/jq: jq 1.6 goes on after halt and ends with 4.)
	{Script: "printf '{\"a\":1,\"b\":\"x\"} {\"a\":2,\"b\":\"y\"} {\"a\":3,\"b\":[1]}' | jq -c 'select(.a > 1) | .b'"},
	{Script: "printf '[1,\"a\",2] [3]' | jq '.[] | . + 1' 2>/dev/null; echo end"},
	{Script: "printf '1 2 3' | jq 'if . == 2 then error(\"boom\") else . end' 2>/dev/null; echo end"},
	{Script: "printf '[1,2,3] [4,5]' | jq -c 'limit(1; .[]), first(.[])'"},
	{Script: "printf '1 2' | jq -c 'label $f | ., break $f'"},
	{Script: "printf '1 2' | jq -c 'def f: . * 10; f, (try error(.) catch . + 1)'"},
	{Script: "printf 'ab\\ncd\\n' | jq -R 'ascii_upcase, length'"},
	{Script: "jq -c '.[] | {name}' users.json stream.json 2>/dev/null; echo end"},
	// Each input is made of the arrays and objects of the one before
	// (the loop recycles them): results that hold them, nested or whole.
	{Script: "jq -c '., .a, .a[1], {x: ., y: .b}, to_entries' objs.json"},
	{Script: "jq -c 'if .a[0] == 4 then error(.) else .b end' objs.json 2>/dev/null; echo end"},
	{Script: "jq -e -c '.b' objs.json; echo $?"},
	{Script: "jq -c 'length, .k9' wide.json"},
	// Strings that recur across inputs (the decoder's string cache),
	// escaped or not, and longer than it keeps.
	{Script: "jq -r '.s' strs.json"},
	{Script: "jq -a -c '[.s, .t]' strs.json"},
}

func TestDifferentialJQ(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs jq")
	}
	sysJQ, err := exec.LookPath("jq")
	if err != nil {
		t.Skip("jq not installed (apt-get install jq)")
	}
	oracle := filepath.Dir(sysJQ)
	h := &difftest.Harness{
		Module:            "jq",
		Reference:         "jq",
		ReferencePath:     oracle,
		Setup:             setupFixture,
		Locale:            "C.UTF-8",
		FirstLineOfStderr: true,
	}
	h.Run(t, diffCases)
}
