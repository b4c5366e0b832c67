// Package netpolicy decides which HTTP requests a sandbox may make and
// makes them: an allowlist of URL-prefix rules with methods and headers
// the host injects, a per-run budget, a per-request timeout, and (where the
// host dials sockets itself) a dialer that resolves names first and
// refuses loopback, private, link-local and metadata addresses unless a
// rule names them.
//
// Everything is denied unless a rule allows it. A rule is written
//
//	[METHODS ]URL-PREFIX
//
// where METHODS is an optional comma-separated list such as GET,POST and
// URL-PREFIX is one of
//
//	https://api.example.com/v1/     scheme, host, optional port, path prefix
//	http://127.0.0.1:8080/          an address: lets private addresses in
//	https://*.example.com/          any subdomain of example.com (not itself)
//	*.example.com                   http or https, default ports, any path
//	api.example.com                 http or https, default ports, any path
//
// The path prefix matches whole segments: /v1/ matches /v1/x but not
// /v10; /v1 matches /v1 and /v1/x.
package netpolicy

import (
	"errors"
	"fmt"
	"net/netip"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
)

// Rule allows requests whose URL starts with a prefix.
type Rule struct {
	// Scheme is "http" or "https"; empty allows both.
	Scheme string
	// Host is a lower-case host name, an IP address, or a glob
	// "*.example.com" matching every name below example.com.
	Host string
	// Port is the decimal port; empty means the scheme's default port.
	Port string
	// Path is the path prefix; empty means "/".
	Path string
	// Methods lists the allowed methods in upper case; empty allows all.
	Methods []string
	// Header is added to every request the rule allows, replacing any
	// header of the same name the guest sent. Guests never see it.
	Header textproto.MIMEHeader
	// AllowPrivate lets the rule reach loopback, private and link-local
	// addresses. It is implied when Host is an IP address or "localhost".
	AllowPrivate bool
}

// ErrBadRule is wrapped by the errors of ParseRule.
var ErrBadRule = errors.New("netpolicy: bad rule")

// ParseRule parses "[METHODS ]URL-PREFIX", as in the package comment.
func ParseRule(s string) (Rule, error) {
	var r Rule
	s = strings.TrimSpace(s)
	bad := func(why string) (Rule, error) {
		return Rule{}, fmt.Errorf("%w %q: %s", ErrBadRule, s, why)
	}
	if s == "" {
		return bad("empty")
	}
	prefix := s
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		methods := s[:i]
		prefix = strings.TrimSpace(s[i+1:])
		for _, m := range strings.Split(methods, ",") {
			if !validToken(m) {
				return bad(fmt.Sprintf("method %q is not a token", m))
			}
			r.Methods = append(r.Methods, strings.ToUpper(m))
		}
	}
	if !strings.Contains(prefix, "://") {
		// A bare host (or host glob), optionally with a path.
		host, path, _ := strings.Cut(prefix, "/")
		r.Host, r.Path = host, "/"+path
	} else {
		u, err := url.Parse(strings.Replace(prefix, "://*.", "://wildcard-label.", 1))
		if err != nil {
			return bad(err.Error())
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return bad("the scheme must be http or https")
		}
		if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			return bad("a rule has no user, query or fragment")
		}
		r.Scheme = u.Scheme
		r.Host = u.Hostname()
		if strings.HasPrefix(r.Host, "wildcard-label.") {
			r.Host = "*." + strings.TrimPrefix(r.Host, "wildcard-label.")
		}
		r.Port = u.Port()
		r.Path = u.EscapedPath()
		if r.Path == "" {
			r.Path = "/"
		}
	}
	if err := r.normalize(); err != nil {
		return bad(err.Error())
	}
	return r, nil
}

