package mcpserver_test

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/agent/session"
)

var (
	load         = flag.Bool("load", false, "run TestLoad: many concurrent MCP sessions over HTTP")
	loadSessions = flag.Int("load.sessions", 100, "TestLoad: concurrent sessions")
	loadCommands = flag.Int("load.commands", 20, "TestLoad: tool calls per session")
)

// TestLoad runs -load.sessions MCP sessions at once over streamable HTTP on
// 127.0.0.1, each making -load.commands tool calls, and reports throughput,
// latency percentiles and the memory an idle session holds. It checks that
// no call is lost and no session sees another's files; it asserts nothing
// about time. Run it with
//
//	go test ./agent/mcpserver -run TestLoad -load -v
func TestLoad(t *testing.T) {
	if !*load {
		t.Skip("pass -load to run")
	}
	n, k := *loadSessions, *loadCommands
	srv := newServer(t, session.Config{MaxSessions: n})
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)

	// Warm the compile cache so the figures measure calls, not compilation.
	warm := connectHTTP(t, hs.URL)
	callTool(t, warm, agent.ToolRun, map[string]any{"command": "seq 3 | grep 1 | wc -l; cat /dev/null"})
	warm.Close()
	for srv.Sessions().Stats().Live != 0 {
		time.Sleep(10 * time.Millisecond)
	}
	heap0, rss0 := memory()

	clients := make([]*mcp.ClientSession, n)
	for i := range clients {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
		if err != nil {
			t.Fatal(err)
		}
		clients[i] = cs
	}
	t.Cleanup(func() {
		for _, cs := range clients {
			cs.Close()
		}
	})

	var mu sync.Mutex
	var latencies []time.Duration
	var failures []string
	fail := func(format string, a ...any) {
		mu.Lock()
		failures = append(failures, fmt.Sprintf(format, a...))
		mu.Unlock()
	}
	start := time.Now()
	var wg sync.WaitGroup
	for i, cs := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := strconv.Itoa(i)
			for j := range k {
				var name string
				var args map[string]any
				var want string
				switch j % 4 {
				case 0:
					name, args = agent.ToolWriteFile, map[string]any{"path": "me.txt", "content": id + "\n"}
				case 1:
					name, args, want = agent.ToolRun, map[string]any{"command": "cat me.txt"}, id+"\n"
				case 2:
					name, args, want = agent.ToolRun, map[string]any{"command": fmt.Sprintf("seq %d | grep -c 7", 100+j)}, ""
				case 3:
					name, args, want = agent.ToolReadFile, map[string]any{"path": "/home/user/me.txt"}, id+"\n"
				}
				t0 := time.Now()
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
				d := time.Since(t0)
				if err != nil {
					fail("session %s call %d: %v", id, j, err)
					continue
				}
				text := res.Content[0].(*mcp.TextContent).Text
				if res.IsError {
					fail("session %s call %d: %s", id, j, text)
				}
				if want != "" && !strings.Contains(text, strconv.Quote(want)) {
					fail("session %s call %d: want %q in %s", id, j, want, text)
				}
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, f := range failures[:min(len(failures), 10)] {
		t.Error(f)
	}
	if len(latencies) != n*k {
		t.Errorf("%d calls answered, want %d", len(latencies), n*k)
	}
	if live := srv.Sessions().Stats().Live; live != n {
		t.Errorf("%d live sandboxes, want %d", live, n)
	}
	heap1, rss1 := memory()
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[min(len(latencies)-1, int(p*float64(len(latencies))))] }
	t.Logf("%d sessions × %d tool calls over HTTP on %d CPUs (GOMAXPROCS %d): %v, %.0f calls/s",
		n, k, runtime.NumCPU(), runtime.GOMAXPROCS(0), elapsed.Round(time.Millisecond), float64(n*k)/elapsed.Seconds())
	t.Logf("latency p50 %v, p90 %v, p99 %v, max %v", pct(0.50).Round(time.Microsecond), pct(0.90).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond))
	t.Logf("memory per idle session: %.0f KiB of Go heap, %.0f KiB resident (heap %d → %d MiB, RSS %d → %d MiB)",
		float64(heap1-heap0)/float64(n)/1024, float64(rss1-rss0)/float64(n)/1024, heap0>>20, heap1>>20, rss0>>20, rss1>>20)
}

// memory returns the Go heap in use after a GC and the resident set size
// once the runtime has returned what it can to the OS.
func memory() (heap, rss int64) {
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				rss = kb << 10
			}
		}
	}
	return int64(ms.HeapInuse), rss
}
