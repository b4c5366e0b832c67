package conformance

// The sandboxes of these tests run natively, on wazero.
import _ "github.com/wasmsand/wasmsand/platform/native"
