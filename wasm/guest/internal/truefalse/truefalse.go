// Package truefalse implements true and false: commands that do nothing,
// successfully or not.
package truefalse

import "github.com/wasmsand/wasmsand/wasm/guest/internal/tool"

// True exits 0.
func True(env *tool.Env) int { return run(env, 0) }

// False exits 1.
func False(env *tool.Env) int { return run(env, 1) }

func run(env *tool.Env, code int) int {
	if len(env.Args) == 2 {
		switch env.Args[1] {
		case "--help":
			env.Help("Usage: " + env.Name() + " [ignored command line arguments]\n  or:  " + env.Name() + " OPTION\nExit with a status code indicating " + map[int]string{0: "success", 1: "failure"}[code] + ".\n")
			return code
		case "--version":
			env.PrintVersion()
			return code
		}
	}
	return code
}
