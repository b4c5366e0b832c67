package git

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/sideband"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
	"github.com/go-git/go-git/v5/utils/ioutil"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/netx"
)

// smartHTTP is git's smart HTTP protocol (GET info/refs, POST
// git-upload-pack and git-receive-pack) as a go-git transport, over netx:
// the client curl and wget use. Under wasip1 every request goes through
// the sandbox's "wasmsand" host calls and so through its network policy;
// natively netx is net/http. Redirects of the first request are followed
// here, each hop a new request checked again. go-git's own http transport
// is not used: it would bring net/http and crypto/tls into git.wasm for
// nothing.
type smartHTTP struct {
	mu      sync.Mutex
	lastErr *netx.Error // the last request's failure, for git's message
}

func (t *smartHTTP) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	return t.session(ep, transport.UploadPackServiceName), nil
}

func (t *smartHTTP) NewReceivePackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.ReceivePackSession, error) {
	return t.session(ep, transport.ReceivePackServiceName), nil
}

func (t *smartHTTP) session(ep *transport.Endpoint, service string) *httpSession {
	host := ep.Host
	if ep.Port != 0 && !(ep.Protocol == "http" && ep.Port == 80 || ep.Protocol == "https" && ep.Port == 443) {
		host += ":" + strconv.Itoa(ep.Port)
	}
	base := (&url.URL{Scheme: ep.Protocol, Host: host, Path: ep.Path}).String()
	s := &httpSession{t: t, base: strings.TrimRight(base, "/"), service: service}
	if ep.User != "" || ep.Password != "" {
		s.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(ep.User+":"+ep.Password))
	}
	return s
}

// networkError returns the failure of the last request, if one failed.
func (t *smartHTTP) networkError() *netx.Error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastErr
}

// httpSession is one exchange with a repository: its references, then an
// upload-pack or receive-pack request.
type httpSession struct {
	t       *smartHTTP
	base    string // the repository's URL, without a trailing slash
	service string // git-upload-pack or git-receive-pack
	auth    string // the Authorization header, if the URL had a user
}

// do sends one request and checks its status as git does.
func (s *httpSession) do(method, u string, body []byte) (*netx.Response, error) {
	req := &netx.Request{Method: method, URL: u, Header: []netx.Field{{Name: "User-Agent", Value: capability.DefaultAgent()}}}
	if body == nil {
		req.Header = append(req.Header, netx.Field{Name: "Accept", Value: "*/*"})
	} else {
		req.Header = append(req.Header,
			netx.Field{Name: "Accept", Value: "application/x-" + s.service + "-result"},
			netx.Field{Name: "Content-Type", Value: "application/x-" + s.service + "-request"})
		req.Body, req.ContentLength = bytes.NewReader(body), int64(len(body))
	}
	if s.auth != "" {
		req.Header = append(req.Header, netx.Field{Name: "Authorization", Value: s.auth})
	}
	resp, err := netx.Do(req)
	if err != nil {
		var ne *netx.Error
		if errors.As(err, &ne) {
			s.t.mu.Lock()
			s.t.lastErr = ne
			s.t.mu.Unlock()
		}
		return nil, err
	}
	return resp, nil
}

// status turns an HTTP status into go-git's errors (and closes the body).
func status(resp *netx.Response) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	resp.Body.Close()
	switch resp.StatusCode {
	case 401:
		return transport.ErrAuthenticationRequired
	case 403:
		return transport.ErrAuthorizationFailed
	case 404:
		return transport.ErrRepositoryNotFound
	}
	return fmt.Errorf("the requested URL returned error: %s", resp.Status)
}

func (s *httpSession) AdvertisedReferences() (*packp.AdvRefs, error) {
	return s.AdvertisedReferencesContext(context.Background())
}

