package netpolicy

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

func TestParseRule(t *testing.T) {
	tests := []struct {
		in   string
		want string // String() of the rule, or "" for an error
	}{
		{"https://api.example.com/v1/", "https://api.example.com/v1/"},
		{"GET,post http://127.0.0.1:8080/", "GET,POST http://127.0.0.1:8080/"},
		{"https://*.example.com", "https://*.example.com/"},
		{"*.example.com", "*.example.com/"},
		{"api.example.com/v2", "api.example.com/v2"},
		{"HTTPS://API.Example.COM./x", "https://api.example.com/x"},
		{"http://[::1]:9000/", "http://[::1]:9000/"},
		{"  GET   https://a.b/  ", "GET https://a.b/"},
		{"", ""},
		{"ftp://example.com/", ""},
		{"https://user@example.com/", ""},
		{"https://example.com/?q", ""},
		{"https://example.com:0/", ""},
		{"https://example.com:99999/", ""},
		{"https://example.com:08/", ""},
		{"https://*.1.2.3.4/", ""},
		{"https://ex ample.com/", ""},
		{"G(T https://example.com/", ""},
		{"https://*/", ""},
		{"https://exa$mple.com/", ""},
	}
	for _, tt := range tests {
		r, err := ParseRule(tt.in)
		if tt.want == "" {
			if err == nil {
				t.Errorf("ParseRule(%q) = %v, want an error", tt.in, r)
			} else if !errors.Is(err, ErrBadRule) {
				t.Errorf("ParseRule(%q): %v does not wrap ErrBadRule", tt.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseRule(%q): %v", tt.in, err)
			continue
		}
		if got := r.String(); got != tt.want {
			t.Errorf("ParseRule(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		rule, method, url string
		want              bool
	}{
		{"https://api.example.com/v1/", "GET", "https://api.example.com/v1/users", true},
		{"https://api.example.com/v1/", "GET", "https://api.example.com:443/v1/", true},
		{"https://api.example.com/v1/", "GET", "https://API.example.com./v1/x", true},
		{"https://api.example.com/v1/", "GET", "https://api.example.com/v1", true},
		{"https://api.example.com/v1/", "GET", "https://api.example.com/v10", false},
		{"https://api.example.com/v1/", "GET", "https://api.example.com/v1/../admin", false},
		{"https://api.example.com/v1/", "GET", "https://api.example.com/v1/%2e%2e/admin", false},
		{"https://api.example.com/v1/", "GET", "https://api.example.com/v1%2F..%2Fadmin", false},
		{"https://api.example.com/v1/", "GET", "http://api.example.com/v1/", false},
		{"https://api.example.com/v1/", "GET", "https://api.example.com:8443/v1/", false},
		{"https://api.example.com/v1/", "GET", "https://api.example.com.evil.com/v1/", false},
		{"https://api.example.com/v1", "GET", "https://api.example.com/v1/x", true},
		{"https://api.example.com/v1", "GET", "https://api.example.com/v1x", false},
		{"*.example.com", "GET", "http://a.example.com/", true},
		{"*.example.com", "GET", "https://a.b.example.com/x", true},
		{"*.example.com", "GET", "https://example.com/", false},
		{"*.example.com", "GET", "https://evilexample.com/", false},
		{"*.example.com", "GET", "https://a.example.com:8080/", false},
		{"GET,HEAD http://127.0.0.1:8080/", "HEAD", "http://127.0.0.1:8080/", true},
		{"GET,HEAD http://127.0.0.1:8080/", "POST", "http://127.0.0.1:8080/", false},
		{"GET,HEAD http://127.0.0.1:8080/", "", "http://127.0.0.1:8080/", true},
		{"http://127.0.0.1:8080/", "GET", "http://[::ffff:127.0.0.1]:8080/", true},
		{"http://127.0.0.1:8080/", "GET", "http://127.0.0.2:8080/", false},
		{"http://127.0.0.1:8080/", "GET", "http://localhost:8080/", false},
		{"http://127.0.0.1:8080/", "GET", "ftp://127.0.0.1:8080/", false},
		{"http://[::1]:80/", "GET", "http://[::1]/", true},
	}
	for _, tt := range tests {
		r, err := ParseRule(tt.rule)
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Match(tt.method, u); got != tt.want {
			t.Errorf("rule %q: Match(%s %s) = %v, want %v", tt.rule, tt.method, tt.url, got, tt.want)
		}
	}
}

func TestIsPrivate(t *testing.T) {
	for _, s := range []string{
		"127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
		"169.254.169.254", "0.0.0.0", "100.64.0.1", "::1", "::", "fc00::1", "fd00:ec2::254", "fe80::1",
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "2002:7f00:1::", "224.0.0.1", "255.255.255.255",
	} {
		if !IsPrivate(netip.MustParseAddr(s)) {
			t.Errorf("IsPrivate(%s) = false", s)
		}
	}
	for _, s := range []string{"8.8.8.8", "1.1.1.1", "172.32.0.1", "192.169.0.1", "2001:4860:4860::8888", "64:ff9b::808:808"} {
		if IsPrivate(netip.MustParseAddr(s)) {
			t.Errorf("IsPrivate(%s) = true", s)
		}
	}
}

func TestParseHeaderRule(t *testing.T) {
	h, err := ParseHeaderRule("https://api.example.com/=Authorization: Bearer abc:def")
	if err != nil {
		t.Fatal(err)
	}
	if h.Prefix.String() != "https://api.example.com/" || h.Header.Get("Authorization") != "Bearer abc:def" {
		t.Errorf("got %v %v", h.Prefix, h.Header)
	}
	for _, bad := range []string{"https://a.b/", "https://a.b/=NoColon", "https://a.b/=Bad Name: x", "GET https://a.b/=X: y", "ftp://a/=X: y"} {
		if _, err := ParseHeaderRule(bad); err == nil {
			t.Errorf("ParseHeaderRule(%q): no error", bad)
		}
	}
	_, err = ParseHeaderRule("https://a.b/=Bad Name: s3cr3t")
	if err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("the error shows the header's value: %v", err)
	}
}

// FuzzParseRule checks that any text either fails to parse or gives a rule
// that parses back to itself and never matches a URL of another host.
func FuzzParseRule(f *testing.F) {
	for _, s := range []string{
		"https://api.example.com/v1/", "GET,POST http://127.0.0.1:8080/", "*.example.com",
		"https://*.example.com/x", "http://[::1]:9/", "a.b/c", "GET a", "https://a.b:65535/%2e/",
	} {
		f.Add(s, "https://api.example.com/v1/x")
	}
	f.Fuzz(func(t *testing.T, s, raw string) {
		r, err := ParseRule(s)
		if err != nil {
			if !errors.Is(err, ErrBadRule) {
				t.Fatalf("ParseRule(%q): %v does not wrap ErrBadRule", s, err)
			}
			return
		}
		again, err := ParseRule(r.String())
		if err != nil {
			t.Fatalf("ParseRule(%q) = %q, which does not parse: %v", s, r.String(), err)
		}
		if again.String() != r.String() {
			t.Fatalf("ParseRule(%q) = %q, then %q", s, r.String(), again.String())
		}
		u, err := url.Parse(raw)
		if err != nil || !r.Match("GET", u) {
			return
		}
		host := u.Hostname()
		rhost := r.Host
		if a, err := netip.ParseAddr(host); err == nil {
			host = a.Unmap().String()
		}
		if a, err := netip.ParseAddr(rhost); err == nil {
			rhost = a.Unmap().String()
		}
		if rhost[0] == '*' {
			if len(host) <= len(rhost)-1 || !equalFoldSuffix(host, rhost[1:]) {
				t.Fatalf("rule %q matches %q", r.String(), raw)
			}
		} else if !equalFoldTrimDot(host, rhost) {
			t.Fatalf("rule %q matches %q", r.String(), raw)
		}
	})
}

func equalFoldSuffix(s, suffix string) bool {
	return strings.HasSuffix(strings.ToLower(strings.TrimSuffix(s, ".")), suffix)
}

func equalFoldTrimDot(a, b string) bool { return strings.ToLower(strings.TrimSuffix(a, ".")) == b }
