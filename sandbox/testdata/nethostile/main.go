// Command nethostile calls the sandbox's http_* host functions the way no
// honest guest would — bad pointers and lengths, unknown handles, calls
// out of order, a head with smuggled lines — and prints each errno. The
// host must answer every call with an errno and never fail itself.
package main

import (
	"fmt"
	"os"
	"unsafe"
)

//go:wasmimport wasmsand http_open
func httpOpen(head unsafe.Pointer, headLen uint32, bodyLen int64, handle unsafe.Pointer) uint32

//go:wasmimport wasmsand http_write
func httpWrite(h uint32, buf unsafe.Pointer, n uint32) uint32

//go:wasmimport wasmsand http_wait
func httpWait(h uint32, headLen unsafe.Pointer) uint32

//go:wasmimport wasmsand http_head
func httpHead(h uint32, buf unsafe.Pointer, n uint32) uint32

//go:wasmimport wasmsand http_read
func httpRead(h uint32, buf unsafe.Pointer, n uint32, nread unsafe.Pointer) uint32

//go:wasmimport wasmsand http_close
func httpClose(h uint32) uint32

//go:wasmimport wasmsand http_error
func httpError(buf unsafe.Pointer, n uint32, full unsafe.Pointer) uint32

// bad is an address past any memory the guest has.
var bad = unsafe.Pointer(uintptr(0xfffffff0))

func open(head string, bodyLen int64) (uint32, uint32) {
	b := []byte(head + "\x00")
	var h uint32
	e := httpOpen(unsafe.Pointer(&b[0]), uint32(len(head)), bodyLen, unsafe.Pointer(&h))
	return h, e
}

func lastError() string {
	buf := make([]byte, 512)
	var n uint32
	if httpError(unsafe.Pointer(&buf[0]), uint32(len(buf)), unsafe.Pointer(&n)) != 0 {
		return "?"
	}
	return string(buf[:min(n, 512)])
}

func main() {
	url := os.Args[1]
	var h, n uint32
	buf := make([]byte, 64)
	p := func(what string, e uint32) { fmt.Printf("%s: %d\n", what, e) }

	b := []byte("GET " + url + "\n")
	p("open with a bad head pointer", httpOpen(bad, 100, 0, unsafe.Pointer(&h)))
	p("open with a huge head length", httpOpen(unsafe.Pointer(&b[0]), 0xffffffff, 0, unsafe.Pointer(&h)))
	p("open with a bad handle pointer", httpOpen(unsafe.Pointer(&b[0]), uint32(len(b)), 0, bad))
	_, e := open("", 0)
	p("open with an empty head", e)
	_, e = open("GET\n", 0)
	p("open without a URL", e)
	_, e = open("GET "+url+"\nno colon here\n", 0)
	p("open with a bad header line", e)
	_, e = open("GET "+url+"\n:timeout-ms: -5\n", 0)
	p("open with a bad timeout", e)
	_, e = open("GET http://10.0.0.1/\n", 0)
	p("open a denied URL", e)
	fmt.Println(lastError())
	_, e = open("GET "+url+" HTTP/1.1\r\nHost: evil\r\n", 0)
	p("open with a request line of three words", e)

	p("write to an unknown handle", httpWrite(999, unsafe.Pointer(&buf[0]), 1))
	p("wait on an unknown handle", httpWait(999, unsafe.Pointer(&n)))
	p("head of an unknown handle", httpHead(999, unsafe.Pointer(&buf[0]), 64))
	p("read an unknown handle", httpRead(999, unsafe.Pointer(&buf[0]), 64, unsafe.Pointer(&n)))
	p("close an unknown handle", httpClose(999))
	p("error into a bad buffer", httpError(bad, 100, unsafe.Pointer(&n)))

	h, e = open("GET "+url+"\n", 0)
	p("open", e)
	p("read before wait", httpRead(h, unsafe.Pointer(&buf[0]), 64, unsafe.Pointer(&n)))
	p("head before wait", httpHead(h, unsafe.Pointer(&buf[0]), 64))
	p("write without a body", httpWrite(h, unsafe.Pointer(&buf[0]), 1))
	p("wait with a bad pointer", httpWait(h, bad))
	p("wait", httpWait(h, unsafe.Pointer(&n)))
	p("head into a short buffer", httpHead(h, unsafe.Pointer(&buf[0]), 1))
	p("head into a bad buffer", httpHead(h, bad, 1000))
	p("read into a bad buffer", httpRead(h, bad, 1000, unsafe.Pointer(&n)))
	p("read with a huge length", httpRead(h, unsafe.Pointer(&buf[0]), 0xffffffff, unsafe.Pointer(&n)))
	p("close", httpClose(h))
	p("close again", httpClose(h))

	h, e = open("POST "+url+"\n", 5)
	p("open with a body", e)
	p("write from a bad buffer", httpWrite(h, bad, 100))
	p("write", httpWrite(h, unsafe.Pointer(&buf[0]), 5))
	p("wait", httpWait(h, unsafe.Pointer(&n)))
	p("write after wait", httpWrite(h, unsafe.Pointer(&buf[0]), 5))
	// Left open: the host closes it when the process ends.
	for i := 0; i < 100; i++ {
		if _, e := open("GET "+url+"\n", -1); e != 0 {
			p("open many", e)
			break
		}
	}
	fmt.Println("done")
}
