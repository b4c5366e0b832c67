// Package mcpserver serves wasmsand sandboxes over the Model Context
// Protocol, on the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// Each MCP session gets its own sandbox, made on its first tool call or
// resource read and ended with the session; with a store, a client can
// instead name a persistent session (SessionHeader) that outlives
// connections and server processes. The tools are those of package agent
// (sandbox_run, read_file, write_file, list_dir, run_code, snapshot,
// restore); the sandbox's files are resources under the template
// sandbox:///{+path}.
// A failing tool call is an MCP tool error (isError), never a failed
// server, and no panic escapes a handler.
package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"runtime/debug"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/agent/session"
	"github.com/wasmsand/wasmsand/sandbox"
)

// Options configure a Server.
type Options struct {
	// Sessions configures the sandboxes: their limits, the global cap,
	// idle eviction and persistence.
	Sessions session.Config
	// Name and Version identify the server to clients; defaults "wasmsand"
	// and "devel".
	Name, Version string
	// Logger receives the SDK's and the server's messages; nil discards
	// them.
	Logger *slog.Logger
	// SessionTimeout closes HTTP sessions that see no request for this
	// long; 0 keeps them until the client ends them.
	SessionTimeout time.Duration
	// Session, when set, names the sandbox of every connection that does
	// not name one itself (see SessionHeader): a persistent workspace for
	// a stdio server. It needs Sessions.Store.
	Session string
}

// SessionHeader is the HTTP header by which a client names the persistent
// session (workspace) its calls work on, instead of the one tied to its
// MCP session: a client that reconnects, or reaches another server
// process sharing the store, finds its sandbox back under that name.
// The query parameter "session" of the URL (/mcp?session=NAME) does the
// same for clients that cannot set headers. Names follow session.CheckID;
// anyone who knows a name can use its sandbox, so make them hard to guess
// where clients do not trust each other. Named sessions need a store
// (Options.Sessions.Store) and are evicted to it when idle.
const SessionHeader = "Wasmsand-Session"

// ErrNoStore is returned for a named session on a server without a store.
var ErrNoStore = errors.New("mcpserver: named sessions need a store (wasmsand mcp --state)")

// ResourceTemplate is the URI template of the sandbox's files.
const ResourceTemplate = "sandbox:///{+path}"

// Server is an MCP server of sandboxes. It can serve any number of
// connections at once: stdio, streamable HTTP, or any mcp.Transport.
type Server struct {
	srv      *mcp.Server
	sessions *session.Manager
	log      *slog.Logger
	timeout  time.Duration
	name     string // Options.Session

	mu     sync.Mutex
	keys   map[*mcp.ServerSession]string // the session key of each live MCP session
	closed bool
}

// New makes a Server. It starts one sandbox to learn the tool definitions
// (they name the sandbox's commands and limits) and closes it.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Name == "" {
		opts.Name = "wasmsand"
	}
	if opts.Version == "" {
		opts.Version = "devel"
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sb, err := sandbox.New(ctx, opts.Sessions.Sandbox)
	if err != nil {
		return nil, err
	}
	ao := opts.Sessions.Agent
	ao.Sandbox = opts.Sessions.Sandbox
	ao.Store = opts.Sessions.Store // for the snapshot tool's description
	ts, err := agent.New(sb, ao)
	sb.Close()
	if err != nil {
		return nil, err
	}
	if opts.Session != "" {
		if opts.Sessions.Store == nil {
			return nil, ErrNoStore
		}
		if err := session.CheckID(opts.Session); err != nil {
			return nil, err
		}
	}
	m, err := session.NewManager(opts.Sessions)
	if err != nil {
		return nil, err
	}
	s := &Server{sessions: m, log: log, timeout: opts.SessionTimeout, name: opts.Session, keys: map[*mcp.ServerSession]string{}}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: opts.Name, Title: "wasmsand sandbox", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       log,
	})
	for _, t := range ts.Tools() {
		s.srv.AddTool(&mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}, s.toolHandler(t.Name))
	}
	s.srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "sandbox-file",
		Title:       "A file in the sandbox",
		Description: "A file or directory of this session's sandbox, by absolute path: sandbox:///home/user/notes.txt. A directory reads as a JSON list of its entries.",
		URITemplate: ResourceTemplate,
	}, s.readResource)
	return s, nil
}

const instructions = `This server gives you a sandbox of your own for this session: a bash shell with GNU-like command-line tools (and python3, sqlite3 when installed) over an in-memory filesystem, isolated from the host and the network. Use sandbox_run for commands and pipelines, read_file, write_file and list_dir for files, run_code for JavaScript. Files, variables and the working directory persist across calls in this session.`

// MCP returns the SDK server, to add prompts, tools or middleware.
func (s *Server) MCP() *mcp.Server { return s.srv }

// Sessions returns the session manager, for its Stats.
func (s *Server) Sessions() *session.Manager { return s.sessions }

// Run serves one connection over t, such as &mcp.StdioTransport{}, until
// the client disconnects or ctx is done.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	err := s.srv.Run(ctx, t)
	if errors.Is(err, context.Canceled) || errors.Is(err, mcp.ErrConnectionClosed) {
		err = nil
	}
	return err
}

// Handler serves the streamable HTTP transport: one MCP session (and
// sandbox) per Mcp-Session-Id.
func (s *Server) Handler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv }, &mcp.StreamableHTTPOptions{
		Logger:         s.log,
		SessionTimeout: s.timeout,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if name := r.URL.Query().Get("session"); name != "" && r.Header.Get(SessionHeader) == "" {
			r = r.Clone(r.Context())
			r.Header.Set(SessionHeader, name)
		}
		h.ServeHTTP(w, r)
	})
}

