package jq

import (
	"bytes"
	"strings"
	"testing"

	"github.com/itchyny/gojq"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// runMerged runs jq with stdout and stderr written to one buffer, so
// that the order of results and messages shows.
func runMerged(stdin string, args ...string) (string, int) {
	var b bytes.Buffer
	env := &tool.Env{Args: args, Stdin: strings.NewReader(stdin), Stdout: &b, Stderr: &b}
	code := tool.Run(Main, env)
	return b.String(), code
}

// loopCases are filters over several inputs, with errors, halts and
// breaks among them.
var loopCases = []struct {
	args  []string // options before the filter
	flt   string
	stdin string
}{
	{nil, ".", "1 2 3"},
	{[]string{"-c"}, "select(.a > 1) | .b", `{"a":1,"b":"x"} {"a":2,"b":"y"} {"a":3,"b":[1]}`},
	{nil, ". + 1", `1 "a" 2 {"x":1} 3`},
	{nil, ".[] | . + 1", `[1,"a",2] [3]`},
	{nil, `if . == 2 then error("boom") else . end`, "1 2 3"},
	{nil, `if . == 2 then error(null) else . end`, "1 2 3"},
	{[]string{"-c"}, `if . == 2 then error({"a":1}) else . end`, "1 2 3"},
	{nil, `if . == 2 then halt else . end`, "1 2 3"},
	{nil, `if . == 2 then "x\n" | halt_error(3) else . end`, "1 2 3"},
	{nil, `if . == 2 then {"a":1} | halt_error else . end`, "1 2 3"},
	{nil, `1, halt, 2`, "1 2"},
	{[]string{"-c"}, "label $f | ., break $f", "1 2"},
	{[]string{"-c"}, "limit(1; .[])", "[1,2,3] [4,5]"},
	{[]string{"-c"}, "first(.[]), last", "[1,2] [3]"},
	{nil, "try error(.) catch . + 1", "1 2"},
	{nil, "(.a // error) | tostring", `{"a":1} {} {"a":2}`},
	{nil, "def f: . * 10; f", "1 2"},
	{nil, "f", "1 2"},
	{nil, "$x", "1 2"},
	{[]string{"--arg", "x", "y", "-c"}, "[., $x, $ARGS.named]", "1 2"},
	{[]string{"-c"}, "reduce .[] as $x (0; . + $x)", "[1,2] [3] []"},
	{[]string{"-c"}, "path(..)", `{"a":[1]} 2`},
	{[]string{"-c"}, ".a = 1, (.b |= . + 1)", `{"b":1} {"b":"s"} {"b":2}`},
	{nil, "debug | . * 2", "1 2"},
	{nil, "stderr | . * 2", "1 2"},
	{nil, ".", "1 2 {"},
	{nil, ".", `1 [2,,] 3`},
	{[]string{"-e"}, ".", "1 false"},
	{[]string{"-e"}, ".", "false 1"},
	{[]string{"-e"}, "empty", "1 2"},
	{[]string{"-e"}, "error", `"x" 1`},
	{[]string{"-r"}, ".[]", `["a","b"] ["c"]`},
	{[]string{"-R"}, "ascii_upcase, length", "ab\ncd\n"},
	{[]string{"-R", "-c"}, "fromjson", "1\nx\n[2]\n"},
	{nil, "1 +", "1"},
	{nil, "$__loc__", "1 2"},
	{nil, "[., input]", "1 2 3 4"},
	{nil, "input_filename", "1 2"},
	{nil, "getpath([\"a\",0])", `{"a":[7]} null 3`},
	{nil, "tostream", `{"a":[1]} [2]`},
	// The loop remakes each input of the arrays and objects of the one
	// before (decoder.setRecycle): results that hold them must not change.
	{[]string{"-c"}, "., .a, .a[1], [.a[], .b], {x: ., y: .b}", `{"a":[1,{"c":2}],"b":{"d":[3]}} {"a":[4,{"e":5}],"b":{}} {"a":[6,[7]],"b":[8,9,10]}`},
	{[]string{"-c"}, "to_entries, keys, [.[]], (.b |= . + 1), del(.a), .b += 1", `{"a":1,"b":2} {"b":3,"c":{"a":1}} {"a":[],"b":4}`},
	{[]string{"-c"}, ". + [.[0]], (.[0] = 9), .[1:], sort, reverse", `[3,1,2] [5,4] [[1],[2,3]]`},
	{[]string{"-c"}, "map(. * 2), [paths], [leaf_paths], tojson", `[1,2] [3,4,5] [] [6]`},
	{[]string{"-c"}, "if .a then error(.) else . end", `{"a":{"b":1}} {"b":[2]} {"a":[3]}`},
	{[]string{"-e", "-c"}, ".", `{"a":1} {}`},
	{[]string{"-e", "-c"}, ".a", `{"a":{"b":1}} {"a":false}`},
	{[]string{"-c"}, "length, .k9", `{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10} {"k1":1} {"k9":[1,2]}`},
}

// TestLoopSameAsEachInput checks that running a filter once over all its
// inputs (inputLoop) is indistinguishable from running it on each input
// in turn: the same results, messages, their order and the exit status.
// A comment that mentions input makes a filter run on each input alone.
func TestLoopSameAsEachInput(t *testing.T) {
	for _, tc := range loopCases {
		args := append(append([]string{"jq"}, tc.args...), tc.flt)
		got, gotCode := runMerged(tc.stdin, args...)
		args[len(args)-1] = tc.flt + "\n# input"
		want, wantCode := runMerged(tc.stdin, args...)
		if got != want || gotCode != wantCode {
			t.Errorf("jq %q <<< %q:\nloop:      %q, status %d\neach input: %q, status %d", args[1:len(args)-1], tc.stdin+" | "+tc.flt, got, gotCode, want, wantCode)
		}
	}
}

// TestLoop checks results over several inputs against what jq 1.7.1
// prints, and which filters run through the loop.
func TestLoop(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		out   string
		code  int
	}{
		{[]string{"jq", ". + 1"}, `1 "a" 2`, "2\njq: error (at <stdin>:0): cannot add: string (\"a\") and number (1)\n3\n", 5},
		{[]string{"jq", ".[] | . + 1"}, `[1,"a",2] [3]`, "2\njq: error (at <stdin>:0): cannot add: string (\"a\") and number (1)\n4\n", 5},
		{[]string{"jq", "-c", `if . == 2 then error({"a":1}) else . end`}, "1 2 3", "1\njq: error (at <stdin>:0) (not a string): {\"a\":1}\n3\n", 5},
		{[]string{"jq", `if . == 2 then error(null) else . end`}, "1 2 3", "1\njq: error (at <stdin>:0) (not a string): null\n3\n", 5},
		{[]string{"jq", `if . == 2 then "x\n" | halt_error(3) else . end`}, "1 2 3", "1\nx\n", 3},
		{[]string{"jq", "."}, "1 2 {", "1\n2\njq: parse error: Unfinished JSON term at EOF\n", 2},
		{[]string{"jq", "f"}, "1", "jq: error: function not defined: f/0\njq: 1 compile error\n", 3},
	}
	for _, tc := range tests {
		out, code := runMerged(tc.stdin, tc.args...)
		if out != tc.out || code != tc.code {
			t.Errorf("%q <<< %q: got %q, status %d; want %q, status %d", tc.args, tc.stdin, out, code, tc.out, tc.code)
		}
	}
	for flt, want := range map[string]bool{
		".":                     true,
		"select(.a) | .b":       true,
		"input":                 false,
		"[inputs]":              false,
		"input_filename":        false,
		"$__loc__":              false,
		`"inputs are strings"`:  false,
		`include "m"; .`:        false,
		`import "m" as m; m::f`: false,
	} {
		q, err := gojq.Parse(flt)
		if err != nil {
			t.Fatalf("%s: %v", flt, err)
		}
		if got := loopable(flt, q); got != want {
			t.Errorf("loopable(%q) = %v, want %v", flt, got, want)
		}
	}
}
