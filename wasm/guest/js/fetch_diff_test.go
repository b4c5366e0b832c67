package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/sandbox"
	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
)

// fetchSnippets use fetch() and its classes against a local server (BASE);
// the sandbox's node (with a rule allowing the server) and the real Node
// must print the same.
var fetchSnippets = []string{
	`fetch(BASE + '/json?q=1', { headers: { 'X-Test': 'hi' } }).then(async (r) => console.log(r.status, r.statusText, r.ok, r.redirected, r.url === BASE + '/json?q=1', r.headers.get('content-type'), await r.json()))`,
	`fetch(BASE + '/json', { method: 'post', body: 'plain' }).then((r) => r.json()).then((j) => console.log(j.method, j.body, j.type))`,
	`fetch(BASE + '/json', { method: 'PUT', body: new URLSearchParams({ a: '1', b: 'x y' }) }).then((r) => r.json()).then((j) => console.log(j.method, j.body, j.type))`,
	`fetch(BASE + '/json', { method: 'POST', body: JSON.stringify({ n: [1] }), headers: new Headers([['content-type', 'application/json']]) }).then((r) => r.json()).then((j) => console.log(j.body, j.type))`,
	`fetch(BASE + '/json', { method: 'POST', body: new Uint8Array([104, 105]) }).then((r) => r.json()).then((j) => console.log(j.body, JSON.stringify(j.type)))`,
	`fetch(BASE + '/redirect?to=/json').then((r) => console.log(r.status, r.redirected, r.url === BASE + '/json'))`,
	`fetch(BASE + '/redirect?to=/json', { method: 'POST', body: 'x' }).then((r) => r.json()).then((j) => console.log(j.method, JSON.stringify(j.body)))`,
	`fetch(BASE + '/redirect?code=307&to=/json', { method: 'POST', body: 'x' }).then((r) => r.json()).then((j) => console.log(j.method, j.body))`,
	`fetch(BASE + '/redirect?code=303&to=/json', { method: 'PUT', body: 'x' }).then((r) => r.json()).then((j) => console.log(j.method, JSON.stringify(j.body)))`,
	`fetch(BASE + '/redirect?to=/json', { redirect: 'manual' }).then((r) => console.log(r.status, r.headers.get('location'), r.redirected))`,
	`fetch(BASE + '/redirect?to=/json', { redirect: 'error' }).catch((e) => console.log(e.name, e instanceof TypeError))`,
	`fetch(BASE + '/status/404').then(async (r) => console.log(r.status, r.statusText, r.ok, await r.text()))`,
	`fetch(BASE + '/status/500').then(async (r) => console.log(r.status, r.statusText, r.ok))`,
	`fetch(BASE + '/text').then((r) => r.arrayBuffer()).then((b) => console.log(b instanceof ArrayBuffer, b.byteLength))`,
	`fetch(BASE + '/text', { method: 'HEAD' }).then(async (r) => console.log(r.status, r.headers.get('content-length'), JSON.stringify(await r.text())))`,
	`fetch(BASE + '/text').then(async (r) => { await r.text(); console.log(r.bodyUsed); await r.text().catch((e) => console.log(e.name)); })`,
	`fetch(new Request(BASE + '/json', { method: 'delete' })).then((r) => r.json()).then((j) => console.log(j.method))`,
	`fetch(new URL('/json?u=1', BASE)).then((r) => r.json()).then((j) => console.log(j.query))`,
	`const h = new Headers({ B: '2', a: '1' }); h.append('a', '3'); h.set('C', 'x'); h.delete('b'); console.log([...h], h.get('A'), h.has('c'), h.get('zz')); h.forEach((v, k) => console.log(k, v))`,
	`try { new Headers({ 'bad name': 'x' }) } catch (e) { console.log(e.name) }`,
	`const h = new Headers({ a: '1', B: '2' }); h.append('b', '3'); console.log(h, new Headers())`,
	`fetch(BASE + '/text').then(async (r) => { const rd = r.body.getReader(); const a = await rd.read(); const b = await rd.read(); console.log(a.done, a.value.length, b.done, b.value, r.bodyUsed, r.body.locked); rd.releaseLock(); console.log(r.body.locked); await r.text().catch((e) => console.log(e.name)); })`,
	`console.log(new Response('abc').body !== null, new Response(null).body, new Response(null, { status: 204 }).bodyUsed)`,
	`fetch(BASE + '/json').then((r) => console.log(r.headers.get('Content-Type'), [...r.headers.keys()].includes('content-type')))`,
	`const r = new Response('body', { status: 201, statusText: 'Made', headers: { 'X-A': '1' } }); console.log(r.status, r.statusText, r.ok, r.headers.get('x-a'), r.headers.get('content-type')); r.text().then(console.log)`,
	`Response.json({ a: 1 }).json().then((j) => console.log(j, Response.json(1).headers.get('content-type')))`,
	`console.log(Response.error().status, Response.error().type, Response.redirect('http://x/', 301).headers.get('location'))`,
	`try { new Response('x', { status: 99 }) } catch (e) { console.log(e.name) }`,
	`const q = new Request('http://x/a', { method: 'post', body: 'b', headers: { 'x-y': 'z' } }); console.log(q.method, q.url, q.headers.get('x-y'), q.headers.get('content-type'), q.redirect); q.clone().text().then(console.log)`,
	`try { new Request('http://x/', { body: 'x' }) } catch (e) { console.log(e.name, e.message) }`,
	`const c = new AbortController(); c.abort(); console.log(c.signal.aborted, c.signal.reason.name); fetch(BASE + '/text', { signal: c.signal }).catch((e) => console.log(e.name))`,
	`console.log(AbortSignal.abort().aborted, AbortSignal.timeout(10000).aborted, typeof AbortSignal.any)`,
	`fetch(BASE + '/slow', { signal: AbortSignal.timeout(100) }).catch((e) => console.log(e.name))`,
}

