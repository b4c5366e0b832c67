package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func runCode(t *testing.T, sb *Sandbox, req CodeRequest) *CodeResult {
	t.Helper()
	if req.Timeout == 0 {
		req.Timeout = MaxCodeTimeout // room for a loaded test machine
	}
	res, err := sb.RunCode(context.Background(), req)
	if err != nil {
		t.Fatalf("RunCode: %v", err)
	}
	return res
}

func TestRunCodeValidation(t *testing.T) {
	sb := newTest(t, Options{})
	cases := []struct {
		req  CodeRequest
		want string
	}{
		{CodeRequest{Code: ""}, "code is required"},
		{CodeRequest{Code: "  \n"}, "code is required"},
		{CodeRequest{Code: strings.Repeat("1;", 6001)}, "the most is 12000"},
		{CodeRequest{Language: "python", Code: "1"}, "not a runCode language yet"},
		{CodeRequest{Language: "bash", Code: "1"}, "not a runCode language yet"},
		{CodeRequest{Language: "ruby", Code: "1"}, "not supported"},
		{CodeRequest{Code: "1", Bridges: map[string]Bridge{"a-b": {Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }}}}, "not a JavaScript identifier"},
		{CodeRequest{Code: "1", Bridges: map[string]Bridge{"f": {}}}, "has no function"},
	}
	for _, c := range cases {
		_, err := sb.RunCode(context.Background(), c.req)
		var ce *CodeError
		if !errors.As(err, &ce) || ce.Code != CodeValidation || ce.Name != "ValidationError" || !strings.Contains(ce.Message, c.want) {
			t.Errorf("%+v: got %v, want a ValidationError containing %q", c.req.Language, err, c.want)
		}
	}
	// 12,000 characters exactly is fine.
	res := runCode(t, sb, CodeRequest{Code: strings.Repeat(" ", 11998) + "42"})
	if !res.OK || string(res.Result) != "42" {
		t.Errorf("12,000 characters: %+v", res)
	}
}

func TestRunCodeClamp(t *testing.T) {
	for _, c := range []struct {
		in, want time.Duration
		warn     bool
	}{
		{0, DefaultCodeTimeout, false},
		{time.Millisecond, MinCodeTimeout, true},
		{time.Hour, MaxCodeTimeout, true},
		{time.Second, time.Second, false},
	} {
		got, warnings, err := ValidateCode(CodeRequest{Code: "1", Timeout: c.in})
		if err != nil || got != c.want || (len(warnings) > 0) != c.warn {
			t.Errorf("timeout %v: got %v %v %v", c.in, got, warnings, err)
		}
	}
	sb := newTest(t, Options{})
	res := runCode(t, sb, CodeRequest{Code: "1", Timeout: time.Hour})
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "lowered to the maximum") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

func TestRunCodeResults(t *testing.T) {
	sb := newTest(t, Options{})
	cases := []struct{ code, want string }{
		{"1 + 2", "3"},
		{"const x = 5; x * 2", "10"},
		{"return 'returned'", `"returned"`},
		{"await new Promise(r => setTimeout(() => r('late'), 20))", `"late"`},
		{"Promise.resolve({a: [1, 2]})", `{"a":[1,2]}`},
		{"const a = {n: 1}; a.self = a; a", `{"n":1,"self":"[Circular]"}`},
		{"10n ** 20n", `"100000000000000000000"`},
		{"new Map([['a', 1], ['b', new Set([1, 2])]])", `{"a":1,"b":[1,2]}`},
		{"new Map([[1, 'one']])", `[[1,"one"]]`},
		{"new Date(0)", `"1970-01-01T00:00:00.000Z"`},
		{"({f: function named() {}, g: () => 1, s: Symbol('x'), u: undefined, n: NaN, i: -Infinity})", `{"f":"[Function: named]","g":"[Function: g]","s":"Symbol(x)","n":"NaN","i":"-Infinity"}`},
		{"let v; for (let i = 0; i < 3; i++) v = i;", "null"},
		{"console.log('no value')", "null"},
		{"[undefined, null]", "[null,null]"},
		{"1;\n(2 + 3) * 2 // comment", "10"},
		{"const o = {a: 1};\n((o.a))", "1"},
		{"if (true) { 5 }", "null"},
		{"new Uint8Array([1, 2])", "[1,2]"},
	}
	for _, c := range cases {
		res := runCode(t, sb, CodeRequest{Code: c.code})
		if !res.OK || string(res.Result) != c.want {
			t.Errorf("%s: got %s (ok %v, error %v, warnings %q), want %s", c.code, res.Result, res.OK, res.Error, res.Warnings, c.want)
		}
	}
	// An error becomes {name, message, stack}.
	res := runCode(t, sb, CodeRequest{Code: "new TypeError('bad')"})
	var e struct{ Name, Message, Stack string }
	if err := json.Unmarshal(res.Result, &e); err != nil || e.Name != "TypeError" || e.Message != "bad" || e.Stack == "" {
		t.Errorf("error result %s", res.Result)
	}
}

