package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// scriptSources are the ES modules bundled, in order, into the <script>
// build. They may import only each other.
var scriptSources = []string{"sandbox.mjs", "modsandbox.mjs", "platform-browser.mjs"}

// scriptTail starts the browser platform from the script's own URL and
// defines the global.
const scriptTail = `
const script = globalThis.document?.currentScript;
const browser = browserPlatform(new URL('./', script?.src || globalThis.location?.href));
definePlatform(browser);
globalThis.wasmsand = Object.freeze({
  Sandbox,
  SandboxError,
  ValidationError,
  TimeoutError,
  RuntimeError,
  getApiMetadata,
  WasmSandbox,
  WasmSandboxInstance,
  createWasmSandbox,
  configure: (options) => browser.configure(options),
});
`

var (
	importLine = regexp.MustCompile(`(?m)^import [^;]*;\n`)
	exportList = regexp.MustCompile(`(?m)^export \{[^}]*\};\n`)
	exportDecl = regexp.MustCompile(`(?m)^export ((?:async )?function|class|const|let) `)
	// leftover finds module syntax the rewriting above did not remove.
	leftover = regexp.MustCompile(`(?m)^\s*(import|export)\b|import\.meta`)
)

// scriptBuild bundles scriptSources into one classic script that defines
// globalThis.wasmsand. The sources are plain ES modules, so bundling is
// dropping their imports and the export keyword, inside one function scope.
func scriptBuild(src, version string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// wasmsand %s: the <script> build. It defines globalThis.wasmsand\n", version)
	b.WriteString("// ({Sandbox, SandboxError, configure}) and loads wasmsand.wasm, wasm_exec.js\n")
	b.WriteString("// and tools/ from the folder this script is served from.\n")
	b.WriteString("(() => {\n'use strict';\n")
	for _, name := range scriptSources {
		code, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return nil, err
		}
		code = importLine.ReplaceAll(code, nil)
		code = exportList.ReplaceAll(code, nil)
		code = exportDecl.ReplaceAll(code, []byte("$1 "))
		if loc := leftover.FindIndex(code); loc != nil {
			line := bytes.Count(code[:loc[0]], []byte("\n")) + 1
			return nil, fmt.Errorf("%s: module syntax the script build cannot bundle near line %d (after rewriting): use only import declarations, export {...} lists and exported declarations, and no import.meta", name, line)
		}
		fmt.Fprintf(&b, "\n// ---- %s\n", name)
		b.Write(code)
	}
	b.WriteString(scriptTail)
	b.WriteString("})();\n")
	return b.Bytes(), nil
}
