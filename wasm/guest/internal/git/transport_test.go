package git

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/transport"
)

// The smart HTTP transport's answers to what a server may say besides a
// repository (the repository itself is TestNetwork's, in ../../git).
func TestSmartHTTPStatus(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.URL.String()+" "+r.Header.Get("Authorization"))
		switch {
		case strings.HasPrefix(r.URL.Path, "/auth/"):
			w.WriteHeader(http.StatusUnauthorized)
		case strings.HasPrefix(r.URL.Path, "/forbidden/"):
			w.WriteHeader(http.StatusForbidden)
		case strings.HasPrefix(r.URL.Path, "/broken/"):
			w.WriteHeader(http.StatusInternalServerError)
		case strings.HasPrefix(r.URL.Path, "/loop/"):
			http.Redirect(w, r, r.URL.String(), http.StatusFound)
		case strings.HasPrefix(r.URL.Path, "/empty/"):
			w.Header().Set("Content-Type", "application/x-git-upload-pack-advertisement")
			w.Write([]byte("001e# service=git-upload-pack\n0000"))
			w.Write([]byte("0000"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	for _, c := range []struct {
		path string
		want error
		msg  string
	}{
		{"/auth/x.git", transport.ErrAuthenticationRequired, ""},
		{"/forbidden/x.git", transport.ErrAuthorizationFailed, ""},
		{"/nope/x.git", transport.ErrRepositoryNotFound, ""},
		{"/broken/x.git", nil, "500 Internal Server Error"},
		{"/loop/x.git", nil, "too many redirects"},
		{"/empty/x.git", transport.ErrEmptyRemoteRepository, ""},
	} {
		ep, err := transport.NewEndpoint(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := hostHTTP.NewUploadPackSession(ep, nil)
		_, err = s.AdvertisedReferences()
		switch {
		case err == nil:
			t.Errorf("%s: no error", c.path)
		case c.want != nil && !errors.Is(err, c.want):
			t.Errorf("%s: %v, want %v", c.path, err, c.want)
		case c.want == nil && !strings.Contains(err.Error(), c.msg):
			t.Errorf("%s: %v, want %q", c.path, err, c.msg)
		}
	}
	// A user in the URL is sent as basic authentication, not in the URL.
	seen = nil
	ep, _ := transport.NewEndpoint(strings.Replace(srv.URL, "http://", "http://ann:s3cret@", 1) + "/auth/x.git")
	s, _ := hostHTTP.NewUploadPackSession(ep, nil)
	s.AdvertisedReferences()
	if want := "/auth/x.git/info/refs?service=git-upload-pack Basic YW5uOnMzY3JldA=="; len(seen) != 1 || seen[0] != want {
		t.Errorf("requests %q, want [%q]", seen, want)
	}
}