func TestRunCodeSanitizerLimits(t *testing.T) {
	sb := newTest(t, Options{})
	// Depth 11 is cut at 10.
	res := runCode(t, sb, CodeRequest{Code: "let o = {v: 'leaf'}; for (let i = 0; i < 11; i++) o = {o}; o"})
	if !strings.Contains(string(res.Result), `"[Object]"`) || !hasWarning(res, "deeper than 10") {
		t.Errorf("depth: %s %q", res.Result, res.Warnings)
	}
	if strings.Count(string(res.Result), "{") != 10 {
		t.Errorf("depth: %d levels in %s", strings.Count(string(res.Result), "{"), res.Result)
	}
	// A 1 MB string is cut with a warning.
	res = runCode(t, sb, CodeRequest{Code: "'x'.repeat(1 << 20)"})
	if len(res.Result) > 200_000 || !hasWarning(res, "string of 1048576 characters was cut") {
		t.Errorf("1 MB string: %d bytes, %q", len(res.Result), res.Warnings)
	}
	// A long array is cut too.
	res = runCode(t, sb, CodeRequest{Code: "Array.from({length: 5000}, (_, i) => i)"})
	var arr []any
	if err := json.Unmarshal(res.Result, &arr); err != nil || len(arr) != 1001 || !hasWarning(res, "5000 items") {
		t.Errorf("long array: %d items, %q", len(arr), res.Warnings)
	}
	res = runCode(t, sb, CodeRequest{Code: "const c = [1]; c.push(c); c"})
	if string(res.Result) != `[1,"[Circular]"]` || !hasWarning(res, "circular") {
		t.Errorf("circular: %s %q", res.Result, res.Warnings)
	}
}

func hasWarning(res *CodeResult, s string) bool {
	for _, w := range res.Warnings {
		if strings.Contains(w, s) {
			return true
		}
	}
	return false
}

func TestRunCodeConsole(t *testing.T) {
	sb := newTest(t, Options{})
	res := runCode(t, sb, CodeRequest{Code: "console.log('a', {b: 1}); console.error('e'); console.warn('w'); process.stdout.write('raw\\n'); 7"})
	if res.Stdout != "a { b: 1 }\nraw\n" || res.Stderr != "e\nw\n" || string(res.Result) != "7" {
		t.Errorf("got %+v", res)
	}
	res = runCode(t, sb, CodeRequest{Code: "for (let i = 0; i < 150; i++) { console.log(i); console.error(i) } 'done'"})
	if strings.Count(res.Stdout, "\n") != 100 || strings.Count(res.Stderr, "\n") != 100 || !hasWarning(res, "stdout was cut at 100 lines") || !hasWarning(res, "stderr was cut at 100 lines") || string(res.Result) != `"done"` {
		t.Errorf("capture: %d/%d lines, %q", strings.Count(res.Stdout, "\n"), strings.Count(res.Stderr, "\n"), res.Warnings)
	}
}

func TestRunCodeErrors(t *testing.T) {
	sb := newTest(t, Options{})
	res := runCode(t, sb, CodeRequest{Code: "function f() { throw new RangeError('out') }\nf()"})
	if res.OK || res.Error == nil || res.Error.Code != CodeRuntime || res.Error.Name != "RuntimeError" || res.Error.Message != "RangeError: out" || !strings.Contains(res.Error.Stack, "at f") {
		t.Errorf("runtime error: %+v", res.Error)
	}
	res = runCode(t, sb, CodeRequest{Code: "await Promise.reject(new Error('async no'))"})
	if res.OK || res.Error == nil || res.Error.Message != "Error: async no" {
		t.Errorf("rejection: %+v", res.Error)
	}
	res = runCode(t, sb, CodeRequest{Code: "let = ;"})
	if res.OK || res.Error == nil || res.Error.Code != CodeRuntime || !strings.Contains(res.Error.Message, "SyntaxError") {
		t.Errorf("syntax error: %+v", res.Error)
	}
	start := time.Now()
	res = runCode(t, sb, CodeRequest{Code: "while (true) {}", Timeout: 300 * time.Millisecond})
	if res.OK || res.Error == nil || res.Error.Code != CodeTimeout || res.Error.Name != "TimeoutError" {
		t.Errorf("timeout: %+v", res.Error)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("a 300 ms timeout took %v", d)
	}
	// The sandbox stays usable.
	if res := runCode(t, sb, CodeRequest{Code: "'fine'"}); string(res.Result) != `"fine"` {
		t.Errorf("after a timeout: %+v", res)
	}
}

