// Package patch implements the patch command: apply a unified, context or
// normal diff to files, finding each hunk at an offset or with fuzz when
// the file has moved on, and saving the hunks that fail to a .rej file,
// as GNU patch does.
package patch

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

const help = `Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]

Input options:

  -p NUM  --strip=NUM  Strip NUM leading components from file names.
  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching.
  -l  --ignore-whitespace  Ignore white space changes between patch and input.

  -c  --context  Interpret the patch as a context difference.
  -n  --normal  Interpret the patch as a normal difference.
  -u  --unified  Interpret the patch as a unified difference.

  -N  --forward  Ignore patches that appear to be reversed or already applied.
  -R  --reverse  Assume patches were created with old and new files swapped.

  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.

Output options:

  -o FILE  --output=FILE  Output patched files to FILE.
  -r FILE  --reject-file=FILE  Output rejects to FILE.

  -E  --remove-empty-files  Remove output files that are empty after patching.

  -s  --quiet  --silent  Work silently unless an error occurs.
  --verbose  Output extra information about the work being done.
  --dry-run  Do not actually change any files; just print what would happen.

Backup and version control options:

  -b  --backup  Back up the original contents of each file.
  --backup-if-mismatch  Back up if the patch does not match exactly.
  --no-backup-if-mismatch  Back up mismatches only if otherwise requested.

Miscellaneous options:

  -t  --batch  Ask no questions; skip bad-Prereq patches; assume reversed.
  -f  --force  Like -t, but ignore bad-Prereq patches, and assume unreversed.
  -d DIR  --directory=DIR  Change the working directory to DIR first.

  -v  --version  Output version info.
  --help  Output this help.
`

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'p', Long: "strip", Arg: tool.RequiredArg},
		{Short: 'F', Long: "fuzz", Arg: tool.RequiredArg},
		{Short: 'l', Long: "ignore-whitespace"},
		{Short: 'c', Long: "context"},
		{Short: 'n', Long: "normal"},
		{Short: 'u', Long: "unified"},
		{Short: 'N', Long: "forward"},
		{Short: 'R', Long: "reverse"},
		{Short: 'i', Long: "input", Arg: tool.RequiredArg},
		{Short: 'o', Long: "output", Arg: tool.RequiredArg},
		{Short: 'r', Long: "reject-file", Arg: tool.RequiredArg},
		{Short: 'E', Long: "remove-empty-files"},
		{Short: 's', Long: "quiet"},
		{Long: "silent"},
		{Long: "verbose"},
		{Long: "dry-run"},
		{Short: 'b', Long: "backup"},
		{Long: "backup-if-mismatch"},
		{Long: "no-backup-if-mismatch"},
		{Short: 't', Long: "batch"},
		{Short: 'f', Long: "force"},
		{Short: 'd', Long: "directory", Arg: tool.RequiredArg},
		{Short: 'v'},
	},
	Help:      help,
	UsageExit: 2,
}

// options are the settings of one patch run.
type options struct {
	strip          int // -1: not given, use base names
	fuzz           int
	ignoreSpace    bool
	forward        bool
	reverse        bool
	output         string
	rejectFile     string
	removeEmpty    bool
	quiet          bool
	verbose        bool
	dryRun         bool
	backup         bool
	backupMismatch bool
	force          bool
}

