// Package yq is mikefarah's yq (github.com/mikefarah/yq/v4), the YAML, JSON,
// XML, CSV, TOML and properties processor, behind its own command line:
// yq's cobra command runs as upstream's main runs it, "eval" being the
// command when the first argument names none.
package yq

import (
	"fmt"

	command "github.com/mikefarah/yq/v4/cmd"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// Main is the yq command.
func Main(env *tool.Env) (code int) {
	defer func() {
		// yq reports its errors itself; a panic inside it must not end in
		// a Go crash dump.
		if r := recover(); r != nil {
			env.Out().Flush()
			fmt.Fprintf(env.Stderr, "Error: %v\n", r)
			code = 1
		}
	}()
	root := command.New()
	args := env.Args[1:]
	if _, _, err := root.Find(args); err != nil && (len(args) == 0 || args[0] != "__complete" && args[0] != "__completeNoDesc") {
		args = append([]string{"eval"}, args...)
	}
	root.SetArgs(args)
	// Results go where upstream's go: os.Stdout, through cobra's default
	// (usage messages then land on standard error, as upstream's do).
	root.SetErr(env.Stderr)
	if err := root.Execute(); err != nil {
		return 1
	}
	return 0
}
