package main

import (
	"fmt"
	"path"
	"strings"

	"github.com/wasmsand/wasmsand/sandbox"
)

// parseMount parses a --mount value, HOST:PATH[:ro|:rw]: the host
// directory HOST appears at the absolute sandbox path PATH, read-only with
// :ro. HOST may itself contain colons; PATH may not.
func parseMount(s string) (sandbox.Mount, error) {
	var m sandbox.Mount
	spec := s
	if rest, ok := strings.CutSuffix(spec, ":ro"); ok {
		spec, m.ReadOnly = rest, true
	} else if rest, ok := strings.CutSuffix(spec, ":rw"); ok {
		spec = rest
	}
	i := strings.LastIndexByte(spec, ':')
	if i < 0 {
		return m, fmt.Errorf("want HOST:PATH[:ro], got %q", s)
	}
	host, p := spec[:i], spec[i+1:]
	switch {
	case host == "":
		return m, fmt.Errorf("no host directory in %q (want HOST:PATH[:ro])", s)
	case !strings.HasPrefix(p, "/"):
		return m, fmt.Errorf("the sandbox path in %q must be absolute, such as /mnt/data", s)
	case strings.ContainsRune(s, 0):
		return m, fmt.Errorf("a NUL byte in %q", s)
	}
	p = path.Clean(p)
	if p == "/" {
		return m, fmt.Errorf("cannot mount over / (in %q)", s)
	}
	m.HostPath, m.Path = host, p
	return m, nil
}