// Main runs patch.
func Main(env *tool.Env) int {
	flags, ops, code, done := parse(env, &spec)
	if done {
		return code
	}
	o := &options{strip: -1, fuzz: 2, backupMismatch: true}
	input := ""
	for _, f := range flags {
		switch f.Name {
		case "p":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 0 {
				env.Errorf("**** strip count %s is not a number", f.Arg)
				return 2
			}
			o.strip = n
		case "F":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 0 {
				env.Errorf("**** fuzz factor %s is not a number", f.Arg)
				return 2
			}
			o.fuzz = n
		case "l":
			o.ignoreSpace = true
		case "N":
			o.forward = true
		case "R":
			o.reverse = true
		case "i":
			input = f.Arg
		case "o":
			o.output = f.Arg
		case "r":
			o.rejectFile = f.Arg
		case "E":
			o.removeEmpty = true
		case "s", "silent":
			o.quiet = true
		case "verbose":
			o.verbose = true
		case "dry-run":
			o.dryRun = true
		case "b":
			o.backup = true
		case "backup-if-mismatch":
			o.backupMismatch = true
		case "no-backup-if-mismatch":
			o.backupMismatch = false
		case "f", "t":
			o.force = f.Name == "f"
		case "d":
			if err := os.Chdir(f.Arg); err != nil {
				env.Errorf("**** Can't change to directory %s : %s", f.Arg, tool.Strerror(err))
				return 2
			}
		case "v":
			return env.PrintVersion()
		}
	}
	if len(ops) > 2 {
		return usage(env, "extra operand %s", tool.Quote(ops[2]))
	}
	target := ""
	if len(ops) > 0 {
		target = ops[0]
	}
	if len(ops) > 1 {
		input = ops[1]
	}
	var data []byte
	var err error
	if input == "" || input == "-" {
		data, err = io.ReadAll(env.Stdin)
	} else {
		data, err = os.ReadFile(input)
	}
	if err != nil {
		name := input
		if name == "" {
			name = "-"
		}
		env.Errorf("**** Can't open patch file %s : %s", name, tool.Strerror(err))
		return 2
	}
	r := &run{env: env, o: o, w: env.Out()}
	return r.all(newParser(data), target)
}

// parse parses the command line; mistakes are reported with the "patch: "
// prefix on the "Try" line too, as patch does.
func parse(env *tool.Env, spec *tool.Spec) (flags []tool.Flag, ops []string, code int, done bool) {
	var msg bytes.Buffer
	sub := *env
	sub.Stderr = &msg
	flags, ops, code, done = spec.Parse(&sub)
	if !done {
		return flags, ops, 0, false
	}
	if code == 0 {
		sub.Out().Flush()
		return nil, nil, 0, true
	}
	for _, l := range strings.SplitAfter(msg.String(), "\n") {
		if strings.HasPrefix(l, "Try ") {
			l = env.Name() + ": " + l
		}
		io.WriteString(env.Stderr, l)
	}
	return nil, nil, code, true
}

func usage(env *tool.Env, format string, a ...any) int {
	env.Errorf(format, a...)
	env.Errorf("Try '%s --help' for more information.", env.Name())
	return 2
}

// run applies one patch input.
type run struct {
	env    *tool.Env
	o      *options
	w      *bufio.Writer
	status int
}

func (r *run) say(format string, a ...any) {
	if !r.o.quiet {
		fmt.Fprintf(r.w, format, a...)
	}
}

func (r *run) fail(code int) {
	if code > r.status {
		r.status = code
	}
}

func (r *run) all(p *parser, target string) int {
	n := 0
	for {
		fp, err := p.next()
		if err != nil {
			if fp != nil && fp.kind != kindNormal {
				// GNU patch has begun on the file when it meets the bad hunk.
				if name, _, _ := r.resolve(fp, target); name != "" {
					r.say("patching file %s\n", name)
				}
			}
			r.w.Flush()
			var m *malformed
			if errors.As(err, &m) {
				fmt.Fprintf(r.env.Stderr, "%s: **** malformed patch at line %d: %s\n", r.env.Name(), m.line, m.text)
			} else {
				r.env.Errorf("**** %v", err)
			}
			return 2
		}
		if fp == nil {
			break
		}
		n++
		r.file(fp, target)
		if r.status == 2 {
			return 2
		}
	}
	if n == 0 {
		r.w.Flush()
		r.env.Errorf("**** Only garbage was found in the patch input.")
		return 2
	}
	return r.status
}

// stripName removes n leading components from a file name; n < 0 keeps
// only the base name, as patch does without -p.
func stripName(name string, n int) string {
	if name == "" || name == "/dev/null" {
		return name
	}
	if n < 0 {
		return path.Base(name)
	}
	for ; n > 0; n-- {
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return ""
		}
		name = strings.TrimLeft(name[i+1:], "/")
	}
	return name
}

