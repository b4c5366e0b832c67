package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"strings"
	"time"
)

const serveUsage = `wasmsand serve serves a folder over HTTP, such as the demo page that
runs wasmsand in the browser ("make demo" builds it into build/demo).

Usage:
  wasmsand serve [--addr HOST:PORT] [--dir DIR]

Flags:
  --addr HOST:PORT  address to listen on (default 127.0.0.1:8080; port 0 picks a free one)
  --dir DIR         folder to serve (default build/demo)

WebAssembly is served as application/wasm, so browsers can compile it while
it downloads. Stop with Ctrl-C.
`

// mimeTypes are the types served by file extension, fixed here so that a
// host's /etc/mime.types cannot change them: browsers refuse ES modules
// not served as JavaScript, and compile WebAssembly as it streams only
// when it is application/wasm.
var mimeTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".map":  "application/json",
	".wasm": "application/wasm",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
	".md":   "text/markdown; charset=utf-8",
	".ts":   "text/plain; charset=utf-8",
	".tgz":  "application/gzip",
}

// staticHandler serves the files under dir with the types above. It asks
// browsers to revalidate every time, so a rebuilt demo is never stale.
func staticHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if t, ok := mimeTypes[strings.ToLower(path.Ext(r.URL.Path))]; ok {
			w.Header().Set("Content-Type", t)
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
}

// serve is "wasmsand serve": it serves a folder until ctx ends or Ctrl-C,
// printing the URL to stdout once it listens.
func serve(ctx context.Context, argv []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wasmsand serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "127.0.0.1:8080", "")
	dir := fs.String("dir", "build/demo", "")
	if err := fs.Parse(argv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(stdout, serveUsage)
			return 0
		}
		fmt.Fprintf(stderr, "wasmsand serve: %v\nRun 'wasmsand serve --help' for usage.\n", err)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "wasmsand serve: unexpected argument %q\nRun 'wasmsand serve --help' for usage.\n", fs.Arg(0))
		return exitUsage
	}
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "wasmsand serve: %s is not a folder; build the demo with 'make demo' or pass --dir\n", *dir)
		return exitSetup
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "wasmsand serve: %v\n", err)
		return exitSetup
	}
	srv := &http.Server{Handler: staticHandler(*dir), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "serving %s on http://%s/\n", *dir, ln.Addr())
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "wasmsand serve: %v\n", err)
		return exitSetup
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Shutdown(shutdown)
	return 0
}
