package agent

import "encoding/json"

// OpenAITool is a tool in the OpenAI Chat Completions shape:
// {"type": "function", "function": {"name", "description", "parameters"}}.
type OpenAITool struct {
	Type     string         `json:"type"`
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the function of an OpenAITool.
type OpenAIFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// OpenAIResponsesTool is a tool in the OpenAI Responses API shape:
// {"type": "function", "name", "description", "parameters"}.
type OpenAIResponsesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// AnthropicTool is a tool in the Anthropic Messages API shape:
// {"name", "description", "input_schema"}.
type AnthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// OpenAI gives tools in the Chat Completions shape, for the tools
// parameter; a tool call's function.arguments (a JSON string) goes to
// Toolset.Call as it is.
func OpenAI(tools []Tool) []OpenAITool {
	out := make([]OpenAITool, len(tools))
	for i, t := range tools {
		out[i] = OpenAITool{Type: "function", Function: OpenAIFunction{Name: t.Name, Description: t.Description, Parameters: t.InputSchema}}
	}
	return out
}

// OpenAIResponses gives tools in the Responses API shape.
func OpenAIResponses(tools []Tool) []OpenAIResponsesTool {
	out := make([]OpenAIResponsesTool, len(tools))
	for i, t := range tools {
		out[i] = OpenAIResponsesTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.InputSchema}
	}
	return out
}

// Anthropic gives tools in the Messages API shape, for the tools
// parameter; a tool_use block's input goes to Toolset.Call as it is.
func Anthropic(tools []Tool) []AnthropicTool {
	out := make([]AnthropicTool, len(tools))
	for i, t := range tools {
		out[i] = AnthropicTool(t)
	}
	return out
}
