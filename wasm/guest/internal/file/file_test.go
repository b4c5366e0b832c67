package file

import "testing"

func TestSniff(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "empty"},
		{"hello\n", "ASCII text"},
		{"hello", "ASCII text, with no line terminators"},
		{"a\r\nb\r\n", "ASCII text, with CRLF line terminators"},
		{"héllo\n", "Unicode text, UTF-8 text"},
		{"#!/bin/sh\necho\n", "POSIX shell script, ASCII text executable"},
		{"#!/usr/bin/env python3\n", "Python script, ASCII text executable"},
		{"\x00asm\x01\x00\x00\x00", "WebAssembly (wasm) binary module version 0x1 (MVP)"},
		{"%PDF-1.7\n", "PDF document, version 1.7"},
		{"GIF89a\x02\x00\x03\x00", "GIF image data, version 89a, 2 x 3"},
		{"\x00\x01\x02", "data"},
		{"{\"a\": [1, 2]}\n", "JSON text data"},
	}
	for _, tc := range tests {
		if got := Sniff([]byte(tc.in)).Desc; got != tc.want {
			t.Errorf("Sniff(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
