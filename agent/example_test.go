package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/sandbox"
)

// A model asks for tool calls; the Toolset runs them in the sandbox and
// gives back the JSON to return to the model.
func Example() {
	ctx := context.Background()
	opts := sandbox.Options{} // set ToolsDir to the built tools for commands beyond the shell's builtins
	sb, err := sandbox.New(ctx, opts)
	if err != nil {
		log.Fatal(err)
	}
	defer sb.Close()
	tools, err := agent.New(sb, agent.Options{Sandbox: opts})
	if err != nil {
		log.Fatal(err)
	}

	// Hand the definitions to the model, e.g. as Anthropic tools.
	defs, _ := json.Marshal(agent.Anthropic(tools.Tools()))
	fmt.Println(len(defs) > 0)

	// The model's tool calls: name and JSON arguments.
	out, isErr := tools.CallJSON(ctx, "write_file", json.RawMessage(`{"path":"notes/todo.txt","content":"ship it\n"}`))
	fmt.Println(string(out), isErr)
	out, isErr = tools.CallJSON(ctx, "sandbox_run", json.RawMessage(`{"command":"read line < notes/todo.txt; echo \"${line^^}\""}`))
	var r agent.RunResult
	json.Unmarshal(out, &r)
	fmt.Printf("%d %q %v\n", r.ExitCode, r.Stdout, isErr)
	out, isErr = tools.CallJSON(ctx, "read_file", json.RawMessage(`{"path":"/etc/shadow"}`))
	fmt.Println(string(out), isErr)
	// Output:
	// true
	// {"path":"notes/todo.txt","bytes_written":8,"size":8} false
	// 0 "SHIP IT\n" false
	// {"error":{"code":"ENOENT","message":"read /etc/shadow: no such file or directory"}} true
}