// normalize checks r and puts its fields in canonical form.
func (r *Rule) normalize() error {
	r.Scheme = strings.ToLower(r.Scheme)
	if r.Scheme != "" && r.Scheme != "http" && r.Scheme != "https" {
		return fmt.Errorf("scheme %q is not http or https", r.Scheme)
	}
	r.Host = strings.ToLower(strings.TrimSuffix(strings.Trim(r.Host, "[]"), "."))
	name := strings.TrimPrefix(r.Host, "*.")
	if name == "" {
		return errors.New("no host")
	}
	if _, err := netip.ParseAddr(name); err == nil {
		if name != r.Host {
			return errors.New("a glob cannot cover addresses")
		}
	} else if !validHostName(name) {
		return fmt.Errorf("host %q is not a valid name", r.Host)
	}
	if r.Port != "" {
		n, err := strconv.Atoi(r.Port)
		if err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != r.Port {
			return fmt.Errorf("port %q is not a number from 1 to 65535", r.Port)
		}
	}
	if r.Path == "" {
		r.Path = "/"
	}
	if !strings.HasPrefix(r.Path, "/") {
		return errors.New("the path must start with /")
	}
	for i, m := range r.Methods {
		if !validToken(m) {
			return fmt.Errorf("method %q is not a token", m)
		}
		r.Methods[i] = strings.ToUpper(m)
	}
	return nil
}

// String formats r as ParseRule reads it.
func (r Rule) String() string {
	var b strings.Builder
	if len(r.Methods) > 0 {
		b.WriteString(strings.Join(r.Methods, ","))
		b.WriteByte(' ')
	}
	if r.Scheme != "" {
		b.WriteString(r.Scheme + "://")
	}
	host := r.Host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	b.WriteString(host)
	if r.Port != "" {
		b.WriteString(":" + r.Port)
	}
	path := r.Path
	if path == "" {
		path = "/"
	}
	b.WriteString(path)
	return b.String()
}

// namesAddress reports whether the rule's host is written as an address or
// as localhost, which lets it reach private addresses.
func (r *Rule) namesAddress() bool {
	if r.AllowPrivate || r.Host == "localhost" {
		return true
	}
	_, err := netip.ParseAddr(r.Host)
	return err == nil
}

// Match reports whether r allows method on u (scheme, host, port and
// path; the method only if method is not empty).
func (r *Rule) Match(method string, u *url.URL) bool {
	if u == nil || u.User != nil && r.Header != nil {
		// Never send injected secrets along with credentials in the URL.
		return false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return false
	}
	if r.Scheme != "" && r.Scheme != scheme {
		return false
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if a, err := netip.ParseAddr(host); err == nil {
		host = a.Unmap().String()
	}
	rhost := r.Host
	if a, err := netip.ParseAddr(rhost); err == nil {
		rhost = a.Unmap().String()
	}
	if strings.HasPrefix(rhost, "*.") {
		if !strings.HasSuffix(host, rhost[1:]) || len(host) <= len(rhost)-1 {
			return false
		}
	} else if host != rhost {
		return false
	}
	port := u.Port()
	if port == "" {
		port = defaultPort(scheme)
	}
	rport := r.Port
	if rport == "" {
		rport = defaultPort(scheme)
	}
	if port != rport {
		return false
	}
	if !pathHasPrefix(u.EscapedPath(), r.Path) {
		return false
	}
	if method != "" && len(r.Methods) > 0 {
		ok := false
		for _, m := range r.Methods {
			ok = ok || m == method
		}
		if !ok {
			return false
		}
	}
	return true
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// pathHasPrefix reports whether path lies under prefix, by whole segments.
// Paths with dot segments never match a prefix other than "/": servers
// would resolve them elsewhere.
func pathHasPrefix(path, prefix string) bool {
	if path == "" {
		path = "/"
	}
	if prefix == "/" || prefix == "" {
		return true
	}
	for _, seg := range strings.Split(path, "/") {
		if seg == ".." || seg == "." || strings.EqualFold(seg, "%2e%2e") || strings.EqualFold(seg, "%2e") ||
			strings.EqualFold(seg, ".%2e") || strings.EqualFold(seg, "%2e.") {
			return false
		}
	}
	if strings.Contains(strings.ToLower(path), "%2f") || strings.Contains(path, "\\") {
		// An encoded slash or a backslash could hide a segment boundary.
		return false
	}
	if !strings.HasPrefix(path, prefix) {
		return path+"/" == prefix
	}
	return strings.HasSuffix(prefix, "/") || len(path) == len(prefix) || path[len(prefix)] == '/'
}

func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

func validHostName(s string) bool {
	if len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
