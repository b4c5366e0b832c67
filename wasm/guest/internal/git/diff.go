package git

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// diffOpts are the output options diff, log and show share.
type diffOpts struct {
	patch, stat, shortstat, numstat, nameOnly, nameStatus bool
	quiet, exitCode                                       bool
	context                                               int
	set                                                   bool // some output option was given
}

// parseDiffOpt handles one diff output option; it reports whether a was
// one.
func (o *diffOpts) parse(a string) bool {
	switch {
	case a == "-p" || a == "-u" || a == "--patch":
		o.patch = true
	case a == "--stat":
		o.stat = true
	case a == "--shortstat":
		o.shortstat = true
	case a == "--numstat":
		o.numstat = true
	case a == "--name-only":
		o.nameOnly = true
	case a == "--name-status":
		o.nameStatus = true
	case a == "--quiet":
		o.quiet, o.exitCode = true, true
	case a == "--exit-code":
		o.exitCode = true
	case a == "--patch-with-stat":
		o.patch, o.stat = true, true
	case strings.HasPrefix(a, "-U"):
		n := 0
		fmt.Sscan(a[2:], &n)
		o.context, o.patch = n, true
	case strings.HasPrefix(a, "--unified="):
		n := 0
		fmt.Sscan(a[len("--unified="):], &n)
		o.context, o.patch = n, true
	case a == "--no-color" || a == "--color=never" || a == "--no-ext-diff" || a == "--no-renames" || a == "-M" || a == "--find-renames":
		return true
	default:
		return false
	}
	if a != "--exit-code" {
		o.set = true
	}
	return true
}

// write prints changes as the options ask; it returns the number of
// changes.
func (c *cmd) writeChanges(w io.Writer, changes []change, o *diffOpts) {
	if o.quiet {
		return
	}
	if o.nameOnly {
		for _, ch := range changes {
			fmt.Fprintln(w, quotePath(ch.path))
		}
	}
	if o.nameStatus {
		for _, ch := range changes {
			if ch.kind == 'R' {
				fmt.Fprintf(w, "R100\t%s\t%s\n", quotePath(ch.from), quotePath(ch.path))
				continue
			}
			fmt.Fprintf(w, "%c\t%s\n", ch.kind, quotePath(ch.path))
		}
	}
	if o.numstat {
		for _, ch := range changes {
			a, b := c.contents(ch)
			name := quotePath(ch.path)
			if ch.kind == 'R' {
				name = renameText(ch.from, ch.path)
			}
			if isBinary(a) || isBinary(b) {
				fmt.Fprintf(w, "-\t-\t%s\n", name)
				continue
			}
			ins, del := countChanges(a, b)
			fmt.Fprintf(w, "%d\t%d\t%s\n", ins, del, name)
		}
	}
	if o.stat {
		c.writeStat(w, changes)
	} else if o.shortstat && len(changes) > 0 {
		ins, del := 0, 0
		for _, ch := range changes {
			a, d := c.changeCounts(ch)
			ins += a
			del += d
		}
		fmt.Fprintln(w, statSummary(len(changes), ins, del))
	}
	if o.patch {
		if o.stat && len(changes) > 0 {
			fmt.Fprintln(w)
		}
		for _, ch := range changes {
			c.writePatch(w, ch, o.context)
		}
	}
}

