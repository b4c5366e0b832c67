// Package curl implements curl for what scripts and agents use: GET, POST
// and other methods with headers, form and JSON bodies, redirects, output
// to files, write-out variables, retries and curl's exit codes and
// messages. Requests go through netx, so inside the sandbox they obey its
// network policy.
package curl

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/netx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// userAgent is what curl sends unless told otherwise: that of the curl
// whose behaviour this one follows.
const userAgent = "curl/7.88.1"

// config is the parsed command line.
type config struct {
	silent, showErr, fail, follow, head, include, verbose, compressed, get bool
	method                                                                 string
	headers                                                                []string
	data                                                                   []string // -d pieces, joined by &
	haveData                                                               bool
	binFile                                                                string // --data-binary @FILE, the only data: sent straight from the file
	info                                                                   string // --version or --help text: print it and stop
	json                                                                   bool
	forms                                                                  []string
	user, agent, referer, writeOut                                         string
	maxTime                                                                time.Duration
	retries, maxRedirs                                                     int
	urls                                                                   []string
	outputs                                                                []output // -o / -O in order
}

type output struct {
	file   string
	remote bool
}

// curlError is a failure with curl's exit code and message.
type curlError struct {
	code int
	msg  string
}

func (e *curlError) Error() string { return e.msg }

func errf(code int, format string, a ...any) *curlError {
	return &curlError{code, fmt.Sprintf(format, a...)}
}

// options that take an argument, long and short.
var withArg = map[string]bool{
	"o": true, "output": true, "X": true, "request": true, "H": true, "header": true,
	"d": true, "data": true, "data-raw": true, "data-binary": true, "data-ascii": true, "data-urlencode": true,
	"json": true, "F": true, "form": true, "u": true, "user": true, "A": true, "user-agent": true,
	"e": true, "referer": true, "w": true, "write-out": true, "m": true, "max-time": true,
	"retry": true, "max-redirs": true, "connect-timeout": true, "retry-delay": true, "retry-max-time": true,
}

// Main runs curl.
func Main(env *tool.Env) int {
	c, err := parse(env.Args[1:])
	if err != nil {
		var ce *curlError
		if errors.As(err, &ce) {
			if ce.code == 2 {
				fmt.Fprintf(env.Stderr, "curl: %s\ncurl: try 'curl --help' or 'curl --manual' for more information\n", ce.msg)
			} else {
				fmt.Fprintf(env.Stderr, "curl: (%d) %s\n", ce.code, ce.msg)
			}
			return ce.code
		}
		return 2
	}
	if c.info != "" {
		io.WriteString(env.Out(), c.info)
		return 0
	}
	if len(c.urls) == 0 {
		fmt.Fprintln(env.Stderr, "curl: try 'curl --help' or 'curl --manual' for more information")
		return 2
	}
	status := 0
	for i, u := range c.urls {
		var out output
		if i < len(c.outputs) {
			out = c.outputs[i]
		}
		if err := c.transfer(env, u, out); err != nil {
			var ce *curlError
			if !errors.As(err, &ce) {
				ce = &curlError{1, err.Error()}
			}
			if !c.silent || c.showErr {
				// Like curl's, the message goes out before buffered output.
				fmt.Fprintf(env.Stderr, "curl: (%d) %s\n", ce.code, ce.msg)
			}
			status = ce.code
		}
	}
	return status
}

