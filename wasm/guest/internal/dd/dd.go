// Package dd implements GNU dd: copy a file in blocks, converting it,
// with GNU's operands, block accounting and statistics.
package dd

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: dd [OPERAND]...
  or:  dd OPTION
Copy a file, converting and formatting according to the operands.

  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);
                  overrides ibs and obs
  cbs=BYTES       convert BYTES bytes at a time
  conv=CONVS      convert the file as per the comma separated symbol list
  count=N         copy only N input blocks
  ibs=BYTES       read up to BYTES bytes at a time (default: 512)
  if=FILE         read from FILE instead of stdin
  iflag=FLAGS     read as per the comma separated symbol list
  obs=BYTES       write BYTES bytes at a time (default: 512)
  of=FILE         write to FILE instead of stdout
  oflag=FLAGS     write as per the comma separated symbol list
  seek=N          (or oseek=N) skip N obs-sized output blocks
  skip=N          (or iseek=N) skip N ibs-sized input blocks
  status=LEVEL    The LEVEL of information to print to stderr;
                  'none' suppresses everything but error messages,
                  'noxfer' suppresses the final transfer statistics,
                  'progress' shows periodic transfer statistics

N and BYTES may be followed by the following multiplicative suffixes:
c=1, w=2, b=512, kB=1000, K=1024, MB=1000*1000, M=1024*1024, xM=M,
GB=1000*1000*1000, G=1024*1024*1024, and so on for T, P, E, Z, Y, R, Q.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
If N ends in 'B', it counts bytes not blocks.

Each CONV symbol may be:

  lcase     change upper case to lower case
  ucase     change lower case to upper case
  sparse    try to seek rather than write all-NUL output blocks
  swab      swap every pair of input bytes
  sync      pad every input block with NULs to ibs-size; when used
            with block or unblock, pad with spaces rather than NULs
  excl      fail if the output file already exists
  nocreat   do not create the output file
  notrunc   do not truncate the output file
  noerror   continue after read errors
  fdatasync  physically write output file data before finishing
  fsync     likewise, but also write metadata

Each FLAG symbol may be:

  append    append mode (makes sense only for output; conv=notrunc suggested)
  fullblock  accumulate full blocks of input (iflag only)
  count_bytes  treat 'count=N' as a byte count (iflag only)
  skip_bytes  treat 'skip=N' as a byte count (iflag only)
  seek_bytes  treat 'seek=N' as a byte count (oflag only)