func exists(name string) bool {
	if name == "" {
		return false
	}
	_, err := os.Stat(name)
	return err == nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// resolve picks the file a diff applies to, and says whether the diff
// creates or deletes it.
func (r *run) resolve(fp *filePatch, target string) (name string, creating, deleting bool) {
	o := r.o
	oldName, newName := fp.oldName, fp.newName
	oldEpoch, newEpoch := fp.oldEpoch, fp.newEpoch
	if o.reverse {
		oldName, newName = newName, oldName
		oldEpoch, newEpoch = newEpoch, oldEpoch
	}
	creating = oldName == "/dev/null" || oldEpoch
	deleting = newName == "/dev/null" || newEpoch
	if target != "" {
		return target, creating, deleting
	}
	so, sn, si := stripName(oldName, o.strip), stripName(newName, o.strip), stripName(fp.indexName, o.strip)
	switch {
	case creating && sn != "/dev/null":
		return sn, creating, deleting
	case deleting:
		return so, creating, deleting
	case exists(so):
		return so, false, false
	case exists(sn):
		return sn, false, false
	case exists(si):
		return si, false, false
	}
	return "", false, false
}

// file applies the diff of one file.
func (r *run) file(fp *filePatch, target string) {
	o := r.o
	if o.reverse {
		for _, h := range fp.hunks {
			h.oldFirst, h.newFirst = h.newFirst, h.oldFirst
			h.oldLen, h.newLen = h.newLen, h.oldLen
			for i := range h.ops {
				switch h.ops[i].kind {
				case '+':
					h.ops[i].kind = '-'
				case '-':
					h.ops[i].kind = '+'
				}
			}
		}
	}
	name, creating, deleting := r.resolve(fp, target)
	nh := len(fp.hunks)
	if name == "" || (!creating && !exists(name) && target == "") {
		r.say("can't find file to patch at input line %d\n", fp.hunkLine)
		if len(fp.leading) > 0 {
			r.say("Perhaps you used the wrong -p or --strip option?\nThe text leading up to this was:\n--------------------------\n")
			for _, h := range fp.leading {
				r.say("|%s", h)
			}
			r.say("--------------------------\n")
		}
		r.say("File to patch: \nSkip this patch? [y] \nSkipping patch.\n%d out of %d %s ignored\n", nh, nh, plural(nh, "hunk"))
		r.fail(1)
		return
	}
	if !creating && !exists(name) {
		// A file named on the command line that is not there: every
		// hunk fails against nothing, then patch gives up.
		r.say("patching file %s\n", name)
		r.apply(fp, nil)
		r.w.Flush()
		r.env.Errorf("**** Can't reopen file %s : %s", name, tool.Strerror(os.ErrNotExist))
		r.fail(2)
		return
	}
	var orig []byte
	origExists := false
	if data, err := os.ReadFile(name); err == nil {
		orig, origExists = data, true
	} else if !creating {
		r.w.Flush()
		r.env.Errorf("**** Can't open file %s : %s", name, tool.Strerror(err))
		r.fail(2)
		return
	}
	if creating && origExists && len(orig) > 0 {
		r.say("The next patch would create the file %s,\nwhich already exists!  ", name)
		r.skip(fp, name, nh, true)
		return
	}
	if deleting && !origExists {
		r.say("The next patch would delete the file %s,\nwhich does not exist!  ", name)
		r.skip(fp, name, nh, true)
		return
	}
	verb := "patching"
	if o.dryRun {
		verb = "checking"
	}
	if o.output != "" && o.output != name {
		r.say("%s file %s (read from %s)\n", verb, o.output, name)
	} else {
		r.say("%s file %s\n", verb, name)
	}
	lines := splitLines(orig)
	out, rejects, mismatch, reversed := r.apply(fp, lines)
	if reversed {
		if o.reverse {
			r.say("Unreversed patch detected!  ")
		} else {
			r.say("Reversed (or previously applied) patch detected!  ")
		}
		r.skip(fp, name, nh, false)
		return
	}
	if len(rejects) > 0 {
		mismatch = true
	}
	if !o.dryRun {
		r.write(name, orig, origExists, out, mismatch, deleting)
	}
	if len(rejects) > 0 {
		rej := r.rejName(name)
		if o.dryRun {
			r.say("%d out of %d %s FAILED\n", len(rejects), nh, plural(nh, "hunk"))
		} else {
			r.say("%d out of %d %s FAILED -- saving rejects to file %s\n", len(rejects), nh, plural(nh, "hunk"), rej)
			r.writeRejects(rej, fp, rejects)
		}
		r.fail(1)
	}
}

func (r *run) rejName(name string) string {
	if r.o.rejectFile != "" {
		return r.o.rejectFile
	}
	if r.o.output != "" {
		return r.o.output + ".rej"
	}
	return name + ".rej"
}

// skip reports a patch that will not be applied (reversed, or creating a
// file that exists) the way patch does when it cannot ask: the answers
// default to no.
func (r *run) skip(fp *filePatch, name string, nh int, creating bool) {
	switch {
	case r.o.forward && !creating:
		r.say("Skipping patch.\n")
	case r.o.force:
		r.say("Applying it anyway.\n")
	default:
		r.say("Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n")
	}
	rej := r.rejName(name)
	if r.o.dryRun || creating {
		r.say("%d out of %d %s ignored\n", nh, nh, plural(nh, "hunk"))
	} else {
		r.say("%d out of %d %s ignored -- saving rejects to file %s\n", nh, nh, plural(nh, "hunk"), rej)
		r.writeRejects(rej, fp, fp.hunks)
	}
	r.fail(1)
}

func splitLines(data []byte) []line {
	var ls []line
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			ls = append(ls, line{text: string(data)})
			break
		}
		ls = append(ls, line{text: string(data[:i]), nl: true})
		data = data[i+1:]
	}
	return ls
}

