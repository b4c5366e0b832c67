package jq

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func TestCases(t *testing.T) {
	tests := []struct {
		args   []string
		stdin  string
		stdout string
		code   int
	}{
		{args: []string{"jq", "."}, stdin: `{"b":1,"a":[1,{}]}`, stdout: "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": 1\n}\n"},
		{args: []string{"jq", "-c", "."}, stdin: `{"b":1,"a":[]}`, stdout: "{\"a\":[],\"b\":1}\n"},
		{args: []string{"jq", "-c", "."}, stdin: `{"z":{"y":1,"x":{"b":2,"a":3}},"a":{"d":4,"c":5}} {"q":1,"p":{"n":0,"m":1}}`, stdout: "{\"a\":{\"c\":5,\"d\":4},\"z\":{\"x\":{\"a\":3,\"b\":2},\"y\":1}}\n{\"p\":{\"m\":1,\"n\":0},\"q\":1}\n"},
		{args: []string{"jq", "--tab", "."}, stdin: `[1]`, stdout: "[\n\t1\n]\n"},
		{args: []string{"jq", "--indent", "1", "."}, stdin: `[1]`, stdout: "[\n 1\n]\n"},
		{args: []string{"jq", "-r", ".[]"}, stdin: `["a","b"]`, stdout: "a\nb\n"},
		{args: []string{"jq", "-j", ".[]"}, stdin: `["a",1]`, stdout: "a1"},
		{args: []string{"jq", "-a", "."}, stdin: `"é😀"`, stdout: "\"\\u00e9\\ud83d\\ude00\"\n"},
		{args: []string{"jq", "-c", "."}, stdin: `[1.0,1e-5,1e17,0.1,-0]`, stdout: "[1,1e-05,1e+17,0.1,-0]\n"},
		{args: []string{"jq", "-n", "--arg", "x", "1", "--argjson", "y", "2", "-c", "[$x,$y]"}, stdout: "[\"1\",2]\n"},
		{args: []string{"jq", "-n", "-c", "$ARGS", "--args", "a"}, stdout: "{\"named\":{},\"positional\":[\"a\"]}\n"},
		{args: []string{"jq", "-s", "-c", "."}, stdin: "1 2", stdout: "[1,2]\n"},
		{args: []string{"jq", "-R", "."}, stdin: "x\ny", stdout: "\"x\"\n\"y\"\n"},
		{args: []string{"jq", "-Rs", "."}, stdin: "x\ny", stdout: "\"x\\ny\"\n"},
		{args: []string{"jq", "-e", "."}, stdin: "false", stdout: "false\n", code: 1},
		{args: []string{"jq", "-e", "empty"}, stdin: "1", code: 4},
		{args: []string{"jq", ".a"}, stdin: "1", code: 5},
		{args: []string{"jq", "-n", "1 +"}, code: 3},
		{args: []string{"jq", "."}, stdin: "{", code: 2},
		{args: []string{"jq", "--nope"}, code: 2},
		{args: []string{"jq", "-n", "\"x\" | halt_error(7)"}, code: 7},
		{args: []string{"jq", "-c", "keys_unsorted, [leaf_paths]"}, stdin: `{"b":{"c":1},"a":2}`, stdout: "[\"a\",\"b\"]\n[[\"a\"],[\"b\",\"c\"]]\n"},
	}
	for _, tc := range tests {
		out, _, code := tool.Exec(Main, tc.stdin, tc.args...)
		if out != tc.stdout || code != tc.code {
			t.Errorf("%q: got (%q, %d), want (%q, %d)", tc.args, out, code, tc.stdout, tc.code)
		}
	}
}