// Close ends every sandbox, saving the named sessions when sessions are
// persistent.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	var unnamed []string
	for _, key := range s.keys {
		unnamed = append(unnamed, key)
	}
	s.mu.Unlock()
	// The sandboxes of MCP sessions end with the server: no client can
	// name them to a new one. Named sessions are saved by Close.
	var errs []error
	for _, key := range unnamed {
		errs = append(errs, s.sessions.End(ctx, key, false))
	}
	return errors.Join(append(errs, s.sessions.Close(ctx))...)
}

// acquire finds the sandbox of a request: the named session of its
// SessionHeader or Options.Session, which outlives connections, or else
// that of its MCP session ss, made on first use and ended with ss.
func (s *Server) acquire(ctx context.Context, ss *mcp.ServerSession, extra *mcp.RequestExtra) (*session.Session, func(), error) {
	if ss == nil {
		return nil, nil, errors.New("mcpserver: a request without a session")
	}
	name := s.name
	if extra != nil && extra.Header.Get(SessionHeader) != "" {
		name = extra.Header.Get(SessionHeader)
		if !s.sessions.Persistent() {
			return nil, nil, ErrNoStore
		}
	}
	if name != "" {
		return s.sessions.Acquire(ctx, name)
	}
	s.mu.Lock()
	key, ok := s.keys[ss]
	if !ok {
		key = ss.ID()
		if key == "" { // stdio and other single-connection transports
			var b [12]byte
			rand.Read(b[:])
			key = "conn-" + hex.EncodeToString(b[:])
		}
		s.keys[ss] = key
		go func() {
			ss.Wait()
			s.mu.Lock()
			delete(s.keys, ss)
			s.mu.Unlock()
			// No client can come back to an ended MCP session: its
			// sandbox goes, and from the store too.
			if err := s.sessions.End(context.Background(), key, false); err != nil {
				s.log.Error("ending session", "session", key, "err", err)
			}
		}()
	}
	s.mu.Unlock()
	return s.sessions.Acquire(ctx, key)
}

// toolHandler runs the tool name in the caller's sandbox.
func (s *Server) toolHandler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("tool panicked", "tool", name, "panic", r, "stack", string(debug.Stack()))
				res, err = errorResult(&agent.Error{Code: agent.CodeInternal, Message: fmt.Sprintf("%v", r)}), nil
			}
		}()
		sess, release, err := s.acquire(ctx, req.Session, req.Extra)
		if err != nil {
			return errorResult(sessionError(err)), nil
		}
		defer release()
		text, isErr := sess.Tools.CallJSON(ctx, name, req.Params.Arguments)
		res = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, IsError: isErr}
		if !isErr {
			res.StructuredContent = json.RawMessage(text)
		}
		return res, nil
	}
}

// sessionError describes why a session could not be had.
func sessionError(err error) *agent.Error {
	code := agent.CodeInternal
	switch {
	case errors.Is(err, session.ErrTooManySessions):
		code = "TOO_MANY_SESSIONS"
	case errors.Is(err, session.ErrClosed):
		code = agent.CodeClosed
	case errors.Is(err, session.ErrBadID), errors.Is(err, ErrNoStore):
		code = agent.CodeInvalidArgument
	}
	return &agent.Error{Code: code, Message: err.Error()}
}

func errorResult(e *agent.Error) *mcp.CallToolResult {
	text, _ := json.Marshal(struct {
		Error *agent.Error `json:"error"`
	}{e})
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, IsError: true}
}

// readResource reads sandbox:///PATH from the caller's sandbox.
func (s *Server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (res *mcp.ReadResourceResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("resource read panicked", "panic", r, "stack", string(debug.Stack()))
			res, err = nil, fmt.Errorf("internal error: %v", r)
		}
	}()
	uri := req.Params.URI
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "sandbox" || u.Host != "" || !path.IsAbs(u.Path) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	sess, release, err := s.acquire(ctx, req.Session, req.Extra)
	if err != nil {
		return nil, err
	}
	defer release()
	sb := sess.Sandbox()
	p := path.Clean(u.Path)
	st, err := sb.Stat(p)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if st.IsDir() {
		ents, err := sb.ReadDir(p)
		if err != nil {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		type entry struct {
			Name string `json:"name"`
			Dir  bool   `json:"dir,omitempty"`
			URI  string `json:"uri"`
		}
		list := []entry{}
		for _, e := range ents {
			list = append(list, entry{Name: e.Name(), Dir: e.Type()&fs.ModeDir != 0, URI: "sandbox://" + path.Join(p, e.Name())})
		}
		b, _ := json.Marshal(list)
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
	}
	b, err := sb.ReadFile(p)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	c := &mcp.ResourceContents{URI: uri, MIMEType: mimeTypes[path.Ext(p)]}
	if utf8.Valid(b) {
		c.Text = string(b)
		if c.MIMEType == "" {
			c.MIMEType = "text/plain"
		}
	} else {
		c.Blob = b
		if c.MIMEType == "" {
			c.MIMEType = "application/octet-stream"
		}
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
}

// mimeTypes are the types of resources by file extension, fixed here so
// that the host's /etc/mime.types does not change them; others are
// text/plain when they are UTF-8 and application/octet-stream when not.
var mimeTypes = map[string]string{
	".json": "application/json", ".csv": "text/csv", ".md": "text/markdown",
	".html": "text/html", ".xml": "application/xml", ".py": "text/x-python",
	".js": "text/javascript", ".sh": "text/x-shellscript", ".png": "image/png",
	".jpg": "image/jpeg", ".gif": "image/gif", ".svg": "image/svg+xml",
	".pdf": "application/pdf", ".wasm": "application/wasm", ".gz": "application/gzip",
	".tar": "application/x-tar", ".zip": "application/zip", ".txt": "text/plain",
}
