package netpolicy

import (
	"fmt"
	"net/textproto"
	"strings"
)

// HeaderRule adds headers to the allowed requests under a URL prefix,
// whatever rule allowed them: the way to hand a secret such as an API
// token to requests without letting code in the sandbox see it.
type HeaderRule struct {
	Prefix Rule // Methods and Header of Prefix are ignored
	Header textproto.MIMEHeader
}

// ParseHeaderRule parses "URL-PREFIX=Name: value", as in
// `--net-header 'https://api.example.com/=Authorization: Bearer …'`.
func ParseHeaderRule(s string) (HeaderRule, error) {
	bad := func(why string) (HeaderRule, error) {
		return HeaderRule{}, fmt.Errorf("%w %q: %s", ErrBadRule, redactHeader(s), why)
	}
	prefix, hdr, ok := strings.Cut(s, "=")
	if !ok {
		return bad("want URL-PREFIX=Name: value")
	}
	name, value, ok := strings.Cut(hdr, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || !validToken(name) {
		return bad("want URL-PREFIX=Name: value")
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return bad("the value has a line break")
	}
	r, err := ParseRule(prefix)
	if err != nil {
		return HeaderRule{}, err
	}
	if len(r.Methods) > 0 {
		return bad("a header rule names no methods")
	}
	return HeaderRule{Prefix: r, Header: textproto.MIMEHeader{textproto.CanonicalMIMEHeaderKey(name): {value}}}, nil
}

// redactHeader keeps a header's value out of error messages.
func redactHeader(s string) string {
	if i := strings.IndexByte(s, ':'); i >= 0 {
		if j := strings.Index(s, "://"); j == i {
			if k := strings.IndexByte(s[i+1:], ':'); k >= 0 {
				return s[:i+1+k+1] + " …"
			}
			return s
		}
		return s[:i+1] + " …"
	}
	return s
}