// writeStat prints git's --stat: one line a file and the summary.
func (c *cmd) writeStat(w io.Writer, changes []change) {
	if len(changes) == 0 {
		return
	}
	type row struct {
		name     string
		ins, del int
		binary   bool
		a, b     int
	}
	var rows []row
	nameW, maxChg, ins, del := 0, 0, 0, 0
	for _, ch := range changes {
		a, b := c.contents(ch)
		r := row{name: quotePath(ch.path)}
		if ch.kind == 'R' {
			r.name = renameText(ch.from, ch.path)
		}
		if isBinary(a) || isBinary(b) {
			r.binary, r.a, r.b = true, len(a), len(b)
		} else {
			r.ins, r.del = countChanges(a, b)
		}
		ins += r.ins
		del += r.del
		nameW = max(nameW, len(r.name))
		maxChg = max(maxChg, r.ins+r.del)
		rows = append(rows, r)
	}
	numW := len(fmt.Sprint(maxChg))
	for _, r := range rows {
		if r.binary {
			if r.a == r.b {
				fmt.Fprintf(w, " %-*s | %*s\n", nameW, r.name, numW, "Bin")
			} else {
				fmt.Fprintf(w, " %-*s | %*s %d -> %d bytes\n", nameW, r.name, numW, "Bin", r.a, r.b)
			}
			continue
		}
		// The graph has at most 80 - name - count - 6 columns, scaled.
		width := 80 - nameW - numW - 6
		if width < 6 {
			width = 6
		}
		pi, pd := r.ins, r.del
		if maxChg > width {
			pi, pd = scale(r.ins, maxChg, width), scale(r.del, maxChg, width)
		}
		graph := strings.Repeat("+", pi) + strings.Repeat("-", pd)
		if graph != "" {
			graph = " " + graph
		}
		fmt.Fprintf(w, " %-*s | %*d%s\n", nameW, r.name, numW, r.ins+r.del, graph)
	}
	fmt.Fprintln(w, statSummary(len(changes), ins, del))
}

// scale scales a count as git's diffstat does (rounding, at least 1 for a
// non-zero count).
func scale(n, total, width int) int {
	if n == 0 {
		return 0
	}
	return 1 + (n*(width-1))/total
}

