// Package agent lets a language-model agent use a sandbox through tool
// calls.
//
// A Toolset binds the tools — sandbox_run, read_file, write_file,
// list_dir and run_code — to one sandbox.Sandbox. Tools lists them with
// JSON Schemas and descriptions written for a model (what the sandbox has:
// its commands, limits and paths); OpenAI, OpenAIResponses and Anthropic
// give the same definitions in the shapes those APIs take; Call runs one
// tool call and returns a result that marshals to JSON. Long outputs are
// cut for the model with their head and tail kept and a note of what was
// cut.
//
// The package has no network or MCP code: the MCP server (package
// agent/mcpserver) and the JavaScript package build on it, so a tool means
// the same thing everywhere.
package agent
