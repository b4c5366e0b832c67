//go:build wasip1

package node

import (
	"fmt"
	"syscall"
	"unsafe"
)

//go:wasmimport wasmsand bridge_call
func bridgeCall(req unsafe.Pointer, reqLen uint32, respLen unsafe.Pointer) uint32

//go:wasmimport wasmsand bridge_result
func bridgeResult(buf unsafe.Pointer, bufLen uint32) uint32

// callBridge asks the sandbox to run a host bridge function: the request
// is {"name", "args"}, the answer {"ok", "result"} or {"ok": false,
// "error"}. The guest waits (natively the host call blocks; under JSPI it
// suspends).
func callBridge(req []byte) ([]byte, error) {
	var n uint32
	if en := bridgeCall(unsafe.Pointer(unsafe.SliceData(req)), uint32(len(req)), unsafe.Pointer(&n)); en != 0 {
		if syscall.Errno(en) == syscall.ENOSYS || syscall.Errno(en) == syscall.ENOTSUP {
			return nil, fmt.Errorf("no API bridges here (they exist inside runCode only)")
		}
		return nil, syscall.Errno(en)
	}
	buf := make([]byte, max(n, 1))
	if en := bridgeResult(unsafe.Pointer(unsafe.SliceData(buf)), n); en != 0 {
		return nil, syscall.Errno(en)
	}
	return buf[:n], nil
}
