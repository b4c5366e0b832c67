// Package wget implements GNU Wget's HTTP downloads for what scripts use:
// saving to a file named after the URL (or -O), quiet and non-verbose
// modes, server headers (-S), extra headers, POST data, continuing a
// partial download (-c), a directory prefix (-P), redirects, and Wget's
// exit codes. Requests go through netx, so inside the sandbox they obey
// its network policy.
package wget

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/netx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const userAgent = "Wget/1.21.3"

// Wget's exit statuses.
const (
	exitGeneric = 1
	exitParse   = 2
	exitIO      = 3
	exitNetwork = 4
	exitServer  = 8
)

type config struct {
	output, prefix, postData string
	outputSet                bool
	quiet, nv, server, cont  bool
	headers                  []string
	timeout                  time.Duration
	tries                    int
	maxRedirect              int
	urls                     []string
}

var withArg = map[string]bool{
	"O": true, "output-document": true, "P": true, "directory-prefix": true,
	"header": true, "post-data": true, "T": true, "timeout": true, "t": true, "tries": true,
	"U": true, "user-agent": true, "max-redirect": true, "post-file": true,
}

// Main runs wget.
func Main(env *tool.Env) int {
	c := &config{maxRedirect: 20, tries: 1}
	args := env.Args[1:]
	agent := userAgent
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			c.urls = append(c.urls, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			c.urls = append(c.urls, a)
			continue
		}
		var name, val string
		hasVal := false
		if strings.HasPrefix(a, "--") {
			name = a[2:]
			if n, v, ok := strings.Cut(name, "="); ok {
				name, val, hasVal = n, v, true
			}
		} else {
			name = a[1:2]
			if len(a) > 2 {
				if withArg[name] {
					val, hasVal = a[2:], true
				} else if a == "-nv" {
					name = "nv"
				} else {
					// Combined flags such as -qO- are split.
					rest := "-" + a[2:]
					args = append(args[:i+1], append([]string{rest}, args[i+1:]...)...)
				}
			}
		}
		if withArg[name] && !hasVal {
			if i+1 >= len(args) {
				fmt.Fprintf(env.Stderr, "wget: option requires an argument -- '%s'\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n", name)
				return exitParse
			}
			i++
			val = args[i]
		}
		switch name {
		case "O", "output-document":
			c.output, c.outputSet = val, true
		case "P", "directory-prefix":
			c.prefix = val
		case "q", "quiet":
			c.quiet = true
		case "nv", "no-verbose":
			c.nv = true
		case "S", "server-response":
			c.server = true
		case "c", "continue":
			c.cont = true
		case "header":
			c.headers = append(c.headers, val)
		case "post-data":
			c.postData = val
		case "post-file":
			b, err := os.ReadFile(val)
			if err != nil {
				fmt.Fprintf(env.Stderr, "wget: %s: %v\n", val, err)
				return exitIO
			}
			c.postData = string(b)
		case "T", "timeout":
			f, err := strconv.ParseFloat(val, 64)
			if err != nil {
				fmt.Fprintf(env.Stderr, "wget: --timeout: Invalid time period ‘%s’\n", val)
				return exitParse
			}
			c.timeout = time.Duration(f * float64(time.Second))
		case "t", "tries":
			n, err := strconv.Atoi(val)
			if err != nil {
				fmt.Fprintf(env.Stderr, "wget: --tries: Invalid number ‘%s’.\n", val)
				return exitParse
			}
			c.tries = max(n, 1)
		case "max-redirect":
			n, err := strconv.Atoi(val)
			if err != nil {
				return exitParse
			}
			c.maxRedirect = n
		case "U", "user-agent":
			agent = val
		case "no-check-certificate", "no-clobber", "nc", "no-hsts":
		case "V", "version":
			fmt.Fprintln(env.Out(), "GNU Wget 1.21.3 built on wasmsand (wasm32-wasip1).")
			return 0
		case "h", "help":
			fmt.Fprintln(env.Out(), "Usage: wget [OPTION]... [URL]...")
			return 0
		default:
			if len(name) == 1 {
				fmt.Fprintf(env.Stderr, "wget: invalid option -- '%s'\n", name)
			} else {
				fmt.Fprintf(env.Stderr, "wget: unrecognized option '--%s'\n", name)
			}
			fmt.Fprintf(env.Stderr, "Usage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n")
			return exitParse
		}
	}
	if len(c.urls) == 0 {
		fmt.Fprintf(env.Stderr, "wget: missing URL\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n")
		return 1
	}
	status := 0
	var single *os.File // -O FILE collects every download
	defer func() {
		if single != nil {
			single.Close()
		}
	}()
	if c.outputSet && c.output != "-" {
		flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if c.cont {
			flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		}
		f, err := os.OpenFile(c.output, flags, 0o644)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: %s\n", c.output, errText(err))
			return exitIO
		}
		single = f
	}
	for _, raw := range c.urls {
		if code := c.get(env, raw, agent, single); code != 0 {
			status = code
		}
	}
	return status
}

