package main

import (
	"bytes"
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

// diffCases are shell snippets run once with our jq first on PATH and once
// with the system's jq; stdout and exit status must agree (and the first
// line of stderr where stderr is set).
var diffCases = []struct {
	script string
	stderr bool
}{
	{script: "jq . a.json"},
	{script: "jq -c . users.json"},
	{script: "jq .name a.json"},
	{script: "jq -r .name a.json"},
	{script: "jq -j '.tags[]' a.json; echo"},
	{script: "jq '.tags[1]' a.json"},
	{script: "jq '.tags[-1]' a.json"},
	{script: "jq '.[0:2] | length' users.json"},
	{script: "jq -r '.[].name' users.json"},
	{script: "jq -c '.[] | select(.role == \"user\")' users.json"},
	{script: "jq -c 'map(select(.age > 26) | .name)' users.json"},
	{script: "jq 'map(.age) | add' users.json"},
	{script: "jq 'map(.age) | add / length' users.json"},
	{script: "jq -c 'sort_by(.age) | map(.name)' users.json"},
	{script: "jq -S -c 'group_by(.role) | map({role: .[0].role, n: length})' users.json"},
	{script: "jq -c 'max_by(.age), min_by(.age) | .name' users.json"},
	{script: "jq -c '[.[] | .name] | join(\",\")' users.json"},
	{script: "jq -c 'map({(.name): .age}) | add' users.json"},
	{script: "jq -c 'to_entries' a.json"},
	{script: "jq -c 'with_entries(.value |= tostring)' a.json"},
	{script: "jq -c 'keys, (keys_unsorted | sort), length' a.json"},
	{script: "jq -c 'has(\"name\"), has(\"zzz\")' a.json"},
	{script: "jq -c 'del(.tags)' a.json"},
	{script: "jq -c '.age += 1' a.json"},
	{script: "jq -c '.tags |= map(ascii_upcase)' a.json"},
	{script: "jq -S -c '.new = \"v\"' a.json"},
	{script: "jq -c 'paths' nested.json"},
	{script: "jq -c '[paths(type == \"number\")]' nested.json"},
	{script: "jq -c 'getpath([\"a\",\"b\",\"c\",2,\"d\"])' nested.json"},
	{script: "jq '.a.b.c[2].d' nested.json"},
	{script: "jq -c '.. | numbers' nested.json"},
	{script: "jq -c '[.. | strings]' nested.json"},
	{script: "jq '.e // \"default\"' nested.json"},
	{script: "jq '.f // \"default\"' nested.json"},
	{script: "jq '.missing?' nested.json"},
	{script: "jq -c '.[] | type' users.json"},
	{script: "jq 'type' nested.json"},
	{script: "jq -c 'to_entries | map(.key)' nested.json"},
	{script: "jq -r '.s' nested.json | od -c | head -2"},
	{script: "jq '.n | floor, ceil, fabs, sqrt?' nested.json"},
	{script: "jq -c 'sort' nums.json"},
	{script: "jq -c 'sort | reverse' nums.json"},
	{script: "jq -c 'min, max, add, length' nums.json"},
	{script: "jq -c 'map(. * 2)' nums.json"},
	{script: "jq -c 'unique' nums.json"},
	{script: "jq -c '[.[] | select(. > 1)]' nums.json"},
	{script: "jq -c 'index(2), indices(1)' nums.json"},
	{script: "jq -c 'first, last, nth(2)' nums.json"},
	{script: "jq -c '[limit(2; .[])]' nums.json"},
	{script: "jq -c 'flatten' <<< '[1,[2,[3,[4]]]]'"},
	{script: "jq -c 'flatten(1)' <<< '[1,[2,[3,[4]]]]'"},
	{script: "jq -c 'range(5)' -n"},
	{script: "jq -c '[range(0;10;3)]' -n"},
	{script: "jq -n '[1,2,3] | reduce .[] as $x (0; . + $x)'"},
	{script: "jq -n -c '[foreach (1,2,3) as $x (0; . + $x)]'"},
	{script: "jq -n 'def f(x): x * 2; f(21)'"},
	{script: "jq -n 'def fac: if . <= 1 then 1 else . * (. - 1 | fac) end; 10 | fac'"},
	{script: "jq -n '\"a,b,c\" | split(\",\")' -c"},
	{script: "jq -n -r '\"hello\" | test(\"l+\"), ascii_upcase, ltrimstr(\"he\"), rtrimstr(\"lo\"), startswith(\"he\")'"},
	{script: "jq -n -c '\"foo bar foo\" | [match(\"foo\"; \"g\").offset]'"},
	{script: "jq -n -r '\"test 123 abc 456\" | [scan(\"[0-9]+\")] | join(\"+\")'"},
	{script: "jq -n -r '\"abc\" | sub(\"b\"; \"X\"), gsub(\"[ac]\"; \"Y\")'"},
	{script: "jq -n -c '\"x=1\" | capture(\"(?<k>[a-z])=(?<v>[0-9])\")'"},
	{script: "jq -n -r '[1,\"a\",null] | @csv'"},
	{script: "jq -n -r '[1,\"a\tb\",null] | @tsv'"},
	{script: "jq -n -r '\"<&>\" | @html'"},
	{script: "jq -n -r '\"a b&c\" | @uri'"},
	{script: "jq -n -r '\"hello\" | @base64, (@base64 | @base64d)'"},
	{script: "jq -n -r '{\"a\":1} | @json, tojson'"},
	{script: "jq -n -r '[1,2] | @sh'"},
	{script: "jq -n -r '\"x\" | \"value: \\(.)\"'"},
	{script: "jq -n '\"[1,2]\" | fromjson | length'"},
	{script: "jq -n '\"42\" | tonumber + 1'"},
	{script: "jq -n '42 | tostring | length'"},
	{script: "jq -n 'infinite | isinfinite, (nan | isnan)'"},
	{script: "jq -n '[1,2] | contains([1])'"},
	{script: "jq -n '\"foobar\" | inside(\"xfoobarx\")'"},
	{script: "jq -n -c '{\"a\":{\"b\":1}} * {\"a\":{\"c\":2}}'"},
	{script: "jq -n -c '[1,2,3] - [2]'"},
	{script: "jq -n -c '{\"a\":1} + {\"b\":2}'"},
	{script: "jq -n '10 / 4, 10 % 3, -7 % 3'"},
	{script: "jq -n -c 'try error(\"x\") catch .'"},
	{script: "jq -n -c '[.[]?]'"},
	{script: "jq -n -c 'if 1 > 2 then \"a\" elif 2 > 1 then \"b\" else \"c\" end'"},
	{script: "jq -n -c '[1,2,3] | any(. > 2), all(. > 0)'"},
	{script: "jq -n -c '[3,1] as [$a, $b] | {a: $a, b: $b}'"},
	{script: "jq -n -c '{\"k\": [1,2]} as {k: [$x, $y]} | $x + $y'"},
	{script: "jq -n -c 'label $out | foreach (1,2,3) as $i (0; . + $i; if . > 2 then ., break $out else . end)'"},
	{script: "jq -n -c '[1,[2]] | walk(if type == \"number\" then . + 1 else . end)'"},
	{script: "jq -n -c '{\"a\":1,\"b\":null} | del(..|nulls)'"},
	{script: "jq -n -c '[{\"a\":1},{\"a\":2}] | INDEX(.a)'"},
	{script: "jq -n -c '\"abc\" | explode, (explode | implode)'"},
	{script: "jq -n -c '[\"a\",\"b\"] | to_entries | from_entries'"},
	{script: "jq -n -c 'input' <<< '1 2'"},
	{script: "jq -c '[., input]' stream.json"},
	{script: "jq -n -c '[inputs]' stream.json"},
	{script: "jq -c . stream.json"},
	{script: "jq -s -c . stream.json"},
	{script: "jq -s 'length' stream.json a.json"},
	{script: "jq -c . a.json nested.json"},
	{script: "jq -R . lines.txt"},
	{script: "jq -R -s . lines.txt"},
	{script: "jq -R -r 'ascii_upcase' lines.txt"},
	{script: "jq -n -R -c '[inputs | select(length > 0)]' lines.txt"},
	{script: "jq -rR 'length' lines.txt"},
	{script: "jq -n --arg x hello '$x'"},
	{script: "jq -n --arg x 5 '$x + \"!\"'"},
	{script: "jq -n --argjson x '{\"a\":[1,2]}' -c '$x.a'"},
	{script: "jq -n --slurpfile s stream.json -c '$s'"},
	{script: "jq -n --rawfile r lines.txt '$r'"},
	{script: "jq -S -n -c '$ARGS' --args a b c"},
	{script: "jq -n -c '$ARGS.positional' --jsonargs 1 '{\"a\":2}' null"},
	{script: "jq -n -c --arg a 1 --argjson b 2 '$ARGS.named'"},
	{script: "FOO=bar jq -n -r 'env.FOO, $ENV.FOO'"},
	{script: "jq -f prog.jq users.json"},
	{script: "jq -r -f prog.jq users.json"},
	{script: "jq --tab . a.json"},
	{script: "jq --indent 4 . a.json"},
	{script: "jq --indent 1 '.tags' a.json"},
	{script: "jq --indent 0 . a.json"},
	{script: "jq -S . a.json"},
	{script: "jq -a . utf8.json"},
	{script: "jq -r .text utf8.json"},
	{script: "jq '.text | length, utf8bytelength' utf8.json"},
	{script: "jq -c '.emoji | explode' utf8.json"},
	{script: "jq -e .f nested.json; echo $?"},
	{script: "jq -e .e nested.json; echo $?"},
	{script: "jq -e .a.b nested.json >/dev/null; echo $?"},
	{script: "jq -n 'halt'; echo $?"},
	{script: "jq -n '\"bye\\n\" | halt_error'; echo $?", stderr: true},
	{script: "jq -n '{\"a\":1} | halt_error(3)'; echo $?", stderr: true},
	{script: "jq -n 'error(\"custom\")'; echo $?"},
	{script: "jq -n '1, error(\"x\"), 2'; echo $?"},
	{script: "jq '.[] | .name' a.json; echo $?"},
	{script: "jq -n '1 +'; echo $?"},
	{script: "jq -n '}'; echo $?"},
	{script: "jq . nofile; echo $?", stderr: true},
	{script: "jq . nofile a.json; echo $?"},
	{script: "jq --arg x; echo $?"},
	{script: "echo '{\"a\":1}' | jq .a"},
	{script: "echo '[1,2,3]' | jq -c 'map(. + 1)'"},
	{script: "echo '\"\\u0000\\u001f\\u007f\\ud83d\\ude00\"' | jq ."},
	{script: "echo '[0.1, 0.5, 100, 1.5e3, -0, 1e-5, 0.0001, 1e17, 1e16, 123456789012, 1.5e300, -2.5e-7, 3.0]' | jq -c ."},
	{script: "jq -n -c '[1/3, 2/3, 1e1000 | tostring]'"},
	{script: "echo '\"text\"' | jq -r ."},
	{script: "printf '{\"a\":1}{\"a\":2}' | jq .a"},
	{script: "jq -n '[limit(3; repeat(1))]' -c"},
	{script: "jq -n -c '[splits(\", \")]' <<< 'null' --arg x y || true"},
	{script: "jq -n -r '@text \"v=\\(1+1)\"'"},
	{script: "jq -n -c 'now | type'"},
	{script: "jq -n -r '0 | todate'"},
	{script: "jq -n -r '\"2015-03-05T23:51:47Z\" | fromdate'"},
	{script: "jq -n -c '1 as $x | [$x, $x+1]'"},
	{script: "jq -n -c '[1,2,3] | .[1:]'"},
	{script: "jq -n -c '\"abcdef\" | .[2:4]'"},
	{script: "jq -n -c '[3,1,2] | sort_by(-.)'"},
	{script: "jq -n -c '\"abc\" | ltrimstr(\"a\"), ltrimstr(\"x\")'"},
	{script: "jq -n -c '{} | .a.b.c = 1'"},
	{script: "jq -n -c '[1,null,2] | map(values)'"},
	{script: "jq -n -c 'splits(\"a\")' <<< '' || echo fail"},
	{script: "jq -n -c '\"a1b2\" | [splits(\"[0-9]\")]'"},
	{script: "jq -n -c 'tostream' <<< ''"},
	{script: "jq -c 'tostream' <<< '{\"a\":[1,2]}'"},
	{script: "jq -c 'fromstream(tostream)' <<< '{\"a\":[1,2]}'"},
	{script: "jq -c 'getpath([\"x\",\"y\"])' <<< '{}'"},
	{script: "jq -c 'setpath([\"x\",0]; 1)' <<< '{}'"},
	{script: "jq -c 'leaf_paths' <<< '{\"a\":{\"b\":1},\"c\":2}'"},
	{script: "jq -c 'env | type' -n"},
	{script: "jq -c 'input_filename' a.json"},
	{script: "jq -c 'ascii' -n <<< '' || true"},
	{script: "jq -c 'splits' -n 2>/dev/null; echo $?"},
}

func buildNative(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "jq")
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

func TestDifferentialJQ(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs jq")
	}
	sysJQ, err := exec.LookPath("jq")
	if err != nil {
		t.Skip("jq not installed (apt-get install jq)")
	}
	ours := buildNative(t)
	oracle := filepath.Dir(sysJQ)
	sysPath := os.Getenv("PATH")
	for _, c := range diffCases {
		t.Run(strings.ReplaceAll(c.script, "/", "∕"), func(t *testing.T) {
			want := runScript(t, c.script, oracle+":"+sysPath)
			got := runScript(t, c.script, ours+":"+sysPath)
			if got.stdout != want.stdout {
				t.Errorf("stdout differs\n got: %q\nwant: %q", got.stdout, want.stdout)
			}
			if got.code != want.code {
				t.Errorf("exit status %d, jq %d (stderr %q, jq %q)", got.code, want.code, got.stderr, want.stderr)
			}
			if c.stderr {
				w := firstLine(want.stderr)
				if g := firstLine(got.stderr); g != w {
					t.Errorf("stderr differs\n got: %q\nwant: %q", g, w)
				}
			}
		})
	}
}
