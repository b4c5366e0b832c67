package main

import (
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

// TestMain removes the builds the tests share when they end.
func TestMain(m *testing.M) { guesttest.Main(m) }
