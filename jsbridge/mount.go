//go:build js && wasm

package jsbridge

import (
	"strconv"
	"strings"
	"syscall/js"

	"github.com/wasmsand/wasmsand/platform/node"
	"github.com/wasmsand/wasmsand/sandbox"
)

// parseMounts reads options.mounts as the loader passes it on:
// [{path, readOnly, host}], host being a nodeHost object.
func parseMounts(v js.Value) ([]sandbox.Mount, error) {
	if v.IsUndefined() || v.IsNull() {
		return nil, nil
	}
	if !jsArray.Call("isArray", v).Bool() {
		return nil, argErrorf("Sandbox.create: options.mounts must be an array of {path, hostPath, readOnly}")
	}
	out := make([]sandbox.Mount, v.Length())
	for i := range out {
		m, err := parseMount("Sandbox.create: options.mounts["+strconv.Itoa(i)+"]", v.Index(i))
		if err != nil {
			return nil, err
		}
		out[i] = m
	}
	return out, nil
}

func parseMount(what string, m js.Value) (sandbox.Mount, error) {
	if m.Type() != js.TypeObject {
		return sandbox.Mount{}, argErrorf("%s must be an object", what)
	}
	p, host := m.Get("path"), m.Get("host")
	if p.Type() != js.TypeString || !strings.HasPrefix(p.String(), "/") {
		return sandbox.Mount{}, argErrorf("%s.path must be an absolute path such as /mnt/data", what)
	}
	if host.Type() != js.TypeObject {
		return sandbox.Mount{}, argErrorf("%s: host directories can be mounted only in Node.js", what)
	}
	return sandbox.Mount{Path: p.String(), Host: node.Host(host), ReadOnly: m.Get("readOnly").Truthy()}, nil
}

// mount(id, {path, readOnly, host}) → undefined or a SandboxError.
func (a *api) mount(args []js.Value) any {
	s, err := a.lookup(args)
	if err == nil {
		var m sandbox.Mount
		if m, err = parseMount("mount", arg(args, 1)); err == nil {
			err = s.sb.AddMount(m)
		}
	}
	if err != nil {
		return a.jsErr(err)
	}
	return nil
}

// unmount(id, path) → undefined or a SandboxError.
func (a *api) unmount(args []js.Value) any {
	s, err := a.lookup(args)
	if err == nil {
		err = s.sb.Unmount(arg(args, 1).String())
	}
	if err != nil {
		return a.jsErr(err)
	}
	return nil
}
