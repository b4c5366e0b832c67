// Package hashsum implements md5sum, sha1sum, sha224sum, sha256sum,
// sha384sum, sha512sum and b2sum:
// print or check message digests, in GNU's formats (plain, --tag, and the
// backslash escaping of awkward file names).
package hashsum

import (
	"bufio"

	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strconv"
	"strings"

	"golang.org/x/crypto/blake2b"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// Algorithm is one digest: its command name, the name --tag prints and its
// constructor.
type Algorithm struct {
	Command string
	Tag     string
	New     func() hash.Hash
}

// The algorithms the commands offer.
var (
	MD5    = &Algorithm{"md5sum", "MD5", md5.New}
	SHA1   = &Algorithm{"sha1sum", "SHA1", sha1.New}
	SHA224 = &Algorithm{"sha224sum", "SHA224", sha256.New224}
	SHA256 = &Algorithm{"sha256sum", "SHA256", sha256.New}
	SHA384 = &Algorithm{"sha384sum", "SHA384", sha512.New384}
	SHA512 = &Algorithm{"sha512sum", "SHA512", sha512.New}
	BLAKE2 = blake2(512)
)

// blake2 is BLAKE2b with a digest of bits bits, as b2sum -l sets it.
func blake2(bits int) *Algorithm {
	tag := "BLAKE2b"
	if bits != 512 {
		tag += "-" + strconv.Itoa(bits)
	}
	return &Algorithm{"b2sum", tag, func() hash.Hash {
		h, _ := blake2b.New(bits/8, nil)
		return h
	}}
}

// Sha224sum runs sha224sum.
func Sha224sum(env *tool.Env) int { return run(env, SHA224) }

// Sha384sum runs sha384sum.
func Sha384sum(env *tool.Env) int { return run(env, SHA384) }

// B2sum runs b2sum.
func B2sum(env *tool.Env) int { return run(env, BLAKE2) }

// Md5sum runs md5sum.
func Md5sum(env *tool.Env) int { return run(env, MD5) }

// Sha1sum runs sha1sum.
func Sha1sum(env *tool.Env) int { return run(env, SHA1) }

// Sha256sum runs sha256sum.
func Sha256sum(env *tool.Env) int { return run(env, SHA256) }

// Sha512sum runs sha512sum.
func Sha512sum(env *tool.Env) int { return run(env, SHA512) }

func spec(a *Algorithm) *tool.Spec {
	sp := &tool.Spec{
		Options: []tool.Option{
			{Short: 'b', Long: "binary"},
			{Short: 'c', Long: "check"},
			{Long: "tag"},
			{Short: 't', Long: "text"},
			{Short: 'z', Long: "zero"},
			{Long: "ignore-missing"},
			{Long: "quiet"},
			{Long: "status"},
			{Long: "strict"},
			{Short: 'w', Long: "warn"},
		},
		Help: `Usage: ` + a.Command + ` [OPTION]... [FILE]...
Print or check ` + a.Tag + ` checksums.

With no FILE, or when FILE is -, read standard input.

  -b, --binary         read in binary mode
  -c, --check          read checksums from the FILEs and check them
      --tag            create a BSD-style checksum
  -t, --text           read in text mode (default)
  -z, --zero           end each output line with NUL, not newline,
                       and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet          don't print OK for each successfully verified file
      --status         don't output anything, status code shows success
      --strict         exit non-zero for improperly formatted checksum lines
  -w, --warn           warn about improperly formatted checksum lines

      --help        display this help and exit
      --version     output version information and exit
`,
	}
	if a.Command == "b2sum" {
		sp.Options = append(sp.Options, tool.Option{Short: 'l', Long: "length", Arg: tool.RequiredArg})
		sp.Help = strings.Replace(sp.Help, "  -c, --check          read checksums from the FILEs and check them\n",
			"  -c, --check          read checksums from the FILEs and check them\n  -l, --length=BITS    digest length in bits; must not exceed the max for\n                         the blake2 algorithm and must be a multiple of 8\n", 1)
	}
	return sp
}

// Options are the settings shared by the digest commands and cksum.
type Options struct {
	Binary, Check, Tag, Zero                   bool
	IgnoreMissing, Quiet, Status, Strict, Warn bool
}

func run(env *tool.Env, a *Algorithm) int {
	flags, files, code, done := spec(a).Parse(env)
	if done {
		return code
	}
	var o Options
	for _, f := range flags {
		switch f.Name {
		case "b":
			o.Binary = true
		case "t":
			o.Binary = false
		case "c":
			o.Check = true
		case "tag":
			o.Tag = true
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
			bits, err := strconv.Atoi(f.Arg)
			if err != nil || bits < 0 || bits > 512 {
				env.Errorf("invalid length: %s", tool.Quote(f.Arg))
				if err == nil {
					env.Errorf("maximum digest length for %s is 512 bits", tool.Quote("BLAKE2b"))
				}
				return 1
			}
			if bits%8 != 0 {
				env.Errorf("invalid length: %s", tool.Quote(f.Arg))
				env.Errorf("length is not a multiple of 8")
				return 1
			}
			if bits == 0 {
				bits = 512
			}
			a = blake2(bits)
		}
	}
	if o.Tag && o.Check {
		env.Errorf("the --tag option is meaningless when verifying checksums")
		return env.Usage(1, "")
	}
	if !o.Check && (o.IgnoreMissing || o.Quiet || o.Status || o.Strict || o.Warn) {
		opt := "--warn"
		switch {
		case o.IgnoreMissing:
			opt = "--ignore-missing"
		case o.Quiet:
			opt = "--quiet"
		case o.Status:
			opt = "--status"
		case o.Strict:
			opt = "--strict"
		}
		env.Errorf("the %s option is meaningful only when verifying checksums", opt)
		return env.Usage(1, "")
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if o.Check {
		return Check(env, files, &o, func(tag string) *Algorithm {
			if tag == "" || tag == a.Tag {
				return a
			}
			if a.Command == "b2sum" && strings.HasPrefix(tag, "BLAKE2b-") {
				if bits, err := strconv.Atoi(tag[len("BLAKE2b-"):]); err == nil && bits > 0 && bits <= 512 && bits%8 == 0 {
					return blake2(bits)
				}
			}
			return nil
		})
	}
	status := 0
	for _, name := range files {
		sum, err := Sum(env, name, a.New())
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			status = 1
			continue
		}
		WriteLine(env.Out(), a.Tag, hex.EncodeToString(sum), name, &o)
	}
	return status
}

// Sum digests the named file ("-" is standard input).
func Sum(env *tool.Env, name string, h hash.Hash) ([]byte, error) {
	r, err := env.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if _, err := io.Copy(h, r); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// WriteLine prints one checksum line: "SUM  NAME", "SUM *NAME" in binary
// mode, or "TAG (NAME) = SUM" with --tag. A name holding a newline or
// backslash is escaped and the line starts with a backslash, unless -z.
func WriteLine(w *bufio.Writer, tag, sum, name string, o *Options) {
	escaped := false
	if !o.Zero && strings.ContainsAny(name, "\\\n\r") {
		escaped = true
		name = strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\r", "\\r").Replace(name)
	}
	if escaped {
		w.WriteByte('\\')
	}
	if o.Tag {
		fmt.Fprintf(w, "%s (%s) = %s", tag, name, sum)
	} else {
		w.WriteString(sum)
		if o.Binary {
			w.WriteString(" *")
		} else {
			w.WriteString("  ")
		}
		w.WriteString(name)
	}
	if o.Zero {
		w.WriteByte(0)
	} else {
		w.WriteByte('\n')
	}
}

// Check verifies the checksum lists in files. algo maps a --tag line's
// algorithm name (or "" for an untagged line) to its Algorithm, or nil if
// the line is not for this command.
func Check(env *tool.Env, files []string, o *Options, algo func(tag string) *Algorithm) int {
	status := 0
	w := env.Out()
	for _, list := range files {
		r, err := env.Open(list)
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(list), tool.Strerror(err))
			status = 1
			continue
		}
		var bad, failedOpen, mismatched, good int
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<24)
		lineNo := 0
		for sc.Scan() {
			lineNo++
			line := sc.Text()
			if strings.HasPrefix(line, "#") {
				continue
			}
			a, want, name, ok := parseLine(line, algo)
			if !ok {
				bad++
				if o.Warn {
					env.Errorf("%s: %d: improperly formatted %s checksum line", tool.QuoteIfNeeded(list), lineNo, algoTag(algo))
				}
				continue
			}
			sum, err := Sum(env, name, a.New())
			if err != nil {
				if o.IgnoreMissing && tool.Strerror(err) == "No such file or directory" {
					continue
				}
				env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
				failedOpen++
				if !o.Status {
					fmt.Fprintf(w, "%s: FAILED open or read\n", name)
				}
				continue
			}
			if hex.EncodeToString(sum) == strings.ToLower(want) {
				good++
				if !o.Quiet && !o.Status {
					fmt.Fprintf(w, "%s: OK\n", name)
				}
			} else {
				mismatched++
				if !o.Status {
					fmt.Fprintf(w, "%s: FAILED\n", name)
				}
			}
		}
		r.Close()
		if good == 0 && mismatched == 0 && failedOpen == 0 {
			if !o.IgnoreMissing || bad > 0 || lineNo == 0 {
				env.Errorf("%s: no properly formatted checksum lines found", tool.QuoteIfNeeded(list))
			} else {
				env.Errorf("%s: no file was verified", tool.QuoteIfNeeded(list))
			}
			status = 1
			continue
		}
		if !o.Status {
			plural := func(n int, one, many string) string {
				if n == 1 {
					return one
				}
				return many
			}
			if bad > 0 {
				env.Errorf("WARNING: %d %s improperly formatted", bad, plural(bad, "line is", "lines are"))
			}
			if failedOpen > 0 {
				env.Errorf("WARNING: %d listed %s could not be read", failedOpen, plural(failedOpen, "file", "files"))
			}
			if mismatched > 0 {
				env.Errorf("WARNING: %d computed %s did NOT match", mismatched, plural(mismatched, "checksum", "checksums"))
			}
		}
		if mismatched > 0 || failedOpen > 0 || o.Strict && bad > 0 {
			status = 1
		}
	}
	return status
}

