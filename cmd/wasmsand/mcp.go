package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/agent/mcpserver"
	"github.com/wasmsand/wasmsand/agent/session"
	"github.com/wasmsand/wasmsand/sandbox"
)

const mcpUsage = `wasmsand mcp serves sandboxes to AI agents over the Model Context Protocol.

Each MCP session gets its own sandbox: a bash shell with the tools over an
in-memory filesystem. The tools are sandbox_run, read_file, write_file,
list_dir, run_code, snapshot and restore; the sandbox's files are resources
sandbox:///PATH. With --state, sessions are kept in a store and can be
named by the client, so they outlive connections and server processes.

Usage:
  wasmsand mcp [flags]                       serve one client over stdin/stdout
  wasmsand mcp --http HOST:PORT [flags]      serve many over streamable HTTP at /mcp

Flags:
  --http HOST:PORT        listen for HTTP (port 0 picks a free one; the address
                          is printed on stderr); without it, stdio
  --max-sessions N        sandboxes alive at once (default 100; 0: no cap)
  --idle-timeout DURATION over HTTP, end a session (and its sandbox) unused this
                          long (default 30m; 0: never); a stdio session lasts
                          as long as its client. With --state, evict a sandbox
                          unused this long to the store instead (HTTP sessions
                          then last at least 30m)
  --max-output BYTES      output of a tool call shown to the model, per stream,
                          head and tail kept (default 16K)
  --state DIR|s3://BUCKET[/PREFIX]
                          service mode: keep sessions in this snapshot store;
                          idle sandboxes (--idle-timeout) are saved to it and
                          evicted, and come back on their next call, across
                          reconnects, restarts and replicas sharing the store.
                          S3: endpoint from WASMSAND_S3_ENDPOINT (default
                          https://s3.amazonaws.com), keys from
                          AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY
  --session NAME          the named session (workspace) of connections that do
                          not name one (default $WASMSAND_SESSION, over stdio
                          "default"); needs --state. Over HTTP a client names its own with the
                          header Wasmsand-Session: NAME or /mcp?session=NAME
  and the sandbox flags of 'wasmsand --help' (--timeout, --fs-limit,
  --memory-limit, --max-processes, --fuel, --output-limit, --env, --cwd,
  --seed, --clock, --tools, --cache-dir), which bind every session.

Stop with Ctrl-C or SIGTERM; over stdio the server also ends when its input
closes.
`

// mcpMain runs "wasmsand mcp".
func mcpMain(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	httpAddr, state, sessName := "", "", os.Getenv("WASMSAND_SESSION")
	maxSessions, idle, maxOutput := 100, 30*time.Minute, int64(16<<10)
	var rest []string
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
			rest = append(rest, a)
			continue
		}
		switch name {
		case "http", "max-sessions", "idle-timeout", "max-output", "state", "session":
		case "h", "help":
			io.WriteString(stdout, mcpUsage)
			return 0
		case "state-name":
			fmt.Fprintf(stderr, "wasmsand mcp: --state-name is for one sandbox; name a session with --session or the Wasmsand-Session header\n")
			return exitUsage
		default:
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(argv) {
				fmt.Fprintf(stderr, "wasmsand mcp: flag needs an argument: %s\n", a)
				return exitUsage
			}
			i++
			value = argv[i]
		}
		var err error
		switch name {
		case "http":
			httpAddr = value
		case "state":
			state = value
		case "session":
			sessName = value
		case "max-sessions":
			maxSessions, err = strconv.Atoi(value)
			if err == nil && maxSessions < 0 {
				err = errors.New("negative")
			}
		case "idle-timeout":
			idle, err = time.ParseDuration(value)
		case "max-output":
			maxOutput, err = parseBytes(value)
		}
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand mcp: invalid value %q for --%s\n", value, name)
			return exitUsage
		}
	}
	if sessName != "" {
		if state == "" {
			fmt.Fprintf(stderr, "wasmsand mcp: --session (or WASMSAND_SESSION) needs --state\n")
			return exitUsage
		}
		if err := session.CheckID(sessName); err != nil {
			fmt.Fprintf(stderr, "wasmsand mcp: --session: %v\n", err)
			return exitUsage
		}
	}
	cfg, code, err := parseArgs(rest, io.Discard)
	if err != nil {
		fmt.Fprintf(stderr, "wasmsand mcp: %v\nRun 'wasmsand mcp --help' for usage.\n", err)
		return code
	}
	if cfg == nil {
		io.WriteString(stdout, mcpUsage)
		return 0
	}
	if cfg.hasCmd || len(cfg.args) > 0 {
		fmt.Fprintf(stderr, "wasmsand mcp: unexpected arguments %q\nRun 'wasmsand mcp --help' for usage.\n", rest)
		return exitUsage
	}
	if err := checkTools(cfg.opts.ToolsDir); err != nil {
		fmt.Fprintf(stderr, "wasmsand mcp: %v\n", err)
		return exitSetup
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	var store sandbox.Store
	if state != "" {
		if store, err = openStore(ctx, state); err != nil {
			fmt.Fprintf(stderr, "wasmsand mcp: --state: %v\n", err)
			return exitSetup
		}
	}

	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	mo := mcpserver.Options{
		Sessions: session.Config{
			Sandbox:     cfg.opts,
			MaxSessions: maxSessions,
			Agent:       agent.Options{MaxOutputBytes: int(maxOutput)},
		},
		Version: versionString(),
		Logger:  log,
	}
	if store != nil {
		// Service mode: sessions live in the store; an idle sandbox is
		// evicted to it and comes back on its next call, here or in
		// another process sharing the store.
		mo.Sessions.Store = store
		mo.Sessions.Snapshot = (*sandbox.Sandbox).Snapshot
		mo.Sessions.Restore = sandbox.Restore
		mo.Sessions.IdleTimeout = idle
		mo.Session = sessName
		if sessName == "" && httpAddr == "" {
			// A stdio server has one client: --state alone keeps its
			// sandbox, as 'wasmsand --state DIR' does.
			mo.Session = "default"
		}
	}
	if httpAddr != "" {
		// An idle HTTP session ends, and its sandbox with it. Without a
		// store there is no idle eviction: it would lose the state of a
		// session that goes on. With one, the sandbox is evicted after
		// --idle-timeout while the (cheap) MCP session lasts at least 30
		// minutes, so that a client need not reconnect to find it back.
		// A stdio session lasts as long as its client.
		mo.SessionTimeout = idle
		if store != nil && idle > 0 {
			mo.SessionTimeout = max(idle, 30*time.Minute)
		}
	}
	srv, err := mcpserver.New(ctx, mo)
	if err != nil {
		fmt.Fprintf(stderr, "wasmsand mcp: %v\n", err)
		return exitSetup
	}
	defer srv.Close(context.Background())

	if httpAddr == "" {
		in, ok := stdin.(io.ReadCloser)
		if !ok {
			in = io.NopCloser(stdin)
		}
		t := &mcp.IOTransport{Reader: in, Writer: nopWriteCloser{stdout}}
		if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "wasmsand mcp: %v\n", err)
			return exitSetup
		}
		return 0
	}

	ln, err := net.Listen("tcp", httpAddr)
	if err != nil {
		fmt.Fprintf(stderr, "wasmsand mcp: %v\n", err)
		return exitSetup
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "wasmsand mcp: listening on http://%s/mcp\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "wasmsand mcp: %v\n", err)
		return exitSetup
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	hs.Shutdown(sctx)
	return 0
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
