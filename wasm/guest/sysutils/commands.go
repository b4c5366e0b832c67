package main

import (
	"github.com/wasmsand/wasmsand/wasm/guest/internal/basename"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/basenc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/bc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/cal"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/chmod"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/chown"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/cksum"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/clear"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/colrm"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/date"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/dd"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/df"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/dirname"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/dos2unix"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/du"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/env"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/envsubst"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/expr"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/factor"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/file"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/getconf"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/hashsum"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/hexdump"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/hostname"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/id"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/install"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/link"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/ln"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/look"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/mkfifo"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/mktemp"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/nice"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/nohup"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/nproc"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/numfmt"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/od"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/pager"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/pathchk"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/pr"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/printenv"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/printf"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/procps"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/pwd"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/readlink"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/realpath"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/rmdir"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/sponge"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/stat"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/strings"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/sum"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/syncfs"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/test"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/timecmd"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/timeout"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tree"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/truncate"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/ts"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tsort"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tty"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/uname"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/uuidgen"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/which"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/xxd"
)

// Commands maps each command name to its entry point.
var Commands = map[string]tool.MainFunc{
	"bc":      bc.Main,
	"file":    file.Main,
	"hexdump": hexdump.Main, "hd": hexdump.Canonical,
	"xxd":       xxd.Main,
	"timeout":   timeout.Main,
	"strings":   strings.Main,
	"od":        od.Main,
	"date":      date.Main,
	"base32":    basenc.Base32,
	"base64":    basenc.Base64,
	"chmod":     chmod.Main,
	"chown":     chown.Main,
	"chgrp":     chown.Chgrp,
	"cksum":     cksum.Main,
	"df":        df.Main,
	"du":        du.Main,
	"install":   install.Main,
	"md5sum":    hashsum.Md5sum,
	"sha1sum":   hashsum.Sha1sum,
	"sha256sum": hashsum.Sha256sum,
	"sha512sum": hashsum.Sha512sum,
	"sha224sum": hashsum.Sha224sum,
	"sha384sum": hashsum.Sha384sum,
	"b2sum":     hashsum.B2sum,
	"tree":      tree.Main,
	"envsubst":  envsubst.Main,
	"sum":       sum.Main,
	"factor":    factor.Main,
	"tsort":     tsort.Main,
	"nohup":     nohup.Main,
	"numfmt":    numfmt.Main,
	"more":      pager.More,
	"less":      pager.Less,
	"dos2unix":  dos2unix.Dos2unix,
	"unix2dos":  dos2unix.Unix2dos,
	"stat":      stat.Main,
	"[":         test.Bracket,
	"basename":  basename.Main,
	"dirname":   dirname.Main,
	"env":       env.Main,
	"expr":      expr.Main,
	"hostname":  hostname.Main,
	"id":        id.Main,
	"ln":        ln.Main,
	"mktemp":    mktemp.Main,
	"nproc":     nproc.Main,
	"printenv":  printenv.Main,
	"printf":    printf.Main,
	"readlink":  readlink.Main,
	"realpath":  realpath.Main,
	"rmdir":     rmdir.Main,
	"test":      test.Main,
	"truncate":  truncate.Main,
	"uname":     uname.Main,
	"whoami":    id.Whoami,
	"which":     which.Main,
	"basenc":    basenc.Basenc,
	"pwd":       pwd.Main,
	"link":      link.Link,
	"unlink":    link.Unlink,
	"sync":      syncfs.Main,
	"tty":       tty.Main,
	"arch":      uname.Arch,
	"groups":    id.Groups,
	"logname":   id.Logname,
	"pathchk":   pathchk.Main,
	"nice":      nice.Main,
	"sponge":    sponge.Main,
	"colrm":     colrm.Main,
	"look":      look.Main,
	"clear":     clear.Main,
	"ps":        procps.Ps,
	"kill":      procps.Kill,
	"pgrep":     procps.Pgrep,
	"pkill":     procps.Pkill,
	"pidof":     procps.Pidof,
	"free":      procps.Free,
	"uptime":    procps.Uptime,
	"time":      timecmd.Main,
	"ts":        ts.Main,
	"getconf":   getconf.Main,
	"dd":        dd.Main,
	"cal":       cal.Main,
	"mkfifo":    mkfifo.Main,
	"uuidgen":   uuidgen.Main,
	"pr":        pr.Main,
}
