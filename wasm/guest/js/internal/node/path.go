package node

import (
	"fmt"
	"path"
	"strings"

	"github.com/dop251/goja"
)

// Node's path.posix, over Go's path package.

func pathNormalize(p string) string {
	if p == "" {
		return "."
	}
	trailing := strings.HasSuffix(p, "/")
	c := path.Clean(p)
	if trailing && c != "/" {
		c += "/"
	}
	if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") && c == "/" {
		return "/"
	}
	return c
}

func pathJoin(parts []string) string {
	var nonEmpty []string
	for _, p := range parts {
		if p != "" {
			nonEmpty = append(nonEmpty, p)
		}
	}
	if len(nonEmpty) == 0 {
		return "."
	}
	return pathNormalize(strings.Join(nonEmpty, "/"))
}

func pathResolve(parts []string) string {
	resolved := ""
	abs := false
	for i := len(parts) - 1; i >= 0 && !abs; i-- {
		p := parts[i]
		if p == "" {
			continue
		}
		resolved = p + "/" + resolved
		abs = strings.HasPrefix(p, "/")
	}
	if !abs {
		resolved = mustGetwd() + "/" + resolved
	}
	return path.Clean(resolved)
}

func pathRelative(from, to string) string {
	from, to = pathResolve([]string{from}), pathResolve([]string{to})
	if from == to {
		return ""
	}
	fs := strings.Split(strings.TrimPrefix(from, "/"), "/")
	ts := strings.Split(strings.TrimPrefix(to, "/"), "/")
	if from == "/" {
		fs = nil
	}
	if to == "/" {
		ts = nil
	}
	i := 0
	for i < len(fs) && i < len(ts) && fs[i] == ts[i] {
		i++
	}
	var out []string
	for range fs[i:] {
		out = append(out, "..")
	}
	out = append(out, ts[i:]...)
	return strings.Join(out, "/")
}

func trimTrailingSlashes(p string) string {
	for len(p) > 1 && strings.HasSuffix(p, "/") {
		p = p[:len(p)-1]
	}
	return p
}

func pathDirname(p string) string {
	if p == "" {
		return "."
	}
	p = trimTrailingSlashes(p)
	i := strings.LastIndexByte(p, '/')
	switch {
	case i < 0:
		return "."
	case i == 0:
		return "/"
	}
	d := p[:i]
	d = trimTrailingSlashes(d)
	if d == "" {
		return "/"
	}
	return d
}

func pathBasename(p, ext string) string {
	p = trimTrailingSlashes(p)
	if p == "/" {
		return ""
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[i+1:]
	}
	if ext != "" && ext != p && strings.HasSuffix(p, ext) {
		p = p[:len(p)-len(ext)]
	}
	return p
}

func pathExtname(p string) string {
	b := pathBasename(p, "")
	i := strings.LastIndexByte(b, '.')
	if i <= 0 {
		return ""
	}
	if strings.Trim(b, ".") == "" {
		return ""
	}
	return b[i:]
}

func (rt *runtime) strArgs(call goja.FunctionCall, name string) []string {
	out := make([]string, len(call.Arguments))
	for i, a := range call.Arguments {
		if _, ok := a.Export().(string); !ok {
			rt.throwCode("TypeError", "ERR_INVALID_ARG_TYPE", fmt.Sprintf(`The "%s" argument must be of type string. Received %s`, name, describeReceived(rt, a)))
		}
		out[i] = a.String()
	}
	return out
}

// describeReceived words a wrong argument as Node's ERR_INVALID_ARG_TYPE does.
func describeReceived(rt *runtime, v goja.Value) string {
	switch {
	case goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if o, ok := v.(*goja.Object); ok {
		if o.ClassName() == "Function" {
			return "function " + o.Get("name").String()
		}
		if c := o.Get("constructor"); c != nil {
			if co, ok := c.(*goja.Object); ok {
				return "an instance of " + co.Get("name").String()
			}
		}
		return rt.inspect(v, inspectOpts{})
	}
	return fmt.Sprintf("type %s (%s)", typeOf(v), rt.inspect(v, inspectOpts{}))
}

func typeOf(v goja.Value) string {
	switch v.ExportType().Kind().String() {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "int64", "float64":
		return "number"
	}
	return "object"
}

func (rt *runtime) pathModule() goja.Value {
	vm := rt.vm
	p := vm.NewObject()
	p.Set("sep", "/")
	p.Set("delimiter", ":")
	p.Set("join", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(pathJoin(rt.strArgs(call, "path")))
	})
	p.Set("resolve", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(pathResolve(rt.strArgs(call, "paths[0]")))
	})
	p.Set("normalize", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(pathNormalize(rt.strArgs(call, "path")[0]))
	})
	p.Set("isAbsolute", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(strings.HasPrefix(rt.strArgs(call, "path")[0], "/"))
	})
	p.Set("relative", func(call goja.FunctionCall) goja.Value {
		a := rt.strArgs(call, "from")
		if len(a) < 2 {
			rt.throwCode("TypeError", "ERR_INVALID_ARG_TYPE", `The "to" argument must be of type string. Received undefined`)
		}
		return vm.ToValue(pathRelative(a[0], a[1]))
	})
	p.Set("dirname", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(pathDirname(rt.strArgs(call, "path")[0]))
	})
	p.Set("basename", func(call goja.FunctionCall) goja.Value {
		a := rt.strArgs(call, "path")
		ext := ""
		if len(a) > 1 {
			ext = a[1]
		}
		return vm.ToValue(pathBasename(a[0], ext))
	})
	p.Set("extname", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(pathExtname(rt.strArgs(call, "path")[0]))
	})
	p.Set("parse", func(call goja.FunctionCall) goja.Value {
		s := rt.strArgs(call, "path")[0]
		root := ""
		if strings.HasPrefix(s, "/") {
			root = "/"
		}
		base := pathBasename(s, "")
		ext := pathExtname(s)
		dir := pathDirname(s)
		if !strings.Contains(trimTrailingSlashes(s), "/") {
			dir = ""
		}
		o := vm.NewObject()
		o.Set("root", root)
		o.Set("dir", dir)
		o.Set("base", base)
		o.Set("ext", ext)
		o.Set("name", strings.TrimSuffix(base, ext))
		return o
	})
	p.Set("format", func(call goja.FunctionCall) goja.Value {
		o, ok := call.Argument(0).(*goja.Object)
		if !ok {
			rt.throwCode("TypeError", "ERR_INVALID_ARG_TYPE", `The "pathObject" argument must be of type object.`)
		}
		get := func(k string) string {
			v := o.Get(k)
			if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
				return ""
			}
			return v.String()
		}
		dir := get("dir")
		if dir == "" {
			dir = get("root")
		}
		base := get("base")
		if base == "" {
			ext := get("ext")
			if ext != "" && !strings.HasPrefix(ext, ".") {
				ext = "." + ext
			}
			base = get("name") + ext
		}
		switch {
		case dir == "":
			return vm.ToValue(base)
		case dir == get("root"):
			return vm.ToValue(dir + base)
		}
		return vm.ToValue(dir + "/" + base)
	})
	p.Set("toNamespacedPath", func(call goja.FunctionCall) goja.Value { return call.Argument(0) })
	p.Set("posix", p)
	p.Set("win32", p)
	return p
}
