package main

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScriptBuild(t *testing.T) {
	b, err := scriptBuild("../npm", "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{
		"wasmsand 1.2.3",
		"class SandboxError extends Error",
		"function browserPlatform(",
		"globalThis.wasmsand = Object.freeze(",
		"document?.currentScript",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the script build lacks %q", want)
		}
	}
	if leftover.MatchString(s) {
		t.Errorf("the script build still has module syntax at %q", leftover.FindString(s))
	}
	if !strings.HasPrefix(strings.TrimSpace(s[strings.Index(s, "(() => {"):]), "(() => {") || !strings.HasSuffix(s, "})();\n") {
		t.Error("the script build is not one function scope")
	}
}

func TestScriptBuildRefusesUnbundlable(t *testing.T) {
	for name, src := range map[string]string{
		"re-export":      "export * from './x.mjs';\n",
		"import.meta":    "export const here = new URL('./', import.meta.url);\n",
		"default export": "export default function f() {}\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range scriptSources {
				if err := os.WriteFile(filepath.Join(dir, f), []byte("export function ok() {}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, scriptSources[0]), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := scriptBuild(dir, "0"); err == nil || !strings.Contains(err.Error(), scriptSources[0]) {
				t.Errorf("got error %v, want one naming %s", err, scriptSources[0])
			}
		})
	}
}

func TestPack(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"package.json":        `{"name":"wasmsand"}`,
		"index.mjs":           "export {};",
		"bin/wasmsand.mjs":    "#!/usr/bin/env node\n",
		"tools/a.wasm":        "\x00asm\x01\x00\x00\x00",
		"tools/manifest.json": "{}",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tgz := filepath.Join(t.TempDir(), "out", "wasmsand-0.1.0.tgz")
	if err := pack(dir, tgz); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	seen := map[string]bool{}
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		name, ok := strings.CutPrefix(h.Name, "package/")
		if !ok {
			t.Errorf("entry %s is not under package/", h.Name)
			continue
		}
		body, _ := io.ReadAll(tr)
		if string(body) != files[name] {
			t.Errorf("%s holds %q, want %q", h.Name, body, files[name])
		}
		wantMode := int64(0o644)
		if strings.HasPrefix(name, "bin/") {
			wantMode = 0o755
		}
		if h.Mode != wantMode {
			t.Errorf("%s has mode %o, want %o", h.Name, h.Mode, wantMode)
		}
		if !h.ModTime.Equal(packTime) {
			t.Errorf("%s has time %v, want %v", h.Name, h.ModTime, packTime)
		}
		seen[name] = true
	}
	if len(seen) != len(files) {
		t.Errorf("entries %v, want the %d files", names, len(files))
	}
	for i := 1; i < len(names); i++ {
		if names[i] < names[i-1] {
			t.Errorf("entries not sorted: %v", names)
		}
	}
}

func TestStampCore(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../npm/platform-browser.mjs")
	if err != nil {
		t.Fatal(err)
	}
	core := []byte("\x00asm\x01\x00\x00\x00")
	if err := os.WriteFile(filepath.Join(dir, "wasmsand.wasm"), core, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "platform-browser.mjs"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := stampCore(dir); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "platform-browser.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	// The SHA-256 of the 8 bytes of an empty module.
	const want = "const CORE_SHA256 = '93a44bbb96c751218e4c00d479e4c14358122a389acca16205b1e4d0dc5f9476';"
	if !strings.Contains(string(got), want) || strings.Contains(string(got), coreHashMarker) {
		t.Errorf("stamped platform-browser.mjs lacks %q", want)
	}
	// A second stamp finds no marker: the package build fails rather than
	// shipping a loader that never caches its core, or a wrong hash.
	if err := stampCore(dir); err == nil || !strings.Contains(err.Error(), "CORE_SHA256") {
		t.Errorf("stamping a stamped file: %v, want an error naming the marker", err)
	}
}

func TestWriteDigests(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a.wasm":        "\x00asm\x01\x00\x00\x00",
		"manifest.json": "{}",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeDigests(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "sha256.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.wasm": "93a44bbb96c751218e4c00d479e4c14358122a389acca16205b1e4d0dc5f9476"}
	if len(got) != 1 || got["a.wasm"] != want["a.wasm"] {
		t.Errorf("sha256.json = %v, want %v", got, want)
	}
}