// writePatch prints one change as a git patch.
func (c *cmd) writePatch(w io.Writer, ch change, ctx int) {
	from, to := ch.path, ch.path
	if ch.kind == 'R' {
		from = ch.from
	}
	fmt.Fprintf(w, "diff --git %s %s\n", quotePath("a/"+from), quotePath("b/"+to))
	a, b := c.contents(ch)
	oldHash, newHash := ch.old.hash, ch.new.hash
	switch ch.kind {
	case 'A':
		fmt.Fprintf(w, "new file mode %o\n", uint32(ch.new.mode))
		fmt.Fprintf(w, "index %s..%s\n", abbrev(plumbing.ZeroHash), abbrev(newHash))
	case 'D':
		fmt.Fprintf(w, "deleted file mode %o\n", uint32(ch.old.mode))
		fmt.Fprintf(w, "index %s..%s\n", abbrev(oldHash), abbrev(plumbing.ZeroHash))
	case 'R':
		fmt.Fprint(w, "similarity index 100%\n")
		fmt.Fprintf(w, "rename from %s\nrename to %s\n", quotePath(from), quotePath(to))
		if ch.old.mode != ch.new.mode {
			fmt.Fprintf(w, "old mode %o\nnew mode %o\n", uint32(ch.old.mode), uint32(ch.new.mode))
		}
		return
	default:
		if ch.old.mode != ch.new.mode {
			fmt.Fprintf(w, "old mode %o\nnew mode %o\n", uint32(ch.old.mode), uint32(ch.new.mode))
			if oldHash == newHash {
				return
			}
			fmt.Fprintf(w, "index %s..%s\n", abbrev(oldHash), abbrev(newHash))
		} else {
			fmt.Fprintf(w, "index %s..%s %o\n", abbrev(oldHash), abbrev(newHash), uint32(ch.new.mode))
		}
	}
	if isBinary(a) || isBinary(b) {
		fmt.Fprintf(w, "Binary files %s and %s differ\n", side("a/", from, ch.kind == 'A'), side("b/", to, ch.kind == 'D'))
		return
	}
	if len(a) == 0 && len(b) == 0 {
		return
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", side("a/", from, ch.kind == 'A'), side("b/", to, ch.kind == 'D'))
	writeHunks(w, splitText(a), splitText(b), ctx)
}

func side(prefix, p string, null bool) string {
	if null {
		return "/dev/null"
	}
	return quotePath(prefix + p)
}

// diff is git diff: the work tree against the index, --cached the index
// against a commit, one commit against the work tree, two commits.
func (c *cmd) diff() error {
	o := &diffOpts{context: 3}
	cached := false
	var revs, specs []string
	dashdash := false
	for _, a := range c.args {
		switch {
		case dashdash:
			specs = append(specs, a)
		case a == "--":
			dashdash = true
		case a == "--cached" || a == "--staged":
			cached = true
		case o.parse(a):
		case strings.HasPrefix(a, "-"):
			return c.errorf(129, "invalid option: %s", a)
		default:
			revs = append(revs, a)
		}
	}
	if !o.set {
		o.patch = true
	}
	if err := c.open(); err != nil {
		return err
	}
	// Arguments that are not revisions are paths.
	if !dashdash {
		var rs []string
		for i, r := range revs {
			if _, err := c.resolveRange(r); err != nil {
				for _, p := range revs[i:] {
					if _, serr := os.Lstat(p); serr != nil {
						return c.badRev(p)
					}
				}
				specs = append(specs, revs[i:]...)
				break
			}
			rs = append(rs, r)
		}
		revs = rs
	}
	if len(revs) == 1 && strings.Contains(revs[0], "...") {
		// A...B: from the merge base of A and B to B.
		a, b, _ := strings.Cut(revs[0], "...")
		ca, err := c.resolve(orHead(a))
		if err != nil {
			return c.badRev(revs[0])
		}
		cb, err := c.resolve(orHead(b))
		if err != nil {
			return c.badRev(revs[0])
		}
		base, err := c.mergeBase(ca, cb)
		if err != nil || base == nil {
			return c.fatal("%s: no merge base", revs[0])
		}
		revs = []string{base.Hash.String(), cb.Hash.String()}
	} else if len(revs) == 1 && strings.Contains(revs[0], "..") {
		a, b, _ := strings.Cut(revs[0], "..")
		revs = []string{orHead(a), orHead(b)}
	}
	match, err := c.pathspec(specs)
	if err != nil {
		return err
	}
	var from, to files
	st, err := c.readState()
	if err != nil {
		return c.fatal("%s", err)
	}
	renames := true
	switch {
	case len(revs) == 2:
		if from, err = c.revFiles(revs[0]); err != nil {
			return err
		}
		if to, err = c.revFiles(revs[1]); err != nil {
			return err
		}
	case cached:
		from = st.head
		if len(revs) == 1 {
			if from, err = c.revFiles(revs[0]); err != nil {
				return err
			}
		}
		to = st.index
	case len(revs) == 1:
		if from, err = c.revFiles(revs[0]); err != nil {
			return err
		}
		to = files{}
		for p, e := range st.work {
			if _, ok := st.index[p]; ok {
				to[p] = e
			}
		}
	default:
		from, to = st.index, files{}
		for p, e := range st.work {
			if _, ok := st.index[p]; ok {
				to[p] = e
			}
		}
		renames = false
	}
	changes := filterChanges(compare(from, to, renames), match)
	c.writeChanges(c.env.Out(), changes, o)
	if o.exitCode && len(changes) > 0 {
		return &exitError{1}
	}
	return nil
}

func orHead(s string) string {
	if s == "" {
		return "HEAD"
	}
	return s
}

// resolveRange checks that r names a commit or a range of them.
func (c *cmd) resolveRange(r string) (*object.Commit, error) {
	if a, b, ok := strings.Cut(r, "..."); ok {
		if _, err := c.resolve(orHead(a)); err != nil {
			return nil, err
		}
		return c.resolve(orHead(b))
	}
	if a, b, ok := strings.Cut(r, ".."); ok {
		if _, err := c.resolve(orHead(a)); err != nil {
			return nil, err
		}
		return c.resolve(orHead(b))
	}
	return c.resolve(r)
}

func (c *cmd) revFiles(rev string) (files, error) {
	cm, err := c.resolve(rev)
	if err != nil {
		return nil, c.fatal("bad revision '%s'", rev)
	}
	return c.treeFiles(cm)
}

func readAll(env *tool.Env) ([]byte, error) { return io.ReadAll(env.Stdin) }
