// Package cksum implements cksum: print or check CRC (POSIX), BSD and
// System V checksums, and the md5/sha digests with -a.
package cksum

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/hashsum"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "algorithm", Arg: tool.RequiredArg},
		{Short: 'c', Long: "check"},
		{Short: 'l', Long: "length", Arg: tool.RequiredArg},
		{Long: "tag"},
		{Long: "untagged"},
		{Short: 'z', Long: "zero"},
		{Long: "ignore-missing"},
		{Long: "quiet"},
		{Long: "status"},
		{Long: "strict"},
		{Short: 'w', Long: "warn"},
		{Long: "debug"},
	},
	Help: `Usage: cksum [OPTION]... [FILE]...
Print or verify checksums.
By default use the 32 bit CRC algorithm.

With no FILE, or when FILE is -, read standard input.

  -a, --algorithm=TYPE  select the digest type to use.  See DIGEST below.
  -c, --check           read checksums from the FILEs and check them
      --tag             create a BSD-style checksum (the default)
      --untagged        create a reversed style checksum, without digest type
  -z, --zero            end each output line with NUL, not newline,
                          and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet           don't print OK for each successfully verified file
      --status          don't output anything, status code shows success
      --strict          exit non-zero for improperly formatted checksum lines
  -w, --warn            warn about improperly formatted checksum lines

      --help        display this help and exit
      --version     output version information and exit

DIGEST determines the digest algorithm and default output format:
  sysv      (equivalent to sum -s)
  bsd       (equivalent to sum -r)
  crc       (equivalent to cksum)
  md5       (equivalent to md5sum)
  sha1      (equivalent to sha1sum)
  sha256    (equivalent to sha256sum)
  sha512    (equivalent to sha512sum)
`}

var digests = map[string]*hashsum.Algorithm{
	"md5": hashsum.MD5, "sha1": hashsum.SHA1, "sha224": hashsum.SHA224, "sha256": hashsum.SHA256,
	"sha384": hashsum.SHA384, "sha512": hashsum.SHA512,
}

// Main runs cksum.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	algo, explicit := "crc", false
	var o hashsum.Options
	o.Tag = true
	for _, f := range flags {
		switch f.Name {
		case "a":
			switch f.Arg {
			case "crc", "sysv", "bsd", "md5", "sha1", "sha224", "sha256", "sha384", "sha512":
				algo, explicit = f.Arg, true
			default:
				env.Errorf("invalid argument %s for '--algorithm'", tool.Quote(f.Arg))
				fmt.Fprintf(env.Stderr, "Valid arguments are:\n")
				for _, a := range []string{"bsd", "sysv", "crc", "md5", "sha1", "sha224", "sha256", "sha384", "sha512"} {
					fmt.Fprintf(env.Stderr, "  - '%s'\n", a)
				}
				return env.Usage(1, "")
			}
		case "c":
			o.Check = true
		case "tag":
			o.Tag = true
		case "untagged":
			o.Tag = false
		case "z":
			o.Zero = true
		case "ignore-missing":
			o.IgnoreMissing = true
		case "quiet":
			o.Quiet = true
		case "status":
			o.Status = true
		case "strict":
			o.Strict = true
		case "w":
			o.Warn = true
		case "l":
			env.Errorf("--length is only supported with --algorithm=blake2b")
			return 1
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if o.Check {
		if explicit && (algo == "crc" || algo == "sysv" || algo == "bsd") {
			env.Errorf("--check is not supported with --algorithm={bsd,sysv,crc}")
			return 1
		}
		return hashsum.Check(env, files, &o, func(tag string) *hashsum.Algorithm {
			if tag == "" {
				return digests[algo]
			}
			for _, a := range digests {
				if a.Tag == tag {
					return a
				}
			}
			return nil
		})
	}
	status := 0
	w := env.Out()
	for _, name := range files {
		r, err := env.Open(name)
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			status = 1
			continue
		}
		err = one(w, r, algo, name, &o)
		r.Close()
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			status = 1
		}
	}
	return status
}

func one(w *bufio.Writer, r io.Reader, algo, name string, o *hashsum.Options) error {
	if a, ok := digests[algo]; ok {
		h := a.New()
		if _, err := io.Copy(h, r); err != nil {
			return err
		}
		hashsum.WriteLine(w, a.Tag, hex.EncodeToString(h.Sum(nil)), name, o)
		return nil
	}
	var line string
	switch algo {
	case "crc":
		crc, n, err := CRC(r)
		if err != nil {
			return err
		}
		line = fmt.Sprintf("%d %d", crc, n)
	case "sysv":
		sum, n, err := SysV(r)
		if err != nil {
			return err
		}
		line = fmt.Sprintf("%d %d", sum, (n+511)/512)
	case "bsd":
		sum, n, err := BSD(r)
		if err != nil {
			return err
		}
		line = fmt.Sprintf("%05d %5d", sum, (n+1023)/1024)
	}
	if name != "-" {
		line += " " + name
	}
	w.WriteString(line)
	if o.Zero {
		w.WriteByte(0)
	} else {
		w.WriteByte('\n')
	}
	return nil
}

var crcTable = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i) << 24
		for j := 0; j < 8; j++ {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// CRC computes the POSIX cksum CRC of r and its length.
func CRC(r io.Reader) (uint32, int64, error) {
	var crc uint32
	var n int64
	buf := make([]byte, 64<<10)
	for {
		m, err := r.Read(buf)
		for _, b := range buf[:m] {
			crc = crc<<8 ^ crcTable[byte(crc>>24)^b]
		}
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, err
		}
	}
	for l := n; l > 0; l >>= 8 {
		crc = crc<<8 ^ crcTable[byte(crc>>24)^byte(l)]
	}
	return ^crc, n, nil
}

// SysV computes the System V sum of r (sum -s) and its length.
func SysV(r io.Reader) (uint32, int64, error) {
	var s uint64
	var n int64
	buf := make([]byte, 64<<10)
	for {
		m, err := r.Read(buf)
		for _, b := range buf[:m] {
			s += uint64(b)
		}
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, err
		}
	}
	r2 := (s & 0xffff) + (s&0xffffffff)>>16
	return uint32((r2 & 0xffff) + (r2 >> 16)), n, nil
}

// BSD computes the BSD sum of r (sum -r) and its length.
func BSD(r io.Reader) (uint32, int64, error) {
	var s uint32
	var n int64
	buf := make([]byte, 64<<10)
	for {
		m, err := r.Read(buf)
		for _, b := range buf[:m] {
			s = (s >> 1) + (s&1)<<15
			s = (s + uint32(b)) & 0xffff
		}
		n += int64(m)
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, err
		}
	}
	return s, n, nil
}