func fetchServer(t *testing.T) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch {
		case r.URL.Path == "/json":
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "query": r.URL.RawQuery, "body": string(b), "type": r.Header.Get("Content-Type"), "x": r.Header.Get("X-Test")})
		case r.URL.Path == "/redirect":
			code := http.StatusFound
			fmt.Sscan(r.URL.Query().Get("code"), &code)
			http.Redirect(w, r, r.URL.Query().Get("to"), code)
		case strings.HasPrefix(r.URL.Path, "/status/"):
			var n int
			fmt.Sscan(strings.TrimPrefix(r.URL.Path, "/status/"), &n)
			w.WriteHeader(n)
			fmt.Fprintf(w, "status %d\n", n)
		case r.URL.Path == "/slow":
			select {
			case <-time.After(3 * time.Second):
			case <-r.Context().Done():
			}
		default:
			io.WriteString(w, "hello from the host\n")
		}
	}))
	t.Cleanup(s.Close)
	return s
}

// TestFetchDiff runs fetchSnippets in the real Node and in the sandbox.
func TestFetchDiff(t *testing.T) {
	bin := realNode(t)
	srv := fetchServer(t)
	rule, err := netpolicy.ParseRule(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	sb := newSandbox(t, sandbox.Options{Timeout: 20 * time.Second, Network: netpolicy.Policy{Rules: []netpolicy.Rule{rule}}})
	dir := t.TempDir()
	for i, s := range fetchSnippets {
		code := "const BASE = " + fmt.Sprintf("%q", srv.URL) + ";\n" + s
		want := runReal(t, bin, dir, code)
		res, err := sb.Run(context.Background(), `node -e "$SNIPPET"`, sandbox.WithEnv("SNIPPET="+code))
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Stdout) != want.stdout || res.ExitCode != want.code {
			t.Errorf("snippet %d: %s\n--- node (status %d):\n%s--- sandbox (status %d):\n%s--- stderr:\n%s", i, s, want.code, want.stdout, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
}
