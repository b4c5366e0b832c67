package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// aiSDKVersion is the Vercel AI SDK the tool shapes are checked against.
const aiSDKVersion = "ai@7"

// aiSDK returns a folder whose node_modules holds the AI SDK, installing
// it with npm into build/ai on first use. It skips the test if npm cannot
// fetch it.
func aiSDK(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join(root, "build", "ai"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "ai", "package.json")); err == nil {
		return dir
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("npm is not installed, so the AI SDK cannot be fetched: %v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, aiSDKVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		if bytes.Contains(out, []byte("ENOTFOUND")) || bytes.Contains(out, []byte("EAI_AGAIN")) ||
			bytes.Contains(out, []byte("ECONNREFUSED")) || bytes.Contains(out, []byte("ETIMEDOUT")) {
			t.Skipf("the npm registry is unreachable, so the AI SDK cannot be fetched:\n%s", out)
		}
		t.Fatalf("npm install %s: %v\n%s", aiSDKVersion, err, out)
	}
	return dir
}

// TestNodeAISDK runs node/tools.test.mjs with the real AI SDK installed, so
// that its tool() and asSchema read the package's AI SDK tool shapes.
func TestNodeAISDK(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the npm package and runs Node; not in -short mode")
	}
	node := node26(t)
	ai := aiSDK(t)
	pkg := buildPackage(t)
	cmd := exec.Command(node, "--test", "--test-reporter=spec", "node/tools.test.mjs")
	cmd.Env = append(os.Environ(), "WASMSAND_PKG="+pkg, "WASMSAND_AI_SDK="+ai)
	out, err := cmd.CombinedOutput()
	t.Logf("node --test node/tools.test.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("node --test failed: %v", err)
	}
	if !bytes.Contains(out, []byte("✔ Vercel AI SDK tool()")) {
		t.Fatal("the AI SDK test did not run")
	}
}
