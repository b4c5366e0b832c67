package agent_test

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/wasmsand/wasmsand/agent"
	"github.com/wasmsand/wasmsand/sandbox"
)

// toolsNoGuests lists the tools of a sandbox without guest tools: the
// definitions do not depend on them beyond the command list.
func toolsNoGuests(t *testing.T) []agent.Tool {
	t.Helper()
	sb, err := sandbox.New(context.Background(), sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	ts, err := agent.New(sb, agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ts.Tools()
}

// toolName is the name pattern both OpenAI (function.name) and Anthropic
// (tools[].name) document.
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func keys(t *testing.T, b []byte) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not a JSON object: %s", b)
	}
	return m
}

// checkKeys fails unless m has every key of required and nothing outside
// allowed.
func checkKeys(t *testing.T, what string, m map[string]json.RawMessage, required, allowed []string) {
	t.Helper()
	for _, k := range required {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: missing %q", what, k)
		}
	}
	for k := range m {
		if !slices.Contains(allowed, k) {
			t.Errorf("%s: %q is not a documented field", what, k)
		}
	}
}

// checkSchema resolves s as a JSON Schema (draft 2020-12) and checks that
// it describes an object.
func checkSchema(t *testing.T, what string, raw json.RawMessage) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if s.Type != "object" {
		t.Errorf("%s: type %q, want object", what, s.Type)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return r
}

func TestOpenAIShape(t *testing.T) {
	for _, tool := range agent.OpenAI(toolsNoGuests(t)) {
		b, _ := json.Marshal(tool)
		top := keys(t, b)
		checkKeys(t, "tool", top, []string{"type", "function"}, []string{"type", "function"})
		if string(top["type"]) != `"function"` {
			t.Errorf("type %s", top["type"])
		}
		fn := keys(t, top["function"])
		checkKeys(t, "function", fn, []string{"name", "parameters"}, []string{"name", "description", "parameters", "strict"})
		if !toolName.MatchString(tool.Function.Name) {
			t.Errorf("name %q", tool.Function.Name)
		}
		checkSchema(t, tool.Function.Name, fn["parameters"])
	}
	for _, tool := range agent.OpenAIResponses(toolsNoGuests(t)) {
		b, _ := json.Marshal(tool)
		m := keys(t, b)
		checkKeys(t, "tool", m, []string{"type", "name", "parameters"}, []string{"type", "name", "description", "parameters", "strict"})
		checkSchema(t, tool.Name, m["parameters"])
	}
}

func TestAnthropicShape(t *testing.T) {
	for _, tool := range agent.Anthropic(toolsNoGuests(t)) {
		b, _ := json.Marshal(tool)
		m := keys(t, b)
		checkKeys(t, "tool", m, []string{"name", "input_schema"}, []string{"name", "description", "input_schema", "cache_control", "type"})
		if !toolName.MatchString(tool.Name) {
			t.Errorf("name %q", tool.Name)
		}
		checkSchema(t, tool.Name, m["input_schema"])
	}
}

// TestSchemasMatchCalls checks that arguments the schemas accept are the
// ones Call accepts, and the other way round.
func TestSchemasMatchCalls(t *testing.T) {
	cases := []struct {
		tool, args string
		ok         bool
	}{
		{agent.ToolRun, `{"command":"ls"}`, true},
		{agent.ToolRun, `{"command":"ls","stdin":"x","timeout_ms":100}`, true},
		{agent.ToolRun, `{}`, false},
		{agent.ToolRun, `{"command":1}`, false},
		{agent.ToolRun, `{"command":"ls","extra":1}`, false},
		{agent.ToolReadFile, `{"path":"a"}`, true},
		{agent.ToolReadFile, `{}`, false},
		{agent.ToolWriteFile, `{"path":"a","content":"b","encoding":"base64","append":true}`, true},
		{agent.ToolWriteFile, `{"path":"a"}`, false},
		{agent.ToolWriteFile, `{"path":"a","content":"b","encoding":"latin1"}`, false},
		{agent.ToolListDir, `{}`, true},
		{agent.ToolListDir, `{"path":7}`, false},
		{agent.ToolRunCode, `{"code":"1"}`, true},
		{agent.ToolRunCode, `{"code":"1","language":"python"}`, false},
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range toolsNoGuests(t) {
		schemas[tool.Name] = checkSchema(t, tool.Name, tool.InputSchema)
	}
	for _, c := range cases {
		var v any
		json.Unmarshal([]byte(c.args), &v)
		err := schemas[c.tool].Validate(v)
		if (err == nil) != c.ok {
			t.Errorf("%s %s: schema says %v, want ok=%v", c.tool, c.args, err, c.ok)
		}
	}
}
