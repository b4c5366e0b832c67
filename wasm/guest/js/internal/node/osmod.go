package node

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"fmt"
	"hash"
	"os"
	"strings"

	"github.com/dop251/goja"
)

func (rt *runtime) osModule() goja.Value {
	vm := rt.vm
	o := vm.NewObject()
	host, _ := os.Hostname()
	if host == "" {
		host = "wasmsand"
	}
	home := os.Getenv("HOME")
	if home == "" {
		home = "/home/user"
	}
	o.Set("EOL", "\n")
	o.Set("devNull", "/dev/null")
	o.Set("hostname", func() string { return host })
	o.Set("homedir", func() string { return home })
	o.Set("tmpdir", func() string { return strings.TrimSuffix(os.TempDir(), "/") })
	o.Set("platform", func() string { return "linux" })
	o.Set("type", func() string { return "Linux" })
	o.Set("arch", func() string { return "wasm32" })
	o.Set("machine", func() string { return "wasm32" })
	o.Set("release", func() string { return "6.0.0-wasmsand" })
	o.Set("version", func() string { return "wasmsand" })
	o.Set("endianness", func() string { return "LE" })
	o.Set("uptime", func() int { return 0 })
	o.Set("loadavg", func() []any { return []any{0, 0, 0} })
	o.Set("totalmem", func() int64 { return 256 << 20 })
	o.Set("freemem", func() int64 { return 128 << 20 })
	o.Set("availableParallelism", func() int { return 1 })
	o.Set("cpus", func() []any {
		return []any{map[string]any{"model": "wasm32", "speed": 0, "times": map[string]any{"user": 0, "nice": 0, "sys": 0, "idle": 0, "irq": 0}}}
	})
	o.Set("networkInterfaces", func() map[string]any { return map[string]any{} })
	o.Set("userInfo", func() map[string]any {
		user := os.Getenv("USER")
		if user == "" {
			user = "user"
		}
		return map[string]any{"uid": 1000, "gid": 1000, "username": user, "homedir": home, "shell": "/bin/bash"}
	})
	o.Set("constants", map[string]any{"signals": map[string]any{"SIGINT": 2, "SIGKILL": 9, "SIGTERM": 15}})
	return o
}

func (rt *runtime) cryptoModule() goja.Value {
	vm := rt.vm
	c := vm.NewObject()
	newHash := func(alg string) hash.Hash {
		switch strings.ToLower(alg) {
		case "md5":
			return md5.New()
		case "sha1":
			return sha1.New()
		case "sha256":
			return sha256.New()
		case "sha224":
			return sha256.New224()
		case "sha384":
			return sha512.New384()
		case "sha512":
			return sha512.New()
		}
		return nil
	}
	c.Set("createHash", func(alg string) *goja.Object {
		h := newHash(alg)
		if h == nil {
			rt.throw("Error", "Digest method not supported")
		}
		o := vm.NewObject()
		o.Set("update", func(call goja.FunctionCall) goja.Value {
			h.Write(rt.dataArg(call.Argument(0), encodingOf(call.Argument(1))))
			return o
		})
		o.Set("digest", func(call goja.FunctionCall) goja.Value {
			return rt.output(h.Sum(nil), encodingOf(call.Argument(0)))
		})
		return o
	})
	c.Set("randomBytes", func(n int) goja.Value {
		b := make([]byte, n)
		rand.Read(b)
		return rt.newBuffer(b)
	})
	c.Set("randomUUID", func() string {
		b := make([]byte, 16)
		rand.Read(b)
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
	})
	c.Set("randomInt", func(call goja.FunctionCall) goja.Value {
		lo, hi := int64(0), call.Argument(0).ToInteger()
		if len(call.Arguments) > 1 {
			if _, ok := goja.AssertFunction(call.Argument(1)); !ok {
				lo, hi = hi, call.Argument(1).ToInteger()
			}
		}
		if hi <= lo {
			rt.throwCode("RangeError", "ERR_OUT_OF_RANGE", `The value of "max" is out of range. It must be greater than the value of "min"`)
		}
		var b [8]byte
		rand.Read(b[:])
		var n uint64
		for _, x := range b {
			n = n<<8 | uint64(x)
		}
		return vm.ToValue(lo + int64(n%uint64(hi-lo)))
	})
	c.Set("getRandomValues", func(v goja.Value) goja.Value {
		o := v.ToObject(vm)
		ab, _ := o.Get("buffer").Export().(goja.ArrayBuffer)
		off := int(o.Get("byteOffset").ToInteger())
		n := int(o.Get("byteLength").ToInteger())
		rand.Read(ab.Bytes()[off : off+n])
		return v
	})
	vm.GlobalObject().Set("crypto", c)
	return c
}
