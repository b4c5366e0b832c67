// Package uuidgen implements util-linux uuidgen: random (version 4),
// time-based (version 1, with a random node id as util-linux uses when it
// has no hardware address) and name-based (versions 3 and 5) UUIDs. In
// the sandbox randomness and time come from its seeded generator and clock.
package uuidgen

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"hash"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `
Usage:
 uuidgen [options]

Create a new UUID value.

Options:
 -r, --random        generate random-based uuid
 -t, --time          generate time-based uuid
 -n, --namespace ns  generate hash-based uuid in this namespace
                       available namespaces: @dns @url @oid @x500
 -N, --name name     generate hash-based uuid from this name
 -m, --md5           generate md5 hash
 -s, --sha1          generate sha1 hash
 -x, --hex           interpret name as hex string

 -h, --help          display this help
 -V, --version       display version
`

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'r', Long: "random"}, {Short: 't', Long: "time"},
		{Short: 'n', Long: "namespace", Arg: tool.RequiredArg}, {Short: 'N', Long: "name", Arg: tool.RequiredArg},
		{Short: 'm', Long: "md5"}, {Short: 's', Long: "sha1"}, {Short: 'x', Long: "hex"},
		{Short: 'h', Long: "help"}, {Short: 'V', Long: "version"},
	},
	Help: help,
}

// namespaces are RFC 4122's predefined namespaces.
var namespaces = map[string]string{
	"@dns":  "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
	"@url":  "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
	"@oid":  "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
	"@x500": "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
}

func parseUUID(s string) ([]byte, bool) {
	h := strings.ReplaceAll(s, "-", "")
	if len(s) != 36 || len(h) != 32 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return nil, false
	}
	b, err := hex.DecodeString(h)
	return b, err == nil
}

func format(u []byte) string {
	h := hex.EncodeToString(u)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// Main runs uuidgen.
func Main(env *tool.Env) int {
	flags, _, code, done := spec.Parse(env)
	if done {
		return code
	}
	kind := 'r'
	ns, name, hexName := "", "", false
	hasName := false
	for _, f := range flags {
		switch f.Name {
		case "r", "t", "m", "s":
			kind = rune(f.Name[0])
		case "n":
			ns = f.Arg
		case "N":
			name, hasName = f.Arg, true
		case "x":
			hexName = true
		case "h":
			return env.Help(help)
		case "V":
			return env.PrintVersion()
		}
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "%s: %s\nTry '%s --help' for more information.\n", env.Name(), fmt.Sprintf(format, a...), env.Name())
		return 1
	}
	switch {
	case ns != "" && !hasName:
		return usage("--namespace requires --name argument")
	case ns == "" && hasName:
		return usage("--name requires --namespace argument")
	case ns != "" && kind != 'm' && kind != 's':
		return usage("--namespace requires --md5 or --sha1")
	}
	var u []byte
	switch kind {
	case 'm', 's':
		if ns == "" {
			return usage("--md5 or --sha1 requires --namespace argument")
		}
		if strings.HasPrefix(ns, "@") {
			v, ok := namespaces[ns]
			if !ok {
				return usage("unknown namespace alias: '%s'", ns)
			}
			ns = v
		}
		nsBytes, ok := parseUUID(ns)
		if !ok {
			return usage("invalid uuid for namespace: '%s'", ns)
		}
		data := []byte(name)
		if hexName {
			b, err := hex.DecodeString(name)
			if err != nil {
				return usage("not a valid hex string")
			}
			data = b
		}
		var h hash.Hash
		version := byte(0x30)
		if kind == 'm' {
			h = md5.New()
		} else {
			h, version = sha1.New(), 0x50
		}
		h.Write(nsBytes)
		h.Write(data)
		u = h.Sum(nil)[:16]
		u[6] = u[6]&0x0f | version
		u[8] = u[8]&0x3f | 0x80
	case 't':
		u = make([]byte, 16)
		rand.Read(u[8:])
		// 100 ns intervals since the Gregorian calendar's start,
		// 1582-10-15, which lies 122,192,928,000,000,000 of them before
		// the Unix epoch (too far back for a time.Duration).
		ts := uint64(time.Now().UnixNano()/100) + 122192928000000000
		u[0], u[1], u[2], u[3] = byte(ts>>24), byte(ts>>16), byte(ts>>8), byte(ts)
		u[4], u[5] = byte(ts>>40), byte(ts>>32)
		u[6], u[7] = byte(ts>>56)&0x0f|0x10, byte(ts>>48)
		u[8] = u[8]&0x3f | 0x80
		u[10] |= 0x01 // a random node id has the multicast bit set
	default:
		u = make([]byte, 16)
		rand.Read(u)
		u[6] = u[6]&0x0f | 0x40
		u[8] = u[8]&0x3f | 0x80
	}
	env.Out().WriteString(format(u) + "\n")
	return 0
}
