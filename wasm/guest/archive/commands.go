package main

import (
	"github.com/wasmsand/wasmsand/wasm/guest/internal/bzip2"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/gzip"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tar"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/xz"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/zip"
)

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"gunzip":  gzip.Gunzip,
	"gzip":    gzip.Main,
	"tar":     tar.Main,
	"unzip":   zip.UnzipMain,
	"zcat":    gzip.Zcat,
	"zip":     zip.ZipMain,
	"xz":      xz.Xz,
	"unxz":    xz.Unxz,
	"xzcat":   xz.Xzcat,
	"lzma":    xz.Lzma,
	"unlzma":  xz.Unlzma,
	"lzcat":   xz.Lzcat,
	"bzip2":   bzip2.Bzip2,
	"bunzip2": bzip2.Bunzip2,
	"bzcat":   bzip2.Bzcat,
}