Sending a USR1 signal to a running 'dd' process makes it
print I/O statistics to standard error and then resume copying.
`

var multipliers = map[string]int64{
	"": 1, "c": 1, "w": 2, "b": 512,
	"kB": 1000, "K": 1024, "KiB": 1024, "k": 1024,
	"MB": 1e6, "M": 1 << 20, "MiB": 1 << 20, "xM": 1 << 20,
	"GB": 1e9, "G": 1 << 30, "GiB": 1 << 30,
	"TB": 1e12, "T": 1 << 40, "TiB": 1 << 40,
	"PB": 1e15, "P": 1 << 50, "PiB": 1 << 50,
	"EB": 1e18, "E": 1 << 60, "EiB": 1 << 60,
}

// parseNumber reads N or BYTES: digits, an optional suffix, and 'x'
// products.
func parseNumber(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	total := int64(1)
	for _, part := range strings.Split(s, "x") {
		i := 0
		for i < len(part) && part[i] >= '0' && part[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(part[:i], 10, 64)
		m, ok := multipliers[part[i:]]
		if err != nil || !ok {
			return 0, false
		}
		if n != 0 && (m > (1<<62)/n || total > (1<<62)/(n*m)) {
			return 0, false
		}
		total *= n * m
	}
	return total, true
}

type conv struct {
	lcase, ucase, swab, sync, noerror, notrunc, excl, nocreat, fsync, sparse bool
}

// Main runs dd.
func Main(env *tool.Env) int {
	args := env.Args[1:]
	if len(args) == 1 && (args[0] == "--help" || args[0] == "--version") {
		if args[0] == "--help" {
			return env.Help(help)
		}
		return env.PrintVersion()
	}
	var (
		inName, outName           string
		ibs, obs                  int64 = 512, 512
		bsSet                     bool
		count                     int64 = -1
		skip, seek                int64
		c                         conv
		fullblock, countBytes     bool
		skipBytes, seekBytes, app bool
		status                    = "default"
	)
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	for _, a := range args {
		key, val, ok := strings.Cut(a, "=")
		if !ok {
			return env.Usage(1, "unrecognized operand %s", tool.Quote(a))
		}
		number := func() (int64, bool) {
			n, ok := parseNumber(val)
			if !ok {
				env.Errorf("invalid number: %s", tool.Quote(val))
			}
			return n, ok
		}
		switch key {
		case "if":
			inName = val
		case "of":
			outName = val
		case "bs", "ibs", "obs", "cbs":
			n, ok := number()
			if !ok {
				return 1
			}
			if n <= 0 {
				env.Errorf("invalid number: %s", tool.Quote(val))
				return 1
			}
			switch key {
			case "bs":
				ibs, obs, bsSet = n, n, true
			case "ibs":
				ibs = n
			case "obs":
				obs = n
			}
		case "count":
			n, ok := number()
			if !ok {
				return 1
			}
			count = n
		case "skip", "iseek":
			n, ok := number()
			if !ok {
				return 1
			}
			skip = n
		case "seek", "oseek":
			n, ok := number()
			if !ok {
				return 1
			}
			seek = n
		case "conv":
			for _, s := range strings.Split(val, ",") {
				switch s {
				case "lcase":
					c.lcase = true
				case "ucase":
					c.ucase = true
				case "swab":
					c.swab = true
				case "sync":
					c.sync = true
				case "noerror":
					c.noerror = true
				case "notrunc":
					c.notrunc = true
				case "excl":
					c.excl = true
				case "nocreat":
					c.nocreat = true
				case "fsync", "fdatasync":
					c.fsync = true
				case "sparse":
					c.sparse = true
				default:
					env.Errorf("invalid conversion: %s", tool.Quote(s))
					return env.Usage(1, "")
				}
			}
		case "iflag", "oflag":
			for _, s := range strings.Split(val, ",") {
				switch {
				case s == "fullblock" && key == "iflag":
					fullblock = true
				case s == "count_bytes" && key == "iflag":
					countBytes = true
				case s == "skip_bytes" && key == "iflag":
					skipBytes = true
				case s == "seek_bytes" && key == "oflag":
					seekBytes = true
				case s == "append" && key == "oflag":
					app = true
				case s == "direct", s == "dsync", s == "sync", s == "nonblock", s == "noatime", s == "nocache", s == "noctty", s == "nofollow", s == "binary", s == "text":
				default:
					env.Errorf("invalid input flag: %s", tool.Quote(s))
					if key == "oflag" {
						env.Errorf("invalid output flag: %s", tool.Quote(s))
					}
					return env.Usage(1, "")
				}
			}
		case "status":
			switch val {
			case "none", "noxfer", "progress":
				status = val
			default:
				env.Errorf("invalid status level: %s", tool.Quote(val))
				return env.Usage(1, "")
			}
		default:
			return env.Usage(1, "unrecognized operand %s", tool.Quote(a))
		}
	}
	if c.lcase && c.ucase {
		env.Errorf("cannot combine lcase and ucase")
		return 1
	}
	if c.excl && c.nocreat {
		env.Errorf("cannot combine excl and nocreat")
		return 1
	}
	start := time.Now()
	var in io.Reader = env.Stdin
	if inName != "" {
		f, err := os.Open(inName)
		if err != nil {
			env.Errorf("failed to open %s: %s", tool.Quote(inName), tool.Strerror(err))
			return 1
		}
		defer f.Close()
		in = f
	}
	var out io.Writer = env.Out()
	var outFile *os.File
	if outName != "" {
		flag := os.O_WRONLY
		if !c.nocreat {
			flag |= os.O_CREATE
		}
		if c.excl {
			flag |= os.O_EXCL
		}
		if app {
			flag |= os.O_APPEND
		}
		f, err := os.OpenFile(outName, flag, 0o666)
		if err != nil {
			env.Errorf("failed to open %s: %s", tool.Quote(outName), tool.Strerror(err))
			return 1
		}
		defer f.Close()
		outFile, out = f, f
		off := seek
		if !seekBytes {
			off *= obs
		}
		if !c.notrunc && !app {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				if err := f.Truncate(off); err != nil {
					env.Errorf("failed to truncate to %d bytes in output file %s: %s", off, tool.Quote(outName), tool.Strerror(err))
					return 1
				}
			}
		}
		if off > 0 {
			if _, err := f.Seek(off, io.SeekStart); err != nil {
				env.Errorf("%s: cannot seek: %s", tool.QuoteIfNeeded(outName), tool.Strerror(err))
				return 1
			}
		}
	} else if seek > 0 {
		// Skip output blocks of standard output by writing nothing: dd
		// cannot seek a pipe, and GNU reports it.
		env.Errorf("'standard output': cannot seek: Illegal seek")
		return 1
	}
	s := &stats{}
	code := 0
	// Skip input.
	skipBytesN := skip
	if !skipBytes {
		skipBytesN *= ibs
	}
	if skipBytesN > 0 {
		if sk, ok := in.(io.Seeker); ok && inName != "" {
			if _, err := sk.Seek(skipBytesN, io.SeekCurrent); err != nil {
				env.Errorf("%s: cannot skip: %s", tool.QuoteIfNeeded(inName), tool.Strerror(err))
				return 1
			}
		} else if n, err := io.CopyN(io.Discard, in, skipBytesN); err != nil && n < skipBytesN {
			name := "standard input"
			if inName != "" {
				name = inName
			}
			env.Errorf("%s: cannot skip to specified offset", tool.Quote(name))
		}
	}
	buf := make([]byte, ibs)
	var pending []byte
	var copied int64
	write := func(b []byte) error {
		n, err := out.Write(b)
		copied += int64(n)
		if int64(n) == obs {
			s.fullOut++
		} else if n > 0 {
			s.partOut++
		}
		return err
	}
	var readBytes int64
	for count < 0 || (countBytes && readBytes < count) || (!countBytes && s.fullIn+s.partIn < count) {
		want := ibs
		if countBytes && count-readBytes < want {
			want = count - readBytes
		}
		var n int
		var err error
		if fullblock {
			n, err = io.ReadFull(in, buf[:want])
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
		} else {
			n, err = in.Read(buf[:want])
			if n == 0 && err == nil {
				continue
			}
		}
		if n == 0 {
			if err != nil && err != io.EOF {
				env.Errorf("error reading %s: %s", readName(inName), tool.Strerror(err))
				code = 1
			}
			break
		}
		readBytes += int64(n)
		if int64(n) == ibs {
			s.fullIn++
		} else {
			s.partIn++
		}
		block := buf[:n]
		if c.sync && int64(n) < ibs {
			for i := n; i < int(ibs); i++ {
				buf[i] = 0
			}
			block = buf[:ibs]
		}
		block = convert(block, c)
		if bsSet {
			if err := write(block); err != nil {
				code = writeError(env, outName, err)
				break
			}
		} else {
			pending = append(pending, block...)
			for int64(len(pending)) >= obs {
				if err := write(pending[:obs]); err != nil {
					code = writeError(env, outName, err)
					break
				}
				pending = pending[obs:]
			}
			if code != 0 {
				break
			}
		}
		if err != nil && err != io.EOF {
			env.Errorf("error reading %s: %s", readName(inName), tool.Strerror(err))
			code = 1
			break
		}
		if fullblock && err == io.EOF {
			break
		}
	}
	if code == 0 && len(pending) > 0 {
		if err := write(pending); err != nil {
			code = writeError(env, outName, err)
		}
	}
	if outFile == nil {
		if err := env.Out().Flush(); err != nil && code == 0 {
			code = writeError(env, outName, err)
		}
	} else if c.fsync {
		outFile.Sync()
	}
	if status != "none" {
		s.report(env, copied, time.Since(start), status != "noxfer")
	}
	return code
}

func readName(name string) string {
	if name == "" {
		return "'standard input'"
	}
	return tool.Quote(name)
}

func writeError(env *tool.Env, name string, err error) int {
	if name == "" {
		name = "standard output"
	}
	env.Errorf("error writing %s: %s", tool.Quote(name), tool.Strerror(err))
	return 1
}

// convert applies the conversions that change bytes.
func convert(b []byte, c conv) []byte {
	if c.swab {
		for i := 0; i+1 < len(b); i += 2 {
			b[i], b[i+1] = b[i+1], b[i]
		}
	}
	if c.lcase {
		copy(b, bytes.ToLower(b))
	}
	if c.ucase {
		copy(b, bytes.ToUpper(b))
	}
	return b
}

type stats struct{ fullIn, partIn, fullOut, partOut int64 }

func (s *stats) report(env *tool.Env, n int64, d time.Duration, xfer bool) {
	var b strings.Builder
	fmt.Fprintf(&b, "%d+%d records in\n%d+%d records out\n", s.fullIn, s.partIn, s.fullOut, s.partOut)
	if xfer {
		secs := d.Seconds()
		rate := "Infinity B/s"
		if secs > 0 {
			rate = human(float64(n)/secs, 1000, "") + "B/s"
		}
		switch {
		case n == 1:
			fmt.Fprintf(&b, "1 byte copied, %s s, %s\n", strconv.FormatFloat(secs, 'g', 5, 64), rate)
		case n < 1000:
			fmt.Fprintf(&b, "%d bytes copied, %s s, %s\n", n, strconv.FormatFloat(secs, 'g', 5, 64), rate)
		case n < 1024:
			fmt.Fprintf(&b, "%d bytes (%sB) copied, %s s, %s\n", n, human(float64(n), 1000, ""), strconv.FormatFloat(secs, 'g', 5, 64), rate)
		default:
			fmt.Fprintf(&b, "%d bytes (%sB, %sB) copied, %s s, %s\n", n, human(float64(n), 1000, ""), human(float64(n), 1024, "i"),
				strconv.FormatFloat(secs, 'g', 5, 64), rate)
		}
	}
	env.Out().Flush()
	io.WriteString(env.Stderr, b.String())
}

// human writes v with an SI (base 1000) or IEC (base 1024, "i") prefix,
// as "1.5 k" or "10 M": one decimal below ten, none above.
func human(v, base float64, i string) string {
	prefixes := []string{"", "k", "M", "G", "T", "P", "E"}
	p := 0
	for v >= base && p < len(prefixes)-1 {
		v /= base
		p++
	}
	pre := prefixes[p]
	if base == 1024 && pre == "k" {
		pre = "K"
	}
	if p > 0 {
		pre += i
	}
	if v < 10 && p > 0 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " " + pre
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " " + pre
}