// apply applies the hunks to lines. It returns the new lines, the hunks
// that failed, whether any hunk needed an offset or fuzz, and whether the
// patch looks reversed (already applied): its first hunk fails but would
// apply the other way round.
func (r *run) apply(fp *filePatch, in []line) (out []line, rejects []*hunk, mismatch, reversed bool) {
	frozen := 0 // input lines already copied or consumed
	inOffset := 0
	delta := 0 // output lines minus input lines so far
	for n, h := range fp.hunks {
		pat := h.lines('-')
		prefix, suffix := h.context()
		first := h.oldFirst + inOffset
		where, fuzz := 0, 0
		for fuzz = 0; fuzz <= min(r.o.fuzz, max(prefix, suffix)); fuzz++ {
			if where = r.locate(in, pat, first, prefix, suffix, fuzz, frozen, h.oldFirst); where > 0 {
				break
			}
			if n == 0 && !r.o.force && len(h.lines('+')) > 0 {
				// Does it apply the other way round?
				if r.locate(in, h.lines('+'), h.newFirst+inOffset, prefix, suffix, fuzz, frozen, h.newFirst) > 0 {
					return nil, nil, false, true
				}
			}
		}
		if where == 0 {
			r.say("Hunk #%d FAILED at %d.\n", n+1, h.oldFirst+inOffset+delta)
			rejects = append(rejects, h)
			continue
		}
		if fuzz > 0 || where != h.oldFirst {
			mismatch = true
			msg := fmt.Sprintf("Hunk #%d succeeded at %d", n+1, where+delta)
			if fuzz > 0 {
				msg += fmt.Sprintf(" with fuzz %d", fuzz)
			}
			if off := where - h.oldFirst; off != 0 {
				msg += fmt.Sprintf(" (offset %d %s)", off, plural(abs(off), "line"))
			}
			r.say("%s.\n", msg)
		} else if r.o.verbose {
			r.say("Hunk #%d succeeded at %d.\n", n+1, where+delta)
		}
		inOffset += where - first
		out = append(out, in[frozen:where-1]...)
		i := where - 1
		for _, o := range h.ops {
			switch o.kind {
			case ' ':
				out = append(out, in[i])
				i++
			case '-':
				i++
			case '+':
				out = append(out, o.line)
				delta++
			}
			if o.kind == '-' {
				delta--
			}
		}
		frozen = i
	}
	out = append(out, in[frozen:]...)
	return out, rejects, mismatch, false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// locate finds where pat matches in, searching outward from first (a
// 1-origin line), with fuzz lines of context allowed to differ at either
// end. A hunk with less leading than trailing context must match at the
// start of the file (and vice versa at the end) unless fuzz makes up the
// difference. It returns the line, or 0.
func (r *run) locate(in, pat []line, first, prefix, suffix, fuzz, frozen, written int) int {
	if len(pat) == 0 {
		if first < 1 {
			first = 1
		}
		return min(first, len(in)+1)
	}
	context := max(prefix, suffix)
	pfuzz := fuzz + prefix - context
	sfuzz := fuzz + suffix - context
	maxWhere := len(in) - (len(pat) - sfuzz) + 1
	minWhere := frozen + 1 - (prefix - pfuzz)
	maxPos := maxWhere - first
	maxNeg := first - minWhere
	maxOff := max(maxPos, maxNeg)
	if first <= maxNeg {
		maxNeg = first - 1
	}
	if pfuzz < 0 && written <= 1 {
		if sfuzz < 0 && (len(pat) != len(in) || prefix < frozen) {
			return 0
		}
		off := 1 - first
		if frozen <= prefix && off <= maxPos && r.match(in, pat, first+off, 0, max(sfuzz, 0)) {
			return first + off
		}
		return 0
	}
	pfuzz = max(pfuzz, 0)
	if sfuzz < 0 {
		off := first - (len(in) - len(pat) + 1)
		if off <= maxNeg && r.match(in, pat, first-off, pfuzz, 0) {
			return first - off
		}
		return 0
	}
	minOff := 0
	switch {
	case maxPos < 0:
		minOff = first - maxWhere
	case maxNeg < 0:
		minOff = first - minWhere
	}
	for off := minOff; off <= maxOff; off++ {
		if off <= maxPos && r.match(in, pat, first+off, pfuzz, sfuzz) {
			return first + off
		}
		if off > 0 && off <= maxNeg && r.match(in, pat, first-off, pfuzz, sfuzz) {
			return first - off
		}
	}
	return 0
}

// match reports whether pat (less pfuzz leading and sfuzz trailing lines)
// matches in at 1-origin line at.
func (r *run) match(in, pat []line, at, pfuzz, sfuzz int) bool {
	if at < 1 {
		return false
	}
	for k := pfuzz; k < len(pat)-sfuzz; k++ {
		i := at - 1 + k
		if i < 0 || i >= len(in) {
			return false
		}
		if !r.same(in[i].text, pat[k].text) {
			return false
		}
	}
	return true
}

func (r *run) same(a, b string) bool {
	if a == b {
		return true
	}
	if !r.o.ignoreSpace {
		return false
	}
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

// write stores the patched file, with a backup when asked for or when the
// patch did not match exactly.
func (r *run) write(name string, orig []byte, origExists bool, out []line, mismatch, deleting bool) {
	dest := name
	if r.o.output != "" {
		dest = r.o.output
	}
	if origExists && (r.o.backup || (mismatch && r.o.backupMismatch)) && r.o.output == "" {
		if err := os.WriteFile(name+".orig", orig, 0o644); err != nil {
			r.env.Errorf("**** Can't create file %s : %s", name+".orig", tool.Strerror(err))
			r.fail(2)
		}
	}
	var buf bytes.Buffer
	for _, l := range out {
		buf.WriteString(l.text)
		if l.nl {
			buf.WriteByte('\n')
		}
	}
	if buf.Len() == 0 && (deleting || r.o.removeEmpty) && r.o.output == "" {
		if err := os.Remove(name); err != nil && !os.IsNotExist(err) {
			r.env.Errorf("**** Can't remove file %s : %s", name, tool.Strerror(err))
			r.fail(2)
			return
		}
		// Remove the directories the deletion left empty.
		for d := path.Dir(name); d != "." && d != "/"; d = path.Dir(d) {
			if os.Remove(d) != nil {
				break
			}
		}
		return
	}
	if dir := path.Dir(dest); dir != "." {
		os.MkdirAll(dir, 0o755)
	}
	if err := os.WriteFile(dest, buf.Bytes(), 0o644); err != nil {
		r.w.Flush()
		r.env.Errorf("**** Can't create file %s : %s", dest, tool.Strerror(err))
		r.fail(2)
	}
}

// writeRejects saves failed hunks as they were written in the patch.
func (r *run) writeRejects(name string, fp *filePatch, hunks []*hunk) {
	var buf bytes.Buffer
	for _, h := range fp.header {
		buf.WriteString(h)
	}
	for _, h := range hunks {
		for _, l := range h.raw {
			buf.WriteString(l)
		}
	}
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		r.w.Flush()
		r.env.Errorf("**** Can't create file %s : %s", name, tool.Strerror(err))
		r.fail(2)
	}
}