func parse(args []string) (*config, error) {
	c := &config{maxRedirs: 50}
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
		var names []string
		var inline string
		hasInline := false
		if strings.HasPrefix(a, "--") {
			name := a[2:]
			if n, v, ok := strings.Cut(name, "="); ok && withArg[n] {
				name, inline, hasInline = n, v, true
			}
			names = []string{name}
		} else {
			for j := 1; j < len(a); j++ {
				n := a[j : j+1]
				names = append(names, n)
				if withArg[n] && j+1 < len(a) {
					inline, hasInline = a[j+1:], true
					break
				}
			}
		}
		for _, n := range names {
			val := ""
			if withArg[n] {
				switch {
				case hasInline:
					val = inline
				case i+1 < len(args):
					i++
					val = args[i]
				default:
					return nil, errf(2, "option -%s: requires parameter", strings.TrimLeft(a, "-"))
				}
			}
			if err := c.set(n, val); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

func (c *config) set(n, val string) error {
	opt := "--" + n
	if len(n) == 1 {
		opt = "-" + n
	}
	switch n {
	case "s", "silent":
		c.silent = true
	case "S", "show-error":
		c.showErr = true
	case "f", "fail":
		c.fail = true
	case "L", "location":
		c.follow = true
	case "I", "head":
		c.head = true
	case "i", "include":
		c.include = true
	case "v", "verbose":
		c.verbose = true
	case "G", "get":
		c.get = true
	case "compressed":
		c.compressed = true
	case "o", "output":
		c.outputs = append(c.outputs, output{file: val})
	case "O", "remote-name":
		c.outputs = append(c.outputs, output{remote: true})
	case "X", "request":
		c.method = val
	case "H", "header":
		c.headers = append(c.headers, val)
	case "d", "data", "data-ascii":
		if strings.HasPrefix(val, "@") {
			b, err := readData(val[1:])
			if err != nil {
				return err
			}
			val = strings.NewReplacer("\r", "", "\n", "").Replace(string(b))
		}
		if err := c.materialize(); err != nil {
			return err
		}
		c.data, c.haveData = append(c.data, val), true
	case "data-raw":
		if err := c.materialize(); err != nil {
			return err
		}
		c.data, c.haveData = append(c.data, val), true
	case "data-binary":
		if name, ok := strings.CutPrefix(val, "@"); ok && name != "-" && !c.haveData {
			if _, err := os.Stat(name); err != nil {
				return errf(26, "Failed to open/read local data from file/application")
			}
			c.binFile, c.haveData = name, true
			return nil
		}
		if strings.HasPrefix(val, "@") {
			b, err := readData(val[1:])
			if err != nil {
				return err
			}
			val = string(b)
		}
		if err := c.materialize(); err != nil {
			return err
		}
		c.data, c.haveData = append(c.data, val), true
	case "data-urlencode":
		name, v, ok := strings.Cut(val, "=")
		if ok {
			val = name + "=" + url.QueryEscape(v)
		} else {
			val = url.QueryEscape(val)
		}
		if err := c.materialize(); err != nil {
			return err
		}
		c.data, c.haveData = append(c.data, strings.ReplaceAll(val, "+", "%20")), true
	case "json":
		if strings.HasPrefix(val, "@") {
			b, err := readData(val[1:])
			if err != nil {
				return err
			}
			val = string(b)
		}
		if err := c.materialize(); err != nil {
			return err
		}
		c.data, c.haveData, c.json = append(c.data, val), true, true
	case "F", "form":
		c.forms = append(c.forms, val)
	case "u", "user":
		c.user = val
	case "A", "user-agent":
		c.agent = val
		if val == "" {
			c.agent = "\x00" // send none
		}
	case "e", "referer":
		c.referer = val
	case "w", "write-out":
		c.writeOut = val
	case "m", "max-time":
		f, err := strconv.ParseFloat(val, 64)
		if err != nil || f < 0 {
			return errf(2, "option %s: expected a proper numerical parameter", opt)
		}
		c.maxTime = time.Duration(f * float64(time.Second))
	case "retry":
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return errf(2, "option %s: expected a proper numerical parameter", opt)
		}
		c.retries = n
	case "max-redirs":
		n, err := strconv.Atoi(val)
		if err != nil {
			return errf(2, "option %s: expected a proper numerical parameter", opt)
		}
		c.maxRedirs = n
	case "connect-timeout", "retry-delay", "retry-max-time":
		// Accepted; the sandbox's own timeouts apply.
	case "V", "version":
		c.info = "curl 7.88.1 (wasm32-wasip1) wasmsand\nProtocols: http https\nFeatures: HTTP2 libz\n"
	case "h", "help":
		c.info = `Usage: curl [options...] <url>
 -d, --data <data>          HTTP POST data
 -f, --fail                 Fail fast with no output on HTTP errors
 -h, --help <category>      Get help for commands
 -i, --include              Include protocol response headers in the output
 -o, --output <file>        Write to file instead of stdout
 -O, --remote-name          Write output to a file named as the remote file
 -s, --silent               Silent mode
 -u, --user <user:password> Server user and password
 -A, --user-agent <name>    Send User-Agent <name> to server
 -v, --verbose              Make the operation more talkative
 -V, --version              Show version number and quit
Also: -S -L -I -X -H --data-raw --data-binary --data-urlencode --json -F -G -e -w
-m/--max-time --retry --max-redirs --compressed. Network access is the sandbox's to grant.
`
	case "k", "insecure", "N", "no-buffer", "no-progress-meter", "#", "progress-bar", "http1.1", "http2":
	default:
		return errf(2, "option %s: is unknown", opt)
	}
	return nil
}

func readData(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(os.Stdin)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, errf(26, "Failed to open/read local data from file/application")
	}
	return b, nil
}

