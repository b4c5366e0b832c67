//go:build js && wasm

package jsbridge

import (
	"net/textproto"
	"syscall/js"
	"time"

	"github.com/wasmsand/wasmsand/sandbox/netpolicy"
)

// parseNetwork reads Sandbox.create's network option:
//
//	{allow: [RULE, ...], headers: {PREFIX: {Name: value}},
//	 maxRequests, maxResponseBytes, maxRequestBytes, timeoutMs}
//
// A RULE is a string ("GET,POST https://api.example.com/v1/") or an object
// {url, methods, headers}. Requests go out through the host's fetch(),
// so in a browser CORS applies on top of the rules.
func parseNetwork(v js.Value) (netpolicy.Policy, error) {
	var p netpolicy.Policy
	if v.IsUndefined() || v.IsNull() {
		return p, nil
	}
	if v.Type() != js.TypeObject || jsArray.Call("isArray", v).Bool() {
		return p, argErrorf("Sandbox.create: options.network must be an object {allow, headers, maxRequests, maxResponseBytes, maxRequestBytes, timeoutMs}")
	}
	var err error
	if p.Rules, err = parseRules("Sandbox.create: options.network.allow", v.Get("allow")); err != nil {
		return p, err
	}
	if h := v.Get("headers"); !h.IsUndefined() && !h.IsNull() {
		if h.Type() != js.TypeObject {
			return p, argErrorf("Sandbox.create: options.network.headers must map URL prefixes to {Name: value}")
		}
		keys := jsObject.Call("keys", h)
		for i := 0; i < keys.Length(); i++ {
			prefix := keys.Index(i).String()
			r, err := netpolicy.ParseRule(prefix)
			if err != nil {
				return p, argErrorf("Sandbox.create: options.network.headers: %v", err)
			}
			hdr, err := parseHeaders("Sandbox.create: options.network.headers["+prefix+"]", h.Get(prefix))
			if err != nil {
				return p, err
			}
			p.Headers = append(p.Headers, netpolicy.HeaderRule{Prefix: r, Header: hdr})
		}
	}
	num := func(name string) (float64, error) {
		x := v.Get(name)
		if x.IsUndefined() || x.IsNull() {
			return 0, nil
		}
		if x.Type() != js.TypeNumber || x.Float() < 0 {
			return 0, argErrorf("Sandbox.create: options.network.%s must be a non-negative number", name)
		}
		return x.Float(), nil
	}
	var n float64
	if n, err = num("maxRequests"); err != nil {
		return p, err
	}
	p.MaxRequests = int(n)
	if n, err = num("maxResponseBytes"); err != nil {
		return p, err
	}
	p.MaxResponseBytes = int64(n)
	if n, err = num("maxRequestBytes"); err != nil {
		return p, err
	}
	p.MaxRequestBytes = int64(n)
	if n, err = num("timeoutMs"); err != nil {
		return p, err
	}
	p.Timeout = time.Duration(n * float64(time.Millisecond))
	return p, nil
}

// parseRules reads an array of rules (strings or {url, methods, headers}).
func parseRules(what string, v js.Value) ([]netpolicy.Rule, error) {
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if v.Type() == js.TypeString || !jsArray.Call("isArray", v).Bool() {
		return nil, argErrorf("%s must be an array of rules", what)
	}
	var rules []netpolicy.Rule
	for i := 0; i < v.Length(); i++ {
		e := v.Index(i)
		switch e.Type() {
		case js.TypeString:
			r, err := netpolicy.ParseRule(e.String())
			if err != nil {
				return nil, argErrorf("%s[%d]: %v", what, i, err)
			}
			rules = append(rules, r)
		case js.TypeObject:
			u := e.Get("url")
			if u.Type() != js.TypeString {
				return nil, argErrorf("%s[%d].url must be a string", what, i)
			}
			r, err := netpolicy.ParseRule(u.String())
			if err != nil {
				return nil, argErrorf("%s[%d]: %v", what, i, err)
			}
			if m := e.Get("methods"); !m.IsUndefined() && !m.IsNull() {
				if !jsArray.Call("isArray", m).Bool() {
					return nil, argErrorf("%s[%d].methods must be an array of strings", what, i)
				}
				r.Methods = nil
				for k := 0; k < m.Length(); k++ {
					if m.Index(k).Type() != js.TypeString {
						return nil, argErrorf("%s[%d].methods must be an array of strings", what, i)
					}
					r.Methods = append(r.Methods, m.Index(k).String())
				}
				// Normalize the methods through the parser.
				if r, err = netpolicy.ParseRule(r.String()); err != nil {
					return nil, argErrorf("%s[%d]: %v", what, i, err)
				}
			}
			if r.Header, err = parseHeaders(what, e.Get("headers")); err != nil {
				return nil, err
			}
			rules = append(rules, r)
		default:
			return nil, argErrorf("%s[%d] must be a string or {url, methods, headers}", what, i)
		}
	}
	return rules, nil
}

// parseHeaders reads {Name: value}.
func parseHeaders(what string, v js.Value) (textproto.MIMEHeader, error) {
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if v.Type() != js.TypeObject {
		return nil, argErrorf("%s must be an object of header values", what)
	}
	h := textproto.MIMEHeader{}
	keys := jsObject.Call("keys", v)
	for i := 0; i < keys.Length(); i++ {
		k := keys.Index(i).String()
		val := v.Get(k)
		if val.Type() != js.TypeString {
			return nil, argErrorf("%s.%s must be a string", what, k)
		}
		h.Add(textproto.CanonicalMIMEHeaderKey(k), val.String())
	}
	return h, nil
}

// allowNetwork(id, rules): adds rules for the runs that follow.
func (a *api) allowNetwork(args []js.Value) any {
	return a.sync(args, func(s *jsSandbox) (any, error) {
		rules, err := parseRules("allowNetwork: rules", arg(args, 1))
		if err != nil {
			return nil, err
		}
		s.sb.AllowNetwork(rules...)
		return nil, nil
	})
}
