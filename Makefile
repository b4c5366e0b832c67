# wasmsand — build, test and try the sandbox.
#   make demo    build everything and open the interactive shell
#   make test    vet, then every test
#   make build   build/wasmsand (the native CLI) and build/tools (guest modules)
#   make package build/npm and the npm package tarball
#   make bench   benchmarks

GO      ?= go
BUILD   := build
TOOLS   := $(BUILD)/tools
GOTEST_FLAGS ?= -timeout 20m

VERSION ?= 0.1.0

.PHONY: all build tools cli demo run test vet bench package clean

all: build

build: cli tools

cli:
	$(GO) build -trimpath -o $(BUILD)/wasmsand ./cmd/wasmsand

tools:
	$(GO) run ./wasm/guest/cmd/buildtools -o $(TOOLS)

# The interactive shell on the native build (wazero). Try: ls /usr/bin | head
demo: build
	$(BUILD)/wasmsand

# One command: make run CMD='seq 5 | sort -r'
run: build
	$(BUILD)/wasmsand -c '$(CMD)'

vet:
	@test -z "$$(gofmt -l . | grep -v '^build/')" || { echo "gofmt needed:"; gofmt -l . | grep -v '^build/'; exit 1; }
	$(GO) vet ./...

test: vet
	$(GO) test $(GOTEST_FLAGS) ./...

# The npm package (GOOS=js core, loader, tools) in build/npm.
package: tools
	$(GO) run ./web/mkpackage -o $(BUILD)/npm -version $(VERSION) -tools $(TOOLS)

bench:
	$(GO) test -run '^$$' -bench . -benchtime 2s ./sandbox/... ./wasm/...

clean:
	rm -rf $(BUILD)