func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	s := err.Error()
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

func (c *config) logf(env *tool.Env, format string, a ...any) {
	if !c.quiet && !c.nv {
		fmt.Fprintf(env.Stderr, format, a...)
	}
}

// get downloads one URL; it returns wget's exit status.
func (c *config) get(env *tool.Env, raw, agent string, single *os.File) int {
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		fmt.Fprintf(env.Stderr, "%s: Unsupported scheme or invalid URL.\n", raw)
		return 1
	}
	if u.Path == "" {
		u.Path = "/"
	}
	method := "GET"
	var body []byte
	if c.postData != "" {
		method, body = "POST", []byte(c.postData)
	}
	// The local name comes from the URL as given.
	name := ""
	if !c.outputSet {
		name = path.Base(u.Path)
		if strings.HasSuffix(u.Path, "/") || name == "/" || name == "." {
			name = "index.html"
		}
		if c.prefix != "" {
			name = filepath.Join(c.prefix, name)
		}
		if !c.cont {
			name = unusedName(name)
		}
	}
	var offset int64
	if c.cont && name != "" {
		if st, err := os.Stat(name); err == nil {
			offset = st.Size()
		}
	} else if c.cont && single != nil {
		if st, err := single.Stat(); err == nil {
			offset = st.Size()
		}
	}
	for redirects := 0; ; redirects++ {
		c.logf(env, "--%s--  %s\n", time.Now().Format("2006-01-02 15:04:05"), u)
		hdr := []netx.Field{{Name: "User-Agent", Value: agent}, {Name: "Accept", Value: "*/*"}, {Name: "Accept-Encoding", Value: "identity"}, {Name: "Connection", Value: "Keep-Alive"}}
		if offset > 0 {
			hdr = append(hdr, netx.Field{Name: "Range", Value: fmt.Sprintf("bytes=%d-", offset)})
		}
		if body != nil {
			hdr = append(hdr, netx.Field{Name: "Content-Type", Value: "application/x-www-form-urlencoded"})
		}
		for _, h := range c.headers {
			k, v, ok := strings.Cut(h, ":")
			if !ok {
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			kept := hdr[:0]
			for _, f := range hdr {
				if !strings.EqualFold(f.Name, k) {
					kept = append(kept, f)
				}
			}
			hdr = append(kept, netx.Field{Name: k, Value: v})
		}
		req := &netx.Request{Method: method, URL: u.String(), Header: hdr, Timeout: c.timeout}
		if body != nil {
			req.Body, req.ContentLength = bytes.NewReader(body), int64(len(body))
		}
		c.logf(env, "Connecting to %s... ", u.Host)
		resp, err := netx.Do(req)
		if err != nil {
			var ne *netx.Error
			msg := err.Error()
			if errors.As(err, &ne) {
				switch ne.Kind {
				case netx.Resolve:
					c.logf(env, "\n")
					if !c.quiet {
						fmt.Fprintf(env.Stderr, "wget: unable to resolve host address ‘%s’\n", u.Hostname())
					}
					return exitNetwork
				case netx.Connect:
					msg = "Connection refused."
				case netx.Timeout:
					msg = "Connection timed out."
				}
			}
			if !c.quiet {
				fmt.Fprintf(env.Stderr, "failed: %s\n", msg)
			}
			return exitNetwork
		}
		c.logf(env, "connected.\nHTTP request sent, awaiting response... ")
		if c.server && !c.quiet {
			if !c.nv {
				fmt.Fprintln(env.Stderr)
			}
			fmt.Fprintf(env.Stderr, "  %s %s\n", resp.Proto, resp.Status)
			for _, f := range resp.Header {
				fmt.Fprintf(env.Stderr, "  %s: %s\n", f.Name, f.Value)
			}
		} else {
			c.logf(env, "%s\n", resp.Status)
		}
		if loc := resp.Get("Location"); loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
			resp.Body.Close()
			next, err := u.Parse(loc)
			if err != nil {
				return exitServer
			}
			c.logf(env, "Location: %s [following]\n", loc)
			if redirects >= c.maxRedirect {
				if !c.quiet {
					fmt.Fprintf(env.Stderr, "%d redirections exceeded.\n", c.maxRedirect)
				}
				return exitServer
			}
			if resp.StatusCode != 307 && resp.StatusCode != 308 {
				method, body = "GET", nil
			}
			u = next
			continue
		}
		if c.cont && resp.StatusCode == 416 {
			resp.Body.Close()
			c.logf(env, "\n    The file is already fully retrieved; nothing to do.\n\n")
			return 0
		}
		if resp.StatusCode >= 400 {
			resp.Body.Close()
			if !c.quiet {
				fmt.Fprintf(env.Stderr, "%s ERROR %d: %s.\n", time.Now().Format("2006-01-02 15:04:05"), resp.StatusCode, strings.TrimSpace(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode))))
			}
			return exitServer
		}
		appendTo := offset > 0 && resp.StatusCode == 206
		var w io.Writer
		var f *os.File
		switch {
		case c.outputSet && c.output == "-":
			w = env.Out()
		case single != nil:
			if offset > 0 && !appendTo {
				single.Truncate(0)
				single.Seek(0, io.SeekStart)
			}
			w = single
		default:
			flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
			if appendTo {
				flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
			}
			if c.prefix != "" {
				os.MkdirAll(c.prefix, 0o755)
			}
			f, err = os.OpenFile(name, flags, 0o644)
			if err != nil {
				resp.Body.Close()
				fmt.Fprintf(env.Stderr, "%s: %s\n", name, errText(err))
				return exitIO
			}
			w = f
		}
		if cl := resp.Get("Content-Length"); cl != "" {
			c.logf(env, "Length: %s [%s]\n", cl, resp.Get("Content-Type"))
		} else {
			c.logf(env, "Length: unspecified [%s]\n", resp.Get("Content-Type"))
		}
		shown := name
		if c.outputSet {
			shown = c.output
		}
		c.logf(env, "Saving to: ‘%s’\n\n", shown)
		n, err := copyBody(w, resp.Body)
		resp.Body.Close()
		if f != nil {
			if cerr := f.Close(); cerr != nil && err == nil {
				err = &writeErr{cerr}
			}
		}
		if bw, ok := w.(interface{ Flush() error }); ok {
			bw.Flush()
		}
		if err != nil {
			var we *writeErr
			if errors.As(err, &we) {
				fmt.Fprintf(env.Stderr, "wget: Cannot write to ‘%s’ (%s).\n", shown, errText(we.error))
				return exitIO
			}
			if !c.quiet {
				fmt.Fprintf(env.Stderr, "Read error at byte %d (%s).\n", n, err)
			}
			return exitNetwork
		}
		c.logf(env, "‘%s’ saved [%d]\n\n", shown, n)
		if c.nv && !c.quiet {
			fmt.Fprintf(env.Stderr, "%s URL:%s [%d] -> \"%s\" [1]\n", time.Now().Format("2006-01-02 15:04:05"), u, n, shown)
		}
		return 0
	}
}

type writeErr struct{ error }

func copyBody(w io.Writer, r io.Reader) (int64, error) {
	buf := make([]byte, 256<<10) // the most one http_read moves
	var n int64
	for {
		k, err := r.Read(buf)
		if k > 0 {
			n += int64(k)
			if _, werr := w.Write(buf[:k]); werr != nil {
				return n, &writeErr{werr}
			}
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// unusedName returns name, or name.1, name.2... if it exists, as wget
// does without -O.
func unusedName(name string) string {
	if _, err := os.Lstat(name); err != nil {
		return name
	}
	for i := 1; ; i++ {
		n := fmt.Sprintf("%s.%d", name, i)
		if _, err := os.Lstat(n); err != nil {
			return n
		}
	}
}