// materialize reads a --data-binary @FILE that more data joins.
func (c *config) materialize() error {
	if c.binFile == "" {
		return nil
	}
	b, err := readData(c.binFile)
	if err != nil {
		return err
	}
	c.binFile = ""
	c.data = append([]string{string(b)}, c.data...)
	return nil
}

// payload is a request body: bytes, or a file sent as it is read.
type payload struct {
	data []byte
	file string
}

// open returns the body's reader and length.
func (p *payload) open() (io.ReadCloser, int64, error) {
	if p.file == "" {
		return io.NopCloser(bytes.NewReader(p.data)), int64(len(p.data)), nil
	}
	f, err := os.Open(p.file)
	if err != nil {
		return nil, 0, errf(26, "Failed to open/read local data from file/application")
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, errf(26, "Failed to open/read local data from file/application")
	}
	return f, st.Size(), nil
}

// body builds the request body and its content type.
func (c *config) body() (*payload, string, error) {
	b, ctype, err := c.bodyBytes()
	if err != nil || b == nil && c.binFile == "" {
		return nil, ctype, err
	}
	if c.binFile != "" {
		return &payload{file: c.binFile}, ctype, nil
	}
	return &payload{data: b}, ctype, nil
}

// bodyBytes builds the request body in memory, unless it is a file sent
// as it is (c.binFile), and its content type.
func (c *config) bodyBytes() ([]byte, string, error) {
	if c.binFile != "" && (c.get || c.json) {
		if err := c.materialize(); err != nil {
			return nil, "", err
		}
	}
	if len(c.forms) > 0 {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		mw.SetBoundary("------------------------" + strings.Repeat("0", 22))
		for _, f := range c.forms {
			name, val, ok := strings.Cut(f, "=")
			if !ok {
				return nil, "", errf(26, "Illegally formatted input field!")
			}
			switch {
			case strings.HasPrefix(val, "@"):
				file, ctype, _ := strings.Cut(val[1:], ";type=")
				b, err := os.ReadFile(file)
				if err != nil {
					return nil, "", errf(26, "Failed to open/read local data from file/application")
				}
				h := textproto.MIMEHeader{}
				h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, name, path.Base(file)))
				if ctype == "" {
					ctype = contentType(file)
				}
				h.Set("Content-Type", ctype)
				w, _ := mw.CreatePart(h)
				w.Write(b)
			case strings.HasPrefix(val, "<"):
				b, err := os.ReadFile(val[1:])
				if err != nil {
					return nil, "", errf(26, "Failed to open/read local data from file/application")
				}
				w, _ := mw.CreateFormField(name)
				w.Write(b)
			default:
				w, _ := mw.CreateFormField(name)
				io.WriteString(w, val)
			}
		}
		mw.Close()
		return buf.Bytes(), "multipart/form-data; boundary=" + mw.Boundary(), nil
	}
	if !c.haveData {
		return nil, "", nil
	}
	if c.binFile != "" {
		return nil, "application/x-www-form-urlencoded", nil
	}
	if c.json {
		return []byte(strings.Join(c.data, "")), "application/json", nil
	}
	return []byte(strings.Join(c.data, "&")), "application/x-www-form-urlencoded", nil
}

