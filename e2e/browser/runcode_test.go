package browser

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// codeResult is runCode's result as the page reports it.
type codeResult struct {
	OK       bool            `json:"ok"`
	Stdout   string          `json:"stdout"`
	Stderr   string          `json:"stderr"`
	Result   json.RawMessage `json:"result"`
	Warnings []string        `json:"warnings"`
	Ms       float64         `json:"durationMs"`
	Error    *struct {
		Name, Code, Message string
		IsTimeout           bool `json:"isTimeout"`
	} `json:"error"`
}

// TestRunCode runs sb.runCode in a page (JSPI): console capture, the
// sanitized result, a bridge, the timeout of a tight loop, and fetch() to a
// CORS-enabled server a rule allows (and to one it does not).
func TestRunCode(t *testing.T) {
	s := buildSite(t)
	base := serveSite(t, s)
	api := newCORSServer(t)
	other := newCORSServer(t)
	ctx := newTab(t)
	open(t, ctx, base+"script.html")
	eval(t, ctx, `(async () => {
		window.csb = await W.Sandbox.create({ network: { allow: [`+jsString(api.URL+"/")+`] } });
		window.code = async (req) => {
			// The default timeout (3 s) counts the guest's start; cases
			// that are not about timing take the longest one.
			const r = await csb.runCode({ timeoutMs: 5000, ...req });
			return { ok: r.ok, stdout: r.stdout, stderr: r.stderr, result: r.result, warnings: r.warnings, durationMs: r.durationMs,
				error: r.error ? { Name: r.error.name, Code: r.error.code, Message: r.error.message, isTimeout: r.error instanceof W.TimeoutError } : null };
		};
	})()`, nil)
	// Load and compile the JavaScript guest first: runCode's timeout is at
	// most 5 s, and a cold compile counts against it.
	var warm runResult
	eval(t, ctx, `csb.run("node -e 'console.log(1)'")`, &warm)
	if warm.ExitCode != 0 {
		t.Fatalf("node -e: %+v", warm)
	}
	code := func(req string) codeResult {
		t.Helper()
		var r codeResult
		eval(t, ctx, `code(`+req+`)`, &r)
		return r
	}

	r := code(`{ code: "console.log('a', {b: 1}); console.error('e'); for (let i = 0; i < 150; i++) console.log(i); 7" }`)
	if !r.OK || !strings.HasPrefix(r.Stdout, "a { b: 1 }\n0\n1\n") || strings.Count(r.Stdout, "\n") != 100 || r.Stderr != "e\n" || string(r.Result) != "7" {
		t.Errorf("console capture: %+v, error %+v", r, r.Error)
	}
	if !contains(r.Warnings, "stdout was cut at 100 lines") {
		t.Errorf("console capture warnings: %q", r.Warnings)
	}

	r = code(`{ code: "const a = {n: 1, big: 10n ** 20n, m: new Map([['k', new Set([1, 2])]]), d: new Date(0), f: function named() {}}; a.self = a; a" }`)
	want := `{"n":1,"big":"100000000000000000000","m":{"k":[1,2]},"d":"1970-01-01T00:00:00.000Z","f":"[Function: named]","self":"[Circular]"}`
	if !r.OK || string(r.Result) != want {
		t.Errorf("sanitized result: %s (ok %v, error %+v)\nwant %s", r.Result, r.OK, r.Error, want)
	}
	r = code(`{ code: "'x'.repeat(1 << 20)" }`)
	if len(r.Result) > 200000 || !containsSub(r.Warnings, "string of 1048576 characters was cut") {
		t.Errorf("large string: %d bytes, warnings %q", len(r.Result), r.Warnings)
	}

	r = code(`{ code: "return await api.add({a: 2, b: 3})", bridges: { add: async ({a, b}) => a + b } }`)
	if !r.OK || string(r.Result) != "5" {
		t.Errorf("bridge: %+v", r)
	}

	start := time.Now()
	r = code(`{ code: "while (true) {}", timeoutMs: 300 }`)
	if r.OK || r.Error == nil || r.Error.Code != "TIMEOUT" || !r.Error.IsTimeout {
		t.Errorf("while (true) {}: %+v", r)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the timed-out runCode took %v", d)
	}
	if r := code(`{ code: "'fine'" }`); string(r.Result) != `"fine"` {
		t.Errorf("after the timeout: %+v", r)
	}

	r = code(`{ code: ` + jsString(`
const r = await fetch('`+api.URL+`/echo?x=1', { method: 'POST', body: 'hello' });
console.log(r.status, r.ok, r.headers.get('content-type'));
const denied = await fetch('`+other.URL+`/echo').catch(e => e.name + ' ' + e.code + ' ' + e.message);
return { body: await r.text(), denied };`) + ` }`)
	want = `{"body":"POST /echo?x=1\nhello\n","denied":"TypeError ERR_WASMSAND_NETWORK_DENIED fetch failed: wasmsand: network access to ` + other.URL + `/echo is not allowed"}`
	var got, wantV any
	json.Unmarshal(r.Result, &got)
	json.Unmarshal([]byte(want), &wantV)
	if !r.OK || r.Stdout != "200 true text/plain; charset=utf-8\n" || !jsonEqual(got, wantV) {
		t.Errorf("fetch: %+v\nresult %s\nwant %s", r, r.Result, want)
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("the denied server saw %v", other.requests())
	}
	if seen := api.requests(); len(seen) != 1 || seen[0] != "POST /echo auth=" {
		t.Errorf("the allowed server saw %q", seen)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsSub(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