func (s *httpSession) AdvertisedReferencesContext(ctx context.Context) (*packp.AdvRefs, error) {
	const infoRefs = "/info/refs"
	u := s.base + infoRefs + "?service=" + s.service
	var resp *netx.Response
	for hops := 0; ; hops++ {
		var err error
		if resp, err = s.do("GET", u, nil); err != nil {
			return nil, err
		}
		loc := resp.Get("Location")
		if resp.StatusCode < 300 || resp.StatusCode > 399 || loc == "" {
			break
		}
		resp.Body.Close()
		if hops == 10 {
			return nil, fmt.Errorf("too many redirects")
		}
		from, _ := url.Parse(u)
		to, err := from.Parse(loc)
		if err != nil {
			return nil, fmt.Errorf("bad redirect to %q", loc)
		}
		u = to.String()
		// The repository moved with its info/refs: later requests go
		// to the new place, as git's do.
		if p, ok := strings.CutSuffix(to.Path, infoRefs); ok {
			moved := *to
			moved.Path, moved.RawQuery, moved.RawPath = p, "", ""
			s.base = strings.TrimRight(moved.String(), "/")
		}
	}
	if err := status(resp); err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	ar := packp.NewAdvRefs()
	if err := ar.Decode(resp.Body); err != nil {
		if errors.Is(err, packp.ErrEmptyAdvRefs) {
			return nil, transport.ErrEmptyRemoteRepository
		}
		return nil, err
	}
	if ar.IsEmpty() && s.service != transport.ReceivePackServiceName {
		return nil, transport.ErrEmptyRemoteRepository
	}
	transport.FilterUnsupportedCapabilities(ar.Capabilities)
	return ar, nil
}

// post sends a request body to the service and returns the response
// body, or nil if it is empty.
func (s *httpSession) post(body []byte) (io.Reader, io.Closer, error) {
	resp, err := s.do("POST", s.base+"/"+s.service, body)
	if err != nil {
		return nil, nil, err
	}
	if err := status(resp); err != nil {
		return nil, nil, err
	}
	r, err := ioutil.NonEmptyReader(resp.Body)
	if err != nil {
		resp.Body.Close()
		if errors.Is(err, ioutil.ErrEmptyReader) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	return r, resp.Body, nil
}

func (s *httpSession) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	if req.IsEmpty() {
		return nil, transport.ErrEmptyUploadPackRequest
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := req.UploadRequest.Encode(&buf); err != nil {
		return nil, err
	}
	if err := req.UploadHaves.Encode(&buf, false); err != nil {
		return nil, err
	}
	if err := pktline.NewEncoder(&buf).EncodeString("done\n"); err != nil {
		return nil, err
	}
	r, body, err := s.post(buf.Bytes())
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, transport.ErrEmptyUploadPackRequest
	}
	res := packp.NewUploadPackResponse(req)
	if err := res.Decode(ioutil.NewReadCloser(r, body)); err != nil {
		body.Close()
		return nil, fmt.Errorf("error decoding upload-pack response: %w", err)
	}
	return res, nil
}

func (s *httpSession) ReceivePack(ctx context.Context, req *packp.ReferenceUpdateRequest) (*packp.ReportStatus, error) {
	var buf bytes.Buffer
	if err := req.Encode(&buf); err != nil {
		return nil, err
	}
	r, body, err := s.post(buf.Bytes())
	if err != nil || r == nil {
		return nil, err
	}
	defer body.Close()
	if req.Capabilities.Supports(capability.Sideband64k) {
		r = sideband.NewDemuxer(sideband.Sideband64k, r)
	} else if req.Capabilities.Supports(capability.Sideband) {
		r = sideband.NewDemuxer(sideband.Sideband, r)
	}
	report := packp.NewReportStatus()
	if err := report.Decode(r); err != nil {
		return nil, err
	}
	return report, report.Error()
}

func (s *httpSession) Close() error { return nil }

var (
	hostHTTP      = &smartHTTP{}
	transportOnce sync.Once
)

// installTransport makes go-git's http and https remotes use hostHTTP and
// serves local paths in-process (go-git's file transport would run
// git-upload-pack, which the sandbox does not have).
func installTransport() {
	transportOnce.Do(func() {
		client.InstallProtocol("http", hostHTTP)
		client.InstallProtocol("https", hostHTTP)
		client.InstallProtocol("file", server.NewServer(server.NewFilesystemLoader(osfs.New("/"))))
	})
}