// normalizeURL adds the scheme curl assumes.
func normalizeURL(raw string) (*url.URL, error) {
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, errf(3, "URL using bad/illegal format or missing URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errf(1, `Protocol "%s" not supported or disabled in libcurl`, u.Scheme)
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return u, nil
}

// stats are what -w reports.
type stats struct {
	code, redirects        int
	url, ctype, method     string
	redirectURL            string
	sizeDownload, sizeHead int64
	sizeUpload             int64
	contentLength          int64 // of the last response, or -1
	bodyStart              int64 // sizeDownload when its body began
	start                  time.Time
	total                  time.Duration
	header                 []netx.Field
	exit                   int
}

func (c *config) transfer(env *tool.Env, raw string, out output) (err error) {
	st := &stats{start: time.Now()}
	defer func() {
		if c.writeOut != "" {
			st.total = time.Since(st.start)
			var ce *curlError
			if errors.As(err, &ce) {
				st.exit = ce.code
			}
			writeOut(env, c.writeOut, st)
		}
	}()
	u, err := normalizeURL(raw)
	if err != nil {
		return err
	}
	body, ctype, err := c.body()
	if err != nil {
		return err
	}
	method := "GET"
	switch {
	case c.head:
		method = "HEAD"
	case c.get && body != nil:
		q := u.RawQuery
		if q != "" {
			q += "&"
		}
		u.RawQuery = q + string(body.data)
		body, ctype = nil, ""
	case body != nil:
		method = "POST"
	}
	if c.method != "" {
		method = c.method
	}
	var w io.Writer = env.Out()
	var file *os.File
	openOut := func(u *url.URL) error {
		if file != nil || (out.file == "" && !out.remote) || out.file == "-" {
			return nil
		}
		name := out.file
		if out.remote {
			name = path.Base(u.Path)
			if name == "/" || name == "." || name == "" {
				return errf(23, "Remote file name has no length!")
			}
		}
		f, err := os.Create(name)
		if err != nil {
			return errf(23, "Failure writing output to destination")
		}
		file, w = f, f
		return nil
	}
	defer func() {
		if file != nil {
			if cerr := file.Close(); cerr != nil && err == nil {
				err = errf(23, "Failure writing output to destination")
			}
		}
	}()

	for attempt := 0; ; attempt++ {
		err = c.follow1(env, u, method, body, ctype, st, openOut, &w, attempt < c.retries)
		var ce *curlError
		retry := errors.As(err, &ce) && (ce.code == 28 || ce.code == 7 && !strings.HasPrefix(ce.msg, "wasmsand:") || ce.code == 56 || ce.code == retryHTTP)
		if !retry || attempt >= c.retries {
			return err
		}
		delay := time.Second << attempt
		if !c.silent || c.showErr {
			fmt.Fprintf(env.Stderr, "Warning: Problem : %s. Will retry in %d seconds. %d retries left.\n", retryReason(ce), int(delay/time.Second), c.retries-attempt)
		}
		time.Sleep(delay)
	}
}

func retryReason(ce *curlError) string {
	if ce.code == 28 {
		return "timeout"
	}
	if ce.code == retryHTTP {
		return "HTTP error"
	}
	return "connection problem"
}

// retryHTTP is the code of a transient HTTP answer (408, 429, 500, 502,
// 503, 504) that --retry tries again.
const retryHTTP = -1

func transient(code int) bool {
	switch code {
	case 408, 429, 500, 502, 503, 504:
		return true
	}
	return false
}

// follow1 runs one request and, with -L, the redirects after it.
func (c *config) follow1(env *tool.Env, u *url.URL, method string, body *payload, ctype string, st *stats,
	openOut func(*url.URL) error, w *io.Writer, canRetry bool) error {
	var deadline time.Time
	if c.maxTime > 0 {
		deadline = time.Now().Add(c.maxTime)
	}
	st.redirects = 0
	for {
		resp, err := c.do(env, u, method, body, ctype, deadline, st)
		if err != nil {
			return err
		}
		st.code, st.url, st.method = resp.StatusCode, u.String(), method
		st.ctype = resp.Get("Content-Type")
		st.contentLength = -1
		if n, err := strconv.ParseInt(resp.Get("Content-Length"), 10, 64); err == nil {
			st.contentLength = n
		}
		st.bodyStart = st.sizeDownload // sizeDownload counts earlier hops too
		st.header = resp.Header
		loc := resp.Get("Location")
		st.redirectURL = ""
		var next *url.URL
		if loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
			if ref, err := u.Parse(loc); err == nil {
				next = ref
				st.redirectURL = ref.String()
			}
		}
		redirecting := c.follow && next != nil
		headText := formatHead(resp)
		st.sizeHead += int64(len(headText))
		if canRetry && transient(resp.StatusCode) {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return &curlError{retryHTTP, "HTTP error"}
		}
		if c.fail && resp.StatusCode >= 400 {
			resp.Body.Close()
			return errf(22, "The requested URL returned error: %d", resp.StatusCode)
		}
		if err := openOut(u); err != nil {
			resp.Body.Close()
			return err
		}
		if c.include || c.head {
			io.WriteString(*w, headText)
		}
		if redirecting {
			n, err := io.Copy(io.Discard, resp.Body)
			st.sizeDownload += n
			resp.Body.Close()
			if err != nil {
				return c.bodyErr(err, deadline, st)
			}
			if st.redirects >= c.maxRedirs {
				return errf(47, "Maximum (%d) redirects followed", c.maxRedirs)
			}
			st.redirects++
			if resp.StatusCode == 303 && method != "HEAD" || (resp.StatusCode == 301 || resp.StatusCode == 302) && method == "POST" && c.method == "" {
				method, body, ctype = "GET", nil, ""
			}
			if next.Host != u.Host {
				c.user = "" // credentials stay with the host they were given for
			}
			u = next
			continue
		}
		if method == "HEAD" {
			resp.Body.Close()
			return nil
		}
		var r io.Reader = resp.Body
		if c.compressed {
			switch strings.ToLower(resp.Get("Content-Encoding")) {
			case "gzip", "x-gzip":
				zr, err := gzip.NewReader(resp.Body)
				if err != nil {
					resp.Body.Close()
					return errf(61, "Error while processing content unencoding: %v", err)
				}
				r = zr
			case "deflate":
				r = flate.NewReader(resp.Body)
			}
		}
		err = copyOut(*w, r, &st.sizeDownload)
		resp.Body.Close()
		if err != nil {
			var we *writeErr
			if errors.As(err, &we) {
				return errf(23, "Failure writing output to destination")
			}
			return c.bodyErr(err, deadline, st)
		}
		if bw, ok := (*w).(interface{ Flush() error }); ok {
			if bw.Flush() != nil {
				return errf(23, "Failure writing output to destination")
			}
		}
		return nil
	}
}

