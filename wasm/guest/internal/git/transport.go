package git

import (
	"errors"
	"net/http"
	"strconv"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/plumbing/transport/server"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/netx"
)

// hostTransport is go-git's HTTP round tripper over netx, the client curl
// and wget use: under wasip1 every request goes through the sandbox's
// "wasmsand" host calls and so through its network policy; natively it
// is net/http. Redirects come back to http.Client, which makes a new
// request for each hop, checked again.
type hostTransport struct {
	mu      sync.Mutex
	lastErr *netx.Error // the last request's failure, for git's message
}

func (t *hostTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	req := &netx.Request{Method: r.Method, URL: r.URL.String()}
	if r.Host != "" && r.Host != r.URL.Host {
		req.Header = append(req.Header, netx.Field{Name: "Host", Value: r.Host})
	}
	for name, values := range r.Header {
		for _, v := range values {
			req.Header = append(req.Header, netx.Field{Name: name, Value: v})
		}
	}
	if r.Body != nil && r.Body != http.NoBody {
		req.Body, req.ContentLength = r.Body, r.ContentLength
		if req.ContentLength <= 0 {
			req.ContentLength = -1
		}
	}
	resp, err := netx.Do(req)
	if r.Body != nil {
		r.Body.Close()
	}
	if err != nil {
		var ne *netx.Error
		if errors.As(err, &ne) {
			t.mu.Lock()
			t.lastErr = ne
			t.mu.Unlock()
		}
		return nil, err
	}
	h := http.Header{}
	for _, f := range resp.Header {
		h.Add(f.Name, f.Value)
	}
	length := int64(-1)
	if n, err := strconv.ParseInt(h.Get("Content-Length"), 10, 64); err == nil {
		length = n
	}
	major, minor, ok := http.ParseHTTPVersion(resp.Proto)
	if !ok {
		major, minor = 1, 1
	}
	return &http.Response{
		Status: resp.Status, StatusCode: resp.StatusCode,
		Proto: resp.Proto, ProtoMajor: major, ProtoMinor: minor,
		Header: h, Body: resp.Body, ContentLength: length, Request: r,
	}, nil
}

// networkError returns the failure of the last request, if one failed.
func (t *hostTransport) networkError() *netx.Error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastErr
}

var (
	hostHTTP      = &hostTransport{}
	transportOnce sync.Once
)

// installTransport makes go-git's http and https remotes use transport.
func installTransport() {
	transportOnce.Do(func() {
		c := githttp.NewClient(&http.Client{Transport: hostHTTP})
		client.InstallProtocol("http", c)
		client.InstallProtocol("https", c)
		// Local paths are served in-process (go-git's file transport
		// would run git-upload-pack, which the sandbox does not have).
		client.InstallProtocol("file", server.NewServer(server.NewFilesystemLoader(osfs.New("/"))))
	})
}
