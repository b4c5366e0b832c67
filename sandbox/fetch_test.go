package sandbox

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
)

// newFetchServer is a local server for fetch(): /json answers what it saw
// as JSON; the rest is newNetServer's.
func newFetchServer(t *testing.T) *httptest.Server {
	t.Helper()
	ns := newNetServer(t)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/json" {
			// Hand the request to newNetServer's handlers.
			ns.Config.Handler.ServeHTTP(w, r)
			return
		}
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Reply", "yes")
		w.Header().Add("Set-Cookie", "a=1")
		w.Header().Add("Set-Cookie", "b=2")
		json.NewEncoder(w).Encode(map[string]any{
			"method": r.Method, "query": r.URL.RawQuery, "body": string(b),
			"type": r.Header.Get("Content-Type"), "x": r.Header.Get("X-Test"),
			"auth": r.Header.Get("Authorization"),
		})
	}))
	t.Cleanup(s.Close)
	return s
}

func fetchRule(t *testing.T, text string) netpolicy.Rule {
	t.Helper()
	r, err := netpolicy.ParseRule(text)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// runJS writes a script and runs it with node.
func runJS(t *testing.T, sb *Sandbox, script string) *RunResult {
	t.Helper()
	if err := sb.WriteFile("/home/user/f.js", []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return run(t, sb, "node f.js")
}

func checkJS(t *testing.T, sb *Sandbox, script, want string) {
	t.Helper()
	res := runJS(t, sb, script)
	if res.ExitCode != 0 || string(res.Stdout) != want {
		t.Errorf("script:\n%s\nexit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", script, res.ExitCode, res.Stdout, want, res.Stderr)
	}
}

func TestFetchGetPost(t *testing.T) {
	srv := newFetchServer(t)
	sb := newTest(t, Options{Network: netpolicy.Policy{Rules: []netpolicy.Rule{fetchRule(t, srv.URL+"/")}}})
	u := srv.URL
	checkJS(t, sb, `(async () => {
const r = await fetch('`+u+`/json?q=1', { headers: { 'X-Test': 'hi' } });
console.log(r.status, r.statusText, r.ok, r.url === '`+u+`/json?q=1', r.redirected, r.type);
console.log(r.headers.get('content-type'), r.headers.has('X-REPLY'), r.headers.get('nope'));
console.log(r.headers.getSetCookie(), [...r.headers.keys()].filter(k => k.startsWith('x') || k === 'set-cookie'));
const seen = []; r.headers.forEach((v, k) => { if (k === 'x-reply') seen.push(k + '=' + v); }); console.log(seen);
console.log(await r.json());
console.log(r.bodyUsed, await r.text().catch(e => e.constructor.name + ': ' + e.message));
})();`, `200 OK true true false basic
application/json true null
[ 'a=1', 'b=2' ] [ 'set-cookie', 'set-cookie', 'x-reply' ]
[ 'x-reply=yes' ]
{ auth: '', body: '', method: 'GET', query: 'q=1', type: '', x: 'hi' }
true TypeError: Body is unusable: Body has already been read
`)
	checkJS(t, sb, `(async () => {
let r = await fetch('`+u+`/json', { method: 'post', body: JSON.stringify({ a: [1, 2] }), headers: new Headers([['Content-Type', 'application/json']]) });
let j = await r.json(); console.log(j.method, j.body, j.type);
r = await fetch(new Request('`+u+`/json', { method: 'PUT', body: new URLSearchParams({ x: '1', y: 'z w' }) }));
j = await r.json(); console.log(j.method, j.body, j.type);
r = await fetch('`+u+`/json', { method: 'POST', body: new Uint8Array([104, 105]) });
j = await r.json(); console.log(j.body, JSON.stringify(j.type));
r = await fetch('`+u+`/text');
const buf = await r.arrayBuffer(); console.log(buf instanceof ArrayBuffer, buf.byteLength, new TextDecoder().decode(buf));
r = await fetch('`+u+`/status/404'); console.log(r.status, r.statusText, r.ok, await r.text());
r = await fetch('`+u+`/text', { method: 'HEAD' }); console.log(r.status, r.headers.get('content-length'), JSON.stringify(await r.text()));
try { new Request('`+u+`/', { method: 'GET', body: 'x' }); } catch (e) { console.log(e.name, e.message); }
const resp = Response.json({ k: 1 }, { status: 201 }); console.log(resp.status, resp.headers.get('content-type'), await resp.json());
console.log(await new Response('abc').text(), new Response(null, { status: 204 }).ok);
})();`, `POST {"a":[1,2]} application/json
PUT x=1&y=z+w application/x-www-form-urlencoded;charset=UTF-8
hi ""
true 20 hello from the host

404 Not Found false status 404

200 20 ""
TypeError Request with GET/HEAD method cannot have body.
201 application/json { k: 1 }
abc true
`)
}

func TestFetchDenied(t *testing.T) {
	srv := newFetchServer(t)
	other := newFetchServer(t)
	// No rule at all: denied, with the reason.
	sb := newTest(t, Options{})
	checkJS(t, sb, `fetch('`+srv.URL+`/json').then(() => console.log('allowed?'), e => console.log(e instanceof TypeError, e.code, e.message, '|', e.cause.message));`,
		"true ERR_WASMSAND_NETWORK_DENIED fetch failed: wasmsand: network access to "+srv.URL+"/json is not allowed | wasmsand: network access to "+srv.URL+"/json is not allowed\n")

	sb = newTest(t, Options{Network: netpolicy.Policy{Rules: []netpolicy.Rule{fetchRule(t, "GET "+srv.URL+"/")}}})
	checkJS(t, sb, `(async () => {
for (const [u, o] of [['`+other.URL+`/json'], ['`+srv.URL+`/json', { method: 'POST', body: 'x' }], ['ftp://x/'], ['`+srv.URL+`/json']]) {
  try { const r = await fetch(u, o); console.log('ok', r.status); } catch (e) { console.log(e.name, e.code, e.message.replace(/127\.0\.0\.1:\d+/, 'HOST')); }
}
})();`, `TypeError ERR_WASMSAND_NETWORK_DENIED fetch failed: wasmsand: network access to http://HOST/json is not allowed
TypeError ERR_WASMSAND_NETWORK_DENIED fetch failed: wasmsand: network access to http://HOST/json is not allowed (method POST is not allowed)
TypeError ERR_INVALID_URL fetch failed: ftp URLs are not supported: ftp://x/
ok 200
`)
	// An unhandled denial ends the script with status 1, as in Node.
	res := runJS(t, sb, `fetch('`+other.URL+`/')`)
	if res.ExitCode != 1 || !strings.Contains(string(res.Stderr), "network access to "+other.URL+"/ is not allowed") {
		t.Errorf("unhandled denial: exit %d, stderr %s", res.ExitCode, res.Stderr)
	}
	res = run(t, sb, `node -e 'require("http")'`)
	if res.ExitCode == 0 || !strings.Contains(string(res.Stderr), "fetch()") {
		t.Errorf("require('http'): exit %d, stderr %s", res.ExitCode, res.Stderr)
	}
}

func TestFetchRedirects(t *testing.T) {
	srv := newFetchServer(t)
	other := newFetchServer(t)
	sb := newTest(t, Options{Network: netpolicy.Policy{Rules: []netpolicy.Rule{fetchRule(t, srv.URL+"/")}}})
	u := srv.URL
	checkJS(t, sb, `(async () => {
let r = await fetch('`+u+`/redirect?to=/json');
console.log(r.status, r.redirected, r.url === '`+u+`/json', (await r.json()).method);
r = await fetch('`+u+`/redirect?to=/json', { method: 'POST', body: 'b' });
let j = await r.json(); console.log('302 POST →', j.method, JSON.stringify(j.body));
r = await fetch('`+u+`/redirect307?to=/json', { method: 'POST', body: 'b' });
j = await r.json(); console.log('307 POST →', j.method, j.body);
r = await fetch('`+u+`/redirect?to=/json', { redirect: 'manual' });
console.log(r.status, r.headers.get('location'), r.redirected);
await fetch('`+u+`/redirect?to=/json', { redirect: 'error' }).catch(e => console.log(e.name, e.message));
await fetch('`+u+`/loop/0').catch(e => console.log(e.name, e.message));
await fetch('`+u+`/redirect?to=`+other.URL+`/json').catch(e => console.log(e.name, e.code, e.message === 'fetch failed: wasmsand: network access to `+other.URL+`/json is not allowed'));
await fetch('`+u+`/redirect?to=http://169.254.169.254/latest/').catch(e => console.log(e.message));
})();`, `200 true true GET
302 POST → GET ""
307 POST → POST b
302 /json false
TypeError fetch failed: unexpected redirect to /json
TypeError fetch failed: redirect count exceeded
TypeError ERR_WASMSAND_NETWORK_DENIED true
fetch failed: wasmsand: network access to http://169.254.169.254/latest/ is not allowed
`)
}

func TestFetchBudgetAndTimeout(t *testing.T) {
	srv := newFetchServer(t)
	sb := newTest(t, Options{Network: netpolicy.Policy{Rules: []netpolicy.Rule{fetchRule(t, srv.URL+"/")}, MaxRequests: 2}})
	checkJS(t, sb, `(async () => {
for (let i = 0; i < 3; i++) {
  try { const r = await fetch('`+srv.URL+`/text'); console.log(i, r.status); } catch (e) { console.log(i, e.code, e.message); }
}
})();`, `0 200
1 200
2 ERR_WASMSAND_NETWORK_BUDGET fetch failed: network budget exhausted: 2 requests allowed per run
`)
	start := time.Now()
	checkJS(t, sb, `(async () => {
try { await fetch('`+srv.URL+`/slow', { signal: AbortSignal.timeout(200) }); } catch (e) { console.log(e.name, e.message); }
const c = new AbortController(); c.abort();
try { await fetch('`+srv.URL+`/text', { signal: c.signal }); } catch (e) { console.log(e.name, c.signal.aborted); }
})();`, "TimeoutError The operation was aborted due to timeout\nAbortError true\n")
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("the timed-out fetch took %v", d)
	}
}

func TestRunCodeFetch(t *testing.T) {
	srv := newFetchServer(t)
	sb := newTest(t, Options{Network: netpolicy.Policy{Rules: []netpolicy.Rule{fetchRule(t, srv.URL+"/")}}})
	res, err := sb.RunCode(context.Background(), CodeRequest{Code: `
const r = await fetch('` + srv.URL + `/json', { method: 'POST', body: JSON.stringify({ n: 2 }) });
const viaApi = await (await api.fetch('` + srv.URL + `/text')).text();
console.log('status', r.status);
const denied = await fetch('http://example.invalid/').catch(e => e.message);
return { echoed: JSON.parse((await r.json()).body).n, viaApi, denied };`})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"echoed":2,"viaApi":"hello from the host\n","denied":"fetch failed: wasmsand: network access to http://example.invalid/ is not allowed"}`
	if !res.OK || string(res.Result) != want || res.Stdout != "status 200\n" {
		t.Errorf("RunCode: ok %v result %s stdout %q error %+v\nwant %s", res.OK, res.Result, res.Stdout, res.Error, want)
	}
}
