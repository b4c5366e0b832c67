// Command mkpackage builds the wasmsand npm package into a folder: the
// js/wasm core, the guest tools, the wasm_exec.js of the Go that built the
// core, the loaders (Node, browser ES module and the <script> build
// wasmsand.js, bundled from the ES modules), the type declarations, the
// bin script and package.json. It also packs the folder as npm pack does,
// into wasmsand-VERSION.tgz beside it. Run it from the module root:
//
//	go run ./web/mkpackage -o build/npm
//
// -tools DIR copies already built tools (manifest.json and *.wasm)
// instead of building them; -version sets the package version; -tgz DIR
// puts the tarball elsewhere.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/binary"
	"github.com/wasmsand/wasmsand/wasm/cguest"
	"github.com/wasmsand/wasmsand/wasm/guest"
	"github.com/wasmsand/wasmsand/wasm/jumpthread"
)

func main() {
	out := flag.String("o", "build/npm", "output folder (replaced)")
	src := flag.String("src", "web/npm", "folder of the loader sources and package.json")
	tools := flag.String("tools", "", "folder of built tools to copy (default: build them)")
	version := flag.String("version", "0.0.0-dev", "package version")
	tgzDir := flag.String("tgz", "", "folder for wasmsand-VERSION.tgz (default: the parent of -o)")
	flag.Parse()
	if *tgzDir == "" {
		*tgzDir = filepath.Dir(filepath.Clean(*out))
	}
	err := build(context.Background(), *out, *src, *tools, *version)
	if err == nil {
		err = pack(*out, filepath.Join(*tgzDir, "wasmsand-"+*version+".tgz"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkpackage:", err)
		os.Exit(1)
	}
}

func build(ctx context.Context, out, src, tools, version string) error {
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "tools"), 0o755); err != nil {
		return err
	}
	// Under "go run" the go command running this program is first on PATH.
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("finding the go command: %w (put Go's bin folder on PATH)", err)
	}
	// The core, and the MCP server's core for "npx wasmsand mcp" (apart,
	// so that browsers do not download the MCP SDK).
	for _, c := range []struct{ file, pkg string }{
		{"wasmsand.wasm", "./cmd/wasmsand-js"},
		{"wasmsand-mcp.wasm", "./cmd/wasmsand-mcp-js"},
	} {
		cmd := exec.CommandContext(ctx, goCmd, "build", "-trimpath",
			"-ldflags", "-s -w -X main.version="+version,
			"-o", filepath.Join(out, c.file), c.pkg)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building %s: %w", c.file, err)
		}
		if err := threadJumps(filepath.Join(out, c.file)); err != nil {
			return fmt.Errorf("%s: %w", c.file, err)
		}
	}
	goroot, err := exec.CommandContext(ctx, goCmd, "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	if err := copyFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), filepath.Join(out, "wasm_exec.js")); err != nil {
		return err
	}
	if tools == "" {
		if err := guest.Build(ctx, filepath.Join(out, "tools")); err != nil {
			return fmt.Errorf("building the tools: %w", err)
		}
		// python3 and sqlite3 ship when they are built (make cguests).
		if dir, ok := cguest.Cached(); ok {
			if err := cguest.Install(dir, filepath.Join(out, "tools")); err != nil {
				return fmt.Errorf("adding the C guests: %w", err)
			}
		}
	} else {
		ents, err := os.ReadDir(tools)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if n := e.Name(); !e.IsDir() && (n == "manifest.json" || strings.HasSuffix(n, ".wasm")) {
				if err := copyFile(filepath.Join(tools, n), filepath.Join(out, "tools", n)); err != nil {
					return err
				}
			}
		}
	}
	if err := writeDigests(filepath.Join(out, "tools")); err != nil {
		return err
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range ents {
		n := e.Name()
		if n == "package.json" {
			continue
		}
		if e.IsDir() {
			if err := os.CopyFS(filepath.Join(out, n), os.DirFS(filepath.Join(src, n))); err != nil {
				return err
			}
			continue
		}
		if err := copyFile(filepath.Join(src, n), filepath.Join(out, n)); err != nil {
			return err
		}
	}
	if err := os.Chmod(filepath.Join(out, "bin", "wasmsand.mjs"), 0o755); err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := stampCore(out); err != nil {
		return err
	}
	script, err := scriptBuild(out, version)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "wasmsand.js"), script, 0o644); err != nil {
		return err
	}
	return writePackageJSON(filepath.Join(src, "package.json"), filepath.Join(out, "package.json"), version)
}

// writePackageJSON copies the template with its version set, keeping the
// order of its fields.
func writePackageJSON(from, to, version string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return fmt.Errorf("%s: %w", from, err)
	}
	old, ok := fields["version"]
	if !ok {
		return fmt.Errorf("%s has no version field", from)
	}
	v, _ := json.Marshal(version)
	s := strings.Replace(string(b), `"version": `+string(old), `"version": `+string(v), 1)
	return os.WriteFile(to, []byte(s), 0o644)
}

// coreHashMarker is the line of platform-browser.mjs that stampCore fills
// in with the SHA-256 of the package's wasmsand.wasm.
const coreHashMarker = "const CORE_SHA256 = '';"

// stampCore writes the SHA-256 of out's wasmsand.wasm into out's
// platform-browser.mjs (before the <script> build bundles it), so that a
// browser keeps the core in the Cache API under its hash and reuses it on
// later page loads without fetching it (see loadCore there).
func stampCore(out string) error {
	core, err := os.ReadFile(filepath.Join(out, "wasmsand.wasm"))
	if err != nil {
		return err
	}
	sum := sha256.Sum256(core)
	path := filepath.Join(out, "platform-browser.mjs")
	js, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if n := bytes.Count(js, []byte(coreHashMarker)); n != 1 {
		return fmt.Errorf("%s: want exactly one line %q for the core's hash, found %d", path, coreHashMarker, n)
	}
	stamped := bytes.Replace(js, []byte(coreHashMarker), []byte("const CORE_SHA256 = '"+hex.EncodeToString(sum[:])+"';"), 1)
	return os.WriteFile(path, stamped, 0o644)
}

// writeDigests writes sha256.json into the tools folder dir: the SHA-256
// (lowercase hex) of each of its modules, by file name. The loaders give
// each tool's to the core, which then finds the tool's instrumented module
// in the store without reading the tool (sandbox.ToolDigester).
func writeDigests(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	sums := map[string]string{}
	for _, e := range ents {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".wasm") {
			b, err := os.ReadFile(filepath.Join(dir, n))
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			sums[n] = hex.EncodeToString(sum[:])
		}
	}
	b, err := json.MarshalIndent(sums, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "sha256.json"), append(b, '\n'), 0o644)
}

// threadJumps rewrites the Go-built module at path so that its forward
// jumps branch straight to their targets (package jumpthread): the core
// runs its Go code, the shell and the instrumenter included, with one
// indirect branch fewer per jump in every engine.
func threadJumps(path string) error {
	bin, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	m, err := binary.Decode(bin)
	if err != nil {
		return err
	}
	if _, err := jumpthread.Module(m); err != nil {
		return err
	}
	return os.WriteFile(path, m.Encode(), 0o644)
}

func copyFile(from, to string) error {
	r, err := os.Open(from)
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