func TestRunCodeFreshAndFiles(t *testing.T) {
	sb := newTest(t, Options{})
	runCode(t, sb, CodeRequest{Code: "globalThis.leak = 1; require('fs').writeFileSync('/home/user/from-code.txt', 'written')"})
	res := runCode(t, sb, CodeRequest{Code: "typeof leak"})
	if string(res.Result) != `"undefined"` {
		t.Errorf("state leaked: %s", res.Result)
	}
	if b, err := sb.ReadFile("/home/user/from-code.txt"); err != nil || string(b) != "written" {
		t.Errorf("file: %q %v", b, err)
	}
	res = runCode(t, sb, CodeRequest{Code: "require('child_process').execSync('cat from-code.txt | tr a-z A-Z').toString()"})
	if string(res.Result) != `"WRITTEN"` {
		t.Errorf("child_process: %s %+v", res.Result, res.Error)
	}
	res = runCode(t, sb, CodeRequest{Code: "[context.user.name, limit]", Context: map[string]any{"user": map[string]any{"name": "ada"}, "limit": 3}})
	if string(res.Result) != `["ada",3]` {
		t.Errorf("context: %s %+v", res.Result, res.Error)
	}
	ents, _ := sb.ReadDir("/tmp")
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".runcode") || strings.HasPrefix(e.Name(), ".node-") {
			t.Errorf("scratch file left behind: /tmp/%s", e.Name())
		}
	}
}

func TestRunCodeBridges(t *testing.T) {
	sb := newTest(t, Options{})
	bridges := map[string]Bridge{
		"getWeather": {
			Description: "the weather in a city",
			Func: func(ctx context.Context, args json.RawMessage) (any, error) {
				var a struct{ City string }
				if err := json.Unmarshal(args, &a); err != nil {
					return nil, err
				}
				return map[string]any{"city": a.City, "tempC": 21}, nil
			},
		},
		"fail": {Func: func(context.Context, json.RawMessage) (any, error) { return nil, errors.New("no luck") }},
		"slow": {Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
			select {
			case <-time.After(10 * time.Second):
				return "slow", nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}},
	}
	res := runCode(t, sb, CodeRequest{Code: "const w = await api.getWeather({city: 'Oslo'}); w.tempC + ' in ' + w.city", Bridges: bridges})
	if !res.OK || string(res.Result) != `"21 in Oslo"` {
		t.Errorf("resolve: %s %+v", res.Result, res.Error)
	}
	res = runCode(t, sb, CodeRequest{Code: "let m; try { await api.fail() } catch (e) { m = e.message }; m", Bridges: bridges})
	if string(res.Result) != `"no luck"` {
		t.Errorf("reject: %s %+v", res.Result, res.Error)
	}
	res = runCode(t, sb, CodeRequest{Code: "await api.fail()", Bridges: bridges})
	if res.OK || res.Error == nil || res.Error.Message != "Error: no luck" {
		t.Errorf("uncaught reject: %+v", res.Error)
	}
	start := time.Now()
	res = runCode(t, sb, CodeRequest{Code: "await api.slow()", Bridges: bridges, Timeout: 400 * time.Millisecond})
	if res.OK || res.Error == nil || res.Error.Code != CodeTimeout {
		t.Errorf("slow bridge: %+v", res.Error)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("slow bridge took %v", d)
	}
	res = runCode(t, sb, CodeRequest{Code: "let c; try { await api.fetch('https://example.com') } catch (e) { c = e.code }\nc"})
	if string(res.Result) != `"ERR_WASMSAND_NETWORK_DENIED"` {
		t.Errorf("api.fetch: %s %+v", res.Result, res.Error)
	}
	res = runCode(t, sb, CodeRequest{Code: "Object.keys(api).sort()", Bridges: bridges})
	if string(res.Result) != `["fail","fetch","getWeather","slow"]` {
		t.Errorf("api keys: %s", res.Result)
	}
	meta := BridgeMetadata(bridges)
	if len(meta) != 3 || meta[1].Name != "getWeather" || meta[1].Description != "the weather in a city" || meta[1].Call != "await api.getWeather(args)" {
		t.Errorf("metadata: %+v", meta)
	}
	// Outside runCode, node has no bridges.
	r, err := sb.Run(context.Background(), `node -e 'console.log(typeof api)'`)
	if err != nil || string(r.Stdout) != "undefined\n" {
		t.Errorf("node outside runCode: %q %v", r.Stdout, err)
	}
}

// RunCode runs a JavaScript snippet with console capture, a sanitized
// result and host functions the code calls as api.NAME(args).
func ExampleSandbox_RunCode() {
	ctx := context.Background()
	sb, err := New(ctx, Options{ToolsDir: "build/tools"})
	if err != nil {
		panic(err)
	}
	defer sb.Close()
	res, err := sb.RunCode(ctx, CodeRequest{
		Code:    "const w = await api.getWeather({city: 'Oslo'}); console.log(w); w.tempC * 9 / 5 + 32",
		Timeout: 2 * time.Second,
		Bridges: map[string]Bridge{"getWeather": {
			Description: "current weather of a city",
			Func: func(ctx context.Context, args json.RawMessage) (any, error) {
				return map[string]any{"tempC": 20}, nil
			},
		}},
	})
	if err != nil { // a ValidationError
		panic(err)
	}
	_ = res.OK     // true
	_ = res.Stdout // "{ tempC: 20 }\n"
	_ = res.Result // 68
}
