// Package tsort implements tsort: a topological sort of the partial order
// given as pairs of tokens, in the order GNU coreutils' tsort prints it.
package tsort

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = &tool.Spec{
	Help: `Usage: tsort [OPTION] [FILE]
Write totally ordered list consistent with the partial ordering in FILE.

With no FILE, or when FILE is -, read standard input.

      --help        display this help and exit
      --version     output version information and exit
`,
}

type node struct {
	count int      // predecessors not yet output
	succ  []string // successors, the latest pair first
	done  bool
}

// Main is the tsort command.
func Main(env *tool.Env) int {
	_, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	name := "-"
	switch len(files) {
	case 0:
	case 1:
		name = files[0]
	default:
		return env.Usage(1, "extra operand %s", tool.Quote(files[1]))
	}
	r, err := env.Open(name)
	if err != nil {
		env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
		return 1
	}
	defer r.Close()
	data, err := io.ReadAll(bufio.NewReader(r))
	if err != nil {
		env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
		return 1
	}
	tokens := strings.Fields(string(data))
	if len(tokens)%2 != 0 {
		env.Errorf("%s: input contains an odd number of tokens", tool.QuoteIfNeeded(name))
		return 1
	}
	nodes := map[string]*node{}
	get := func(t string) *node {
		n := nodes[t]
		if n == nil {
			n = &node{}
			nodes[t] = n
		}
		return n
	}
	for i := 0; i < len(tokens); i += 2 {
		a, b := tokens[i], tokens[i+1]
		na := get(a)
		nb := get(b)
		if a != b {
			na.succ = append([]string{b}, na.succ...)
			nb.count++
		}
	}
	names := make([]string, 0, len(nodes))
	for t := range nodes {
		names = append(names, t)
	}
	sort.Strings(names)
	out := env.Out()
	status := 0
	left := len(names)
	var queue []string
	for _, t := range names {
		if nodes[t].count == 0 {
			queue = append(queue, t)
		}
	}
	for left > 0 {
		for len(queue) > 0 {
			t := queue[0]
			queue = queue[1:]
			n := nodes[t]
			if n.done {
				continue
			}
			n.done = true
			left--
			fmt.Fprintln(out, t)
			for _, s := range n.succ {
				ns := nodes[s]
				ns.count--
				if ns.count == 0 && !ns.done {
					queue = append(queue, s)
				}
			}
		}
		if left == 0 {
			break
		}
		// A loop: report one through the first node left, then break it
		// there.
		status = 1
		var start string
		for _, t := range names {
			if !nodes[t].done {
				start = t
				break
			}
		}
		env.Errorf("%s: input contains a loop:", tool.QuoteIfNeeded(name))
		for _, t := range cycle(nodes, start) {
			env.Errorf("%s", t)
		}
		nodes[start].count = 0
		queue = append(queue, start)
	}
	return status
}

// cycle finds a path of not yet output nodes from start back to start.
func cycle(nodes map[string]*node, start string) []string {
	seen := map[string]bool{}
	var path []string
	var dfs func(t string) bool
	dfs = func(t string) bool {
		path = append(path, t)
		seen[t] = true
		for _, s := range nodes[t].succ {
			if nodes[s].done {
				continue
			}
			if s == start {
				return true
			}
			if !seen[s] && dfs(s) {
				return true
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if !dfs(start) {
		return []string{start}
	}
	return path
}
