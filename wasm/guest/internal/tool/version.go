package tool

import (
	"fmt"
	"strings"
)

// The upstream versions whose behaviour the commands follow: --version
// names the program as its upstream does, with these numbers, and a
// second line says that this is wasmsand's implementation.
const (
	coreutils = "%s (GNU coreutils) 9.1"
	utilLinux = "%s from util-linux 2.38.1"
	procpsNG  = "%s from procps-ng 4.0.2"
	xzUtils   = "xz (XZ Utils) 5.4.1"
)

// upstream is each command's first --version line, %s standing for the
// command's name, for the commands whose upstream is not GNU coreutils.
var upstream = map[string]string{
	"cmp": "%s (GNU diffutils) 3.8", "diff": "%s (GNU diffutils) 3.8",
	"find": "%s (GNU findutils) 4.9.0", "xargs": "%s (GNU findutils) 4.9.0",
	"grep": "grep (GNU grep) 3.8", "egrep": "grep (GNU grep) 3.8", "fgrep": "grep (GNU grep) 3.8",
	"sed":   "%s (GNU sed) 4.9",
	"patch": "GNU patch 2.7.6",
	"gzip":  "gzip 1.12", "gunzip": "%s (gzip) 1.12", "zcat": "%s (gzip) 1.12",
	"xz": xzUtils, "unxz": xzUtils, "xzcat": xzUtils, "lzma": xzUtils, "unlzma": xzUtils, "lzcat": xzUtils,
	"tar":   "tar (GNU tar) 1.34",
	"colrm": utilLinux, "column": utilLinux, "hd": utilLinux, "hexdump": utilLinux, "look": utilLinux,
	"more": utilLinux, "rev": utilLinux, "uuidgen": utilLinux,
	"free": procpsNG, "kill": procpsNG, "pgrep": procpsNG, "pkill": procpsNG, "ps": procpsNG,
	"uptime": procpsNG, "pidof": procpsNG,
	"strings":  "GNU strings (GNU Binutils) 2.40",
	"getconf":  "getconf (GNU libc) 2.36",
	"iconv":    "iconv (GNU libc) 2.36",
	"hostname": "hostname 3.23",
	"file":     "file-5.44",
	"bc":       "bc 1.07.1",
	// Upstreams without --version: named as wasmsand's own.
	"which": "%s (wasmsand) " + Version, "ts": "%s (wasmsand) " + Version,
	"sponge": "%s (wasmsand) " + Version, "cal": "%s (wasmsand) " + Version,
	"clear":   "%s (wasmsand) " + Version,
	"time":    "time (GNU Time) 1.9",
	"xxd":     "xxd 2022-01-14 by Juergen Weigert et al.",
	"bzip2":   "bzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.",
	"bunzip2": "bzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.",
	"bzcat":   "bzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.",
	"dd":      "dd (coreutils) 9.1",
}

// VersionLine is the first line of name's --version answer.
func VersionLine(name string) string {
	f, ok := upstream[name]
	if !ok {
		f = coreutils
	}
	if strings.Contains(f, "%s") {
		return fmt.Sprintf(f, name)
	}
	return f
}

// PrintVersion prints the --version answer and returns 0: the upstream
// program's first line, then this implementation's.
func (e *Env) PrintVersion() int {
	w := e.Out()
	fmt.Fprintf(w, "%s\nwasmsand %s: a reimplementation in Go, not the upstream program.\n", VersionLine(e.Name()), Version)
	w.Flush()
	return 0
}