func algoTag(algo func(string) *Algorithm) string {
	if a := algo(""); a != nil {
		return a.Tag
	}
	return "checksum"
}

// parseLine reads "SUM  NAME", "SUM *NAME" or "TAG (NAME) = SUM".
func parseLine(line string, algo func(string) *Algorithm) (a *Algorithm, sum, name string, ok bool) {
	escaped := strings.HasPrefix(line, "\\")
	if escaped {
		line = line[1:]
	}
	unescape := func(s string) string {
		if !escaped {
			return s
		}
		return strings.NewReplacer("\\\\", "\\", "\\n", "\n", "\\r", "\r").Replace(s)
	}
	if i := strings.Index(line, " ("); i > 0 {
		if j := strings.LastIndex(line, ") = "); j > i {
			if a = algo(line[:i]); a != nil {
				sum = line[j+4:]
				if isHex(sum, a) {
					return a, sum, unescape(line[i+2 : j]), true
				}
			}
		}
	}
	a = algo("")
	if a == nil {
		return nil, "", "", false
	}
	i := strings.IndexByte(line, ' ')
	if i <= 0 || i+2 > len(line) || (line[i+1] != ' ' && line[i+1] != '*') {
		return nil, "", "", false
	}
	sum = line[:i]
	if a.Command == "b2sum" && len(sum)%2 == 0 && len(sum) > 0 && len(sum) <= 128 {
		// b2sum tells the digest length from the checksum's.
		a = blake2(len(sum) * 4)
	}
	if !isHex(sum, a) {
		return nil, "", "", false
	}
	return a, sum, unescape(line[i+2:]), true
}

func isHex(s string, a *Algorithm) bool {
	if len(s) != a.New().Size()*2 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