type writeErr struct{ error }

// copyOut copies r to w, counting into n.
func copyOut(w io.Writer, r io.Reader, n *int64) error {
	buf := make([]byte, 256<<10) // the most one http_read moves
	for {
		k, err := r.Read(buf)
		if k > 0 {
			*n += int64(k)
			if _, werr := w.Write(buf[:k]); werr != nil {
				return &writeErr{werr}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// timeoutMs is the time a timed-out transfer took, as curl reports it:
// --max-time if set, else the time since the transfer began (the
// sandbox's own per-request timeout).
func (c *config) timeoutMs(st *stats) int64 {
	if c.maxTime > 0 {
		return c.maxTime.Milliseconds()
	}
	return time.Since(st.start).Milliseconds()
}

func (c *config) bodyErr(err error, deadline time.Time, st *stats) error {
	var ne *netx.Error
	if errors.As(err, &ne) {
		switch ne.Kind {
		case netx.Timeout:
			return errf(28, "Operation timed out after %d milliseconds with %d bytes received", c.timeoutMs(st), st.sizeDownload)
		case netx.Budget:
			return errf(63, "%s", ne.Msg)
		case netx.Partial:
			if got := st.sizeDownload - st.bodyStart; st.contentLength > got {
				return errf(18, "transfer closed with %d bytes remaining to read", st.contentLength-got)
			}
			return errf(18, "transfer closed with outstanding read data remaining")
		}
	}
	if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, flate.CorruptInputError(0)) {
		return errf(61, "Error while processing content unencoding")
	}
	if ne != nil && strings.Contains(ne.Msg, "connection reset by peer") {
		return errf(56, "Recv failure: Connection reset by peer")
	}
	return errf(56, "Failure when receiving data from the peer")
}

// do sends one request.
func (c *config) do(env *tool.Env, u *url.URL, method string, body *payload, ctype string, deadline time.Time, st *stats) (*netx.Response, error) {
	var hdr []netx.Field
	hostHdr := u.Host
	add := func(k, v string) { hdr = append(hdr, netx.Field{Name: k, Value: v}) }
	user := c.user
	if u.User != nil {
		user = u.User.String()
		if un, err := url.PathUnescape(user); err == nil {
			user = un
		}
		u2 := *u
		u2.User = nil
		u = &u2
	}
	if user != "" {
		if !strings.Contains(user, ":") {
			user += ":"
		}
		add("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user)))
	}
	agent := userAgent
	if c.agent != "" {
		agent = c.agent
	}
	if agent != "\x00" {
		add("User-Agent", agent)
	}
	accept := "*/*"
	if c.json {
		accept = "application/json"
	}
	add("Accept", accept)
	if c.referer != "" {
		add("Referer", strings.TrimSuffix(c.referer, ";auto"))
	}
	if c.compressed {
		add("Accept-Encoding", "deflate, gzip")
	}
	if body != nil && ctype != "" {
		add("Content-Type", ctype)
	}
	// -H replaces curl's own headers; "Name:" removes one, "Name;" sends it empty.
	for _, h := range c.headers {
		if strings.HasPrefix(h, "@") {
			continue
		}
		name, val, ok := strings.Cut(h, ":")
		empty := false
		if !ok {
			if n, found := strings.CutSuffix(h, ";"); found {
				name, empty = n, true
			} else {
				continue
			}
		}
		name = strings.TrimSpace(name)
		val = strings.TrimSpace(val)
		kept := hdr[:0]
		for _, f := range hdr {
			if !strings.EqualFold(f.Name, name) {
				kept = append(kept, f)
			}
		}
		hdr = kept
		if strings.EqualFold(name, "Host") {
			hostHdr = val
			continue
		}
		if val != "" || empty {
			add(name, val)
		}
	}
	req := &netx.Request{Method: method, URL: u.String(), Header: hdr}
	if body != nil {
		r, n, err := body.open()
		if err != nil {
			return nil, err
		}
		defer r.Close()
		req.Body, req.ContentLength = r, n
		st.sizeUpload += n
	}
	if !deadline.IsZero() {
		req.Timeout = time.Until(deadline)
		if req.Timeout <= 0 {
			return nil, errf(28, "Operation timed out after %d milliseconds with %d bytes received", c.maxTime.Milliseconds(), st.sizeDownload)
		}
	}
	if c.verbose {
		port := u.Port()
		if port == "" {
			port = "80"
			if u.Scheme == "https" {
				port = "443"
			}
		}
		fmt.Fprintf(env.Stderr, "*   Trying %s:%s...\n", u.Hostname(), port)
		path := u.RequestURI()
		fmt.Fprintf(env.Stderr, "> %s %s HTTP/1.1\r\n> Host: %s\r\n", method, path, hostHdr)
		for _, f := range hdr {
			fmt.Fprintf(env.Stderr, "> %s: %s\r\n", f.Name, f.Value)
		}
		if body != nil {
			fmt.Fprintf(env.Stderr, "> Content-Length: %d\r\n", req.ContentLength)
		}
		fmt.Fprintf(env.Stderr, "> \r\n")
	}
	if hostHdr != u.Host {
		req.Header = append(req.Header, netx.Field{Name: "Host", Value: hostHdr})
	}
	start := time.Now()
	resp, err := netx.Do(req)
	if err != nil {
		var ne *netx.Error
		if !errors.As(err, &ne) {
			return nil, errf(56, "Failure when receiving data from the peer")
		}
		port := u.Port()
		if port == "" {
			port = "80"
			if u.Scheme == "https" {
				port = "443"
			}
		}
		switch ne.Kind {
		case netx.Denied, netx.Budget:
			return nil, errf(7, "%s", ne.Msg)
		case netx.Resolve:
			return nil, errf(6, "Could not resolve host: %s", u.Hostname())
		case netx.Connect:
			return nil, errf(7, "Failed to connect to %s port %s after %d ms: Couldn't connect to server", u.Hostname(), port, time.Since(start).Milliseconds())
		case netx.Timeout:
			return nil, errf(28, "Operation timed out after %d milliseconds with 0 bytes received", c.timeoutMs(st))
		case netx.BadURL:
			return nil, errf(3, "URL using bad/illegal format or missing URL")
		}
		if strings.HasPrefix(ne.Msg, "wasmsand: ") {
			return nil, errf(56, "%s", ne.Msg)
		}
		return nil, errf(56, "Failure when receiving data from the peer")
	}
	if c.verbose {
		for _, l := range strings.Split(strings.TrimSuffix(formatHead(resp), "\r\n"), "\r\n") {
			fmt.Fprintf(env.Stderr, "< %s\r\n", l)
		}
	}
	return resp, nil
}

// formatHead renders a response head as curl prints it with -i.
func formatHead(r *netx.Response) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\r\n", r.Proto, r.Status)
	for _, f := range r.Header {
		fmt.Fprintf(&b, "%s: %s\r\n", f.Name, f.Value)
	}
	b.WriteString("\r\n")
	return b.String()
}

// writeOut prints -w's format.
func writeOut(env *tool.Env, format string, st *stats) {
	w := env.Out()
	for i := 0; i < len(format); i++ {
		ch := format[i]
		switch {
		case ch == '\\' && i+1 < len(format):
			i++
			switch format[i] {
			case 'n':
				w.WriteByte('\n')
			case 't':
				w.WriteByte('\t')
			case 'r':
				w.WriteByte('\r')
			case '\\':
				w.WriteByte('\\')
			default:
				w.WriteByte('\\')
				w.WriteByte(format[i])
			}
		case ch == '%' && strings.HasPrefix(format[i:], "%%"):
			w.WriteByte('%')
			i++
		case ch == '%' && strings.HasPrefix(format[i:], "%{"):
			end := strings.IndexByte(format[i:], '}')
			if end < 0 {
				w.WriteString(format[i:])
				return
			}
			name := format[i+2 : i+end]
			i += end
			w.WriteString(variable(name, st))
		case ch == '%' && strings.HasPrefix(format[i:], "%header{"):
			end := strings.IndexByte(format[i:], '}')
			if end < 0 {
				w.WriteString(format[i:])
				return
			}
			name := format[i+8 : i+end]
			i += end
			var vals []string
			for _, f := range st.header {
				if strings.EqualFold(f.Name, name) {
					vals = append(vals, f.Value)
				}
			}
			w.WriteString(strings.Join(vals, ", "))
		default:
			w.WriteByte(ch)
		}
	}
	w.Flush()
}

func variable(name string, st *stats) string {
	secs := func(d time.Duration) string { return fmt.Sprintf("%.6f", d.Seconds()) }
	switch name {
	case "http_code", "response_code":
		return fmt.Sprintf("%03d", st.code)
	case "url_effective", "url":
		return st.url
	case "content_type":
		return st.ctype
	case "size_download":
		return strconv.FormatInt(st.sizeDownload, 10)
	case "size_upload":
		return strconv.FormatInt(st.sizeUpload, 10)
	case "size_header":
		return strconv.FormatInt(st.sizeHead, 10)
	case "num_redirects":
		return strconv.Itoa(st.redirects)
	case "redirect_url":
		return st.redirectURL
	case "method":
		return st.method
	case "exitcode":
		return strconv.Itoa(st.exit)
	case "time_total", "time_starttransfer", "time_connect", "time_namelookup", "time_pretransfer":
		return secs(st.total)
	case "speed_download":
		if st.total > 0 {
			return fmt.Sprintf("%.0f", float64(st.sizeDownload)/st.total.Seconds())
		}
		return "0"
	}
	return ""
}

// contentType guesses a file part's type from its name, as curl does.
func contentType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".gif":
		return "image/gif"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".png":
		return "image/png"
	case ".svg":
		return "image/svg+xml"
	case ".txt":
		return "text/plain"
	case ".htm", ".html":
		return "text/html"
	case ".json":
		return "application/json"
	case ".xml":
		return "application/xml"
	case ".pdf":
		return "application/pdf"
	}
	return "application/octet-stream"
}
