// Tool definitions for LLM agents over a wasmsand Sandbox: the shapes the
// OpenAI, Anthropic and Vercel AI SDK APIs take, and a dispatcher. The
// definitions and the dispatcher come from the core (Go package agent), so
// a tool means the same in JavaScript, in Go and over MCP.

/**
 * createTools(sandbox) binds the agent tools (sandbox_run, read_file,
 * write_file, list_dir, run_code, snapshot, restore) to a Sandbox.
 */
export function createTools(sandbox) {
  return new SandboxTools(sandbox);
}

const typeChecks = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  object: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
};

/**
 * validateArgs(schema, value) checks a tool's arguments against its input
 * schema (the flat object schemas of these tools: type, required,
 * properties with type, enum and minimum, additionalProperties) and returns
 * the issues as [{message, path}], empty when the arguments fit.
 */
export function validateArgs(schema, value) {
  if (!typeChecks.object(value)) return [{ message: 'the arguments must be an object', path: [] }];
  const issues = [];
  const props = schema.properties ?? {};
  for (const k of schema.required ?? []) {
    if (value[k] === undefined) issues.push({ message: `${k} is required`, path: [k] });
  }
  for (const [k, v] of Object.entries(value)) {
    const p = props[k];
    if (p === undefined) {
      if (schema.additionalProperties === false) issues.push({ message: `unknown argument ${k}`, path: [k] });
      continue;
    }
    const check = typeChecks[p.type];
    if (check && !check(v)) issues.push({ message: `${k} must be of type ${p.type}`, path: [k] });
    else if (p.enum && !p.enum.includes(v)) issues.push({ message: `${k} must be one of ${p.enum.join(', ')}`, path: [k] });
    else if (typeof p.minimum === 'number' && typeof v === 'number' && v < p.minimum) issues.push({ message: `${k} must be at least ${p.minimum}`, path: [k] });
  }
  return issues;
}

/** The agent tools of one Sandbox. */
export class SandboxTools {
  constructor(sandbox) {
    if (!sandbox || typeof sandbox.toolDefinitions !== 'function') throw new TypeError('createTools: pass a Sandbox');
    this.sandbox = sandbox;
    /** [{name, description, inputSchema}] */
    this.definitions = sandbox.toolDefinitions();
  }

  /** openai() gives the tools in the Chat Completions shape. */
  openai() {
    return this.definitions.map((d) => ({
      type: 'function',
      function: { name: d.name, description: d.description, parameters: structuredClone(d.inputSchema) },
    }));
  }

  /** openaiResponses() gives the tools in the Responses API shape. */
  openaiResponses() {
    return this.definitions.map((d) => ({
      type: 'function', name: d.name, description: d.description, parameters: structuredClone(d.inputSchema),
    }));
  }

  /** anthropic() gives the tools in the Messages API shape. */
  anthropic() {
    return this.definitions.map((d) => ({ name: d.name, description: d.description, input_schema: structuredClone(d.inputSchema) }));
  }

  /**
   * aiSdk({jsonSchema}) gives the tools for the Vercel AI SDK as
   * {name: {description, inputSchema, execute}}, ready for generateText's
   * tools or for tool(). inputSchema is a Standard Schema with JSON Schema
   * (AI SDK 6 and later read it as is); pass the AI SDK's jsonSchema
   * function to get its own schema objects instead (AI SDK 5).
   */
  aiSdk({ jsonSchema } = {}) {
    const out = {};
    for (const d of this.definitions) {
      const validate = (value) => {
        const issues = validateArgs(d.inputSchema, value);
        return issues.length ? { issues } : { value };
      };
      const inputSchema = jsonSchema
        ? jsonSchema(structuredClone(d.inputSchema), {
          validate: (value) => {
            const r = validate(value);
            return r.issues ? { success: false, error: new TypeError(r.issues.map((i) => i.message).join('; ')) } : { success: true, value };
          },
        })
        : {
          '~standard': {
            version: 1,
            vendor: 'wasmsand',
            validate,
            jsonSchema: { input: () => structuredClone(d.inputSchema), output: () => structuredClone(d.inputSchema) },
          },
        };
      out[d.name] = {
        description: d.description,
        inputSchema,
        execute: (input) => this.handleToolCall(d.name, input),
      };
    }
    return out;
  }

  /**
   * handleToolCall(name, args) runs one tool call: args is an object or its
   * JSON text (OpenAI's function.arguments, Anthropic's tool_use input). It
   * resolves to the result object, or to {error: {code, message}}.
   */
  handleToolCall(name, args) {
    return this.sandbox.handleToolCall(name, args);
  }
}
