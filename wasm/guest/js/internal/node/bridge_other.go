//go:build !wasip1

package node

import "errors"

// NativeBridge answers bridge calls when the package runs natively (in
// tests); nil means no bridges.
var NativeBridge func(req []byte) ([]byte, error)

func callBridge(req []byte) ([]byte, error) {
	if NativeBridge == nil {
		return nil, errors.New("no API bridges here (they exist inside runCode only)")
	}
	return NativeBridge(req)
}
