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
)

const mcpUsage = `wasmsand mcp serves sandboxes to AI agents over the Model Context Protocol.

Each MCP session gets its own sandbox: a bash shell with the tools over an
in-memory filesystem. The tools are sandbox_run, read_file, write_file,
list_dir and run_code; the sandbox's files are resources sandbox:///PATH.

Usage:
  wasmsand mcp [flags]                       serve one client over stdin/stdout
  wasmsand mcp --http HOST:PORT [flags]      serve many over streamable HTTP at /mcp

Flags:
  --http HOST:PORT        listen for HTTP (port 0 picks a free one; the address
                          is printed on stderr); without it, stdio
  --max-sessions N        sandboxes alive at once (default 100; 0: no cap)
  --idle-timeout DURATION over HTTP, end a session (and its sandbox) unused this
                          long (default 30m; 0: never); a stdio session lasts
                          as long as its client
  --max-output BYTES      output of a tool call shown to the model, per stream,
                          head and tail kept (default 16K)
  and the sandbox flags of 'wasmsand --help' (--timeout, --fs-limit,
  --memory-limit, --max-processes, --fuel, --output-limit, --env, --cwd,
  --seed, --clock, --tools, --cache-dir), which bind every session.

Stop with Ctrl-C or SIGTERM; over stdio the server also ends when its input
closes.
`

// mcpMain runs "wasmsand mcp".
func mcpMain(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	httpAddr := ""
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
		case "http", "max-sessions", "idle-timeout", "max-output":
		case "h", "help":
			io.WriteString(stdout, mcpUsage)
			return 0
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
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	mo := mcpserver.Options{
		Sessions: session.Config{
			Sandbox:     cfg.opts,
			MaxSessions: maxSessions,
			Agent:       agent.Options{MaxOutputBytes: int(maxOutput)},
			// No IdleTimeout: without a snapshot store, evicting a sandbox
			// would lose its state under a session that goes on. An idle
			// HTTP session ends instead (SessionTimeout), and its sandbox
			// with it; a stdio session lasts as long as its client.
		},
		Version: versionString(),
		Logger:  log,
	}
	if httpAddr != "" {
		mo.SessionTimeout = idle
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
