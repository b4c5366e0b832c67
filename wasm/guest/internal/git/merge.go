package git

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// mergeBase finds a best common ancestor of a and b: the first commit
// reachable from b, in date order, that is reachable from a.
func (c *cmd) mergeBase(a, b *object.Commit) (*object.Commit, error) {
	bases, err := a.MergeBase(b)
	if err != nil || len(bases) == 0 {
		return nil, err
	}
	return bases[0], nil
}

// merge3 merges the changes from base to ours and from base to theirs,
// line by line. Overlapping different changes become conflict regions
// marked as git marks them.
func merge3(base, ours, theirs []string, oursName, theirsName string) ([]string, bool) {
	type hunk struct{ b0, b1, x0, x1 int } // base range replaced by x range
	hunks := func(x []string) []hunk {
		var hs []hunk
		for _, e := range diffLines(base, x) {
			if e.op == '=' {
				continue
			}
			if n := len(hs); n > 0 && hs[n-1].b1 == e.a && hs[n-1].x1 == e.b {
				if e.op == '-' {
					hs[n-1].b1 += e.n
				} else {
					hs[n-1].x1 += e.n
				}
				continue
			}
			h := hunk{e.a, e.a, e.b, e.b}
			if e.op == '-' {
				h.b1 += e.n
			} else {
				h.x1 += e.n
			}
			hs = append(hs, h)
		}
		return hs
	}
	ho, ht := hunks(ours), hunks(theirs)
	var out []string
	conflict := false
	bi := 0 // position in base
	i, j := 0, 0
	for i < len(ho) || j < len(ht) {
		// Pick the next change region: overlapping hunks of both sides.
		var start int
		switch {
		case j >= len(ht) || i < len(ho) && ho[i].b0 < ht[j].b0:
			start = ho[i].b0
		default:
			start = ht[j].b0
		}
		end := start
		i2, j2 := i, j
		for {
			grew := false
			for i2 < len(ho) && (ho[i2].b0 < end || ho[i2].b0 == start || ho[i2].b0 == end && ho[i2].b0 == ho[i2].b1 && end == start) {
				end = max(end, ho[i2].b1)
				i2++
				grew = true
			}
			for j2 < len(ht) && (ht[j2].b0 < end || ht[j2].b0 == start || ht[j2].b0 == end && ht[j2].b0 == ht[j2].b1 && end == start) {
				end = max(end, ht[j2].b1)
				j2++
				grew = true
			}
			if !grew {
				break
			}
		}
		// Unchanged base lines before the region.
		out = append(out, base[bi:start]...)
		// Each side's text for [start, end).
		side := func(hs []hunk, from, to int, x []string) []string {
			var res []string
			b := start
			for _, h := range hs[from:to] {
				res = append(res, base[b:h.b0]...)
				res = append(res, x[h.x0:h.x1]...)
				b = h.b1
			}
			return append(res, base[b:end]...)
		}
		os_ := side(ho, i, i2, ours)
		ts := side(ht, j, j2, theirs)
		switch {
		case i2 == i:
			out = append(out, ts...)
		case j2 == j:
			out = append(out, os_...)
		case equalLines(os_, ts):
			out = append(out, os_...)
		default:
			// Common leading and trailing lines stay outside the markers.
			p := 0
			for p < len(os_) && p < len(ts) && os_[p] == ts[p] {
				p++
			}
			s := 0
			for s < len(os_)-p && s < len(ts)-p && os_[len(os_)-1-s] == ts[len(ts)-1-s] {
				s++
			}
			out = append(out, os_[:p]...)
			out = append(out, "<<<<<<< "+oursName+"\n")
			out = append(out, withNewline(os_[p:len(os_)-s])...)
			out = append(out, "=======\n")
			out = append(out, withNewline(ts[p:len(ts)-s])...)
			out = append(out, ">>>>>>> "+theirsName+"\n")
			out = append(out, os_[len(os_)-s:]...)
			conflict = true
		}
		bi = end
		i, j = i2, j2
	}
	out = append(out, base[bi:]...)
	return out, conflict
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// withNewline makes sure the last line of a conflict side ends in "\n".
func withNewline(ls []string) []string {
	if n := len(ls); n > 0 && !strings.HasSuffix(ls[n-1], "\n") {
		out := append([]string(nil), ls...)
		out[n-1] += "\n"
		return out
	}
	return ls
}

func (c *cmd) merge() error {
	var msgs []string
	noFF, ffOnly, abort, squash := false, false, false, false
	var revs []string
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case a == "--no-ff":
			noFF = true
		case a == "--ff-only":
			ffOnly = true
		case a == "--ff":
		case a == "--abort":
			abort = true
		case a == "--continue":
			if err := c.open(); err != nil {
				return err
			}
			if !c.merging() {
				return c.fatal("There is no merge in progress (MERGE_HEAD missing).")
			}
			c.args = []string{"--no-edit"}
			return c.commit()
		case a == "--squash":
			squash = true
		case a == "-q" || a == "--quiet":
			c.quiet = true
		case a == "--no-edit" || a == "--no-verify" || a == "--stat" || a == "-n" || a == "--no-stat":
		case a == "-m":
			if i+1 < len(c.args) {
				i++
				msgs = append(msgs, c.args[i])
			}
		case strings.HasPrefix(a, "-"):
			return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
		default:
			revs = append(revs, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	if abort {
		if !c.merging() {
			return c.fatal("There is no merge to abort (MERGE_HEAD missing).")
		}
		head, _ := c.headCommit()
		next, _ := c.treeFiles(head)
		st, _ := c.readState()
		for _, p := range c.unmergedPaths() {
			if _, ok := next[p]; !ok {
				c.removeWork(p)
			}
		}
		for p := range st.index {
			if _, ok := next[p]; !ok {
				c.removeWork(p)
			}
		}
		for p, e := range next {
			if err := c.writeWork(p, e); err != nil {
				return c.fatal("%s", err)
			}
		}
		c.clearMerge()
		return c.writeIndexAll(next, nil)
	}
	if c.merging() {
		fmt.Fprint(c.env.Stderr, "error: Merging is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict.\n")
		return &exitError{128}
	}
	if len(revs) != 1 {
		return c.fatal("No remote for the current branch.")
	}
	theirs, err := c.resolve(revs[0])
	if err != nil {
		c.env.Out().Flush()
		fmt.Fprintf(c.env.Stderr, "merge: %s - not something we can merge\n", revs[0])
		return &exitError{1}
	}
	head, err := c.headCommit()
	if err != nil || head == nil {
		return c.fatal("%s", "no commits yet on this branch")
	}
	var out io.Writer = c.env.Out()
	if c.quiet {
		out = io.Discard
	}
	if head.Hash == theirs.Hash || c.isAncestor(theirs.Hash, head.Hash) {
		fmt.Fprintln(out, "Already up to date.")
		return nil
	}
	c.saveOrigHead()
	if c.isAncestor(head.Hash, theirs.Hash) && !noFF && !squash {
		fmt.Fprintf(out, "Updating %s..%s\n", abbrev(head.Hash), abbrev(theirs.Hash))
		if err := c.switchTo(theirs, false, "merge"); err != nil {
			return err
		}
		fmt.Fprintln(out, "Fast-forward")
		a, _ := c.treeFiles(head)
		b, _ := c.treeFiles(theirs)
		chs := compare(a, b, true)
		c.writeStat(out, chs)
		c.summaryModes(out, chs)
		return c.setHead(theirs.Hash)
	}
	if ffOnly {
		return c.fatal("Not possible to fast-forward, aborting.")
	}
	base, err := c.mergeBase(head, theirs)
	if err != nil {
		return c.fatal("%s", err)
	}
	st, err := c.readState()
	if err != nil {
		return c.fatal("%s", err)
	}
	bf, _ := c.treeFiles(base)
	of := st.head
	tf, _ := c.treeFiles(theirs)
	// Refuse to merge over local changes to paths the merge touches.
	var dirty []string
	for _, p := range unionKeys(of, tf) {
		if of[p] == tf[p] || bf[p] == tf[p] {
			continue
		}
		ie, inIndex := st.index[p]
		we, inWork := st.work[p]
		he, inHead := of[p]
		if inIndex != inHead || ie != he || inWork != inIndex || we != ie {
			dirty = append(dirty, p)
		}
	}
	if len(dirty) > 0 {
		fmt.Fprintf(c.env.Stderr, "error: Your local changes to the following files would be overwritten by merge:\n\t%s\nPlease commit your changes or stash them before you merge.\nAborting\n", strings.Join(dirty, "\n\t"))
		return &exitError{2}
	}
	result := files{}
	for p, e := range st.index {
		result[p] = e
	}
	type conflictEntry struct{ base, ours, theirs *entry }
	conflicts := map[string]conflictEntry{}
	var notes []string
	for _, p := range unionKeys(unionFiles(bf, of), tf) {
		b, inB := bf[p]
		o, inO := of[p]
		t, inT := tf[p]
		switch {
		case inO == inT && o == t:
			continue
		case inB == inO && b == o:
			if inT {
				result[p] = t
				if err := c.writeWork(p, t); err != nil {
					return c.fatal("%s", err)
				}
			} else {
				delete(result, p)
				c.removeWork(p)
			}
		case inB == inT && b == t:
			continue
		case inO && inT:
			var baseText []byte
			if inB {
				baseText, _ = c.blob(b.hash)
			}
			ot, _ := c.blob(o.hash)
			tt, _ := c.blob(t.hash)
			notes = append(notes, "Auto-merging "+p)
			if isBinary(ot) || isBinary(tt) || isBinary(baseText) {
				notes = append(notes, "warning: Cannot merge binary files: "+p+" (HEAD vs. "+revs[0]+")")
				notes = append(notes, "CONFLICT (content): Merge conflict in "+p)
				bb, oo, tt2 := b, o, t
				ce := conflictEntry{ours: &oo, theirs: &tt2}
				if inB {
					ce.base = &bb
				}
				conflicts[p] = ce
				continue
			}
			merged, conflict := merge3(splitText(baseText), splitText(ot), splitText(tt), "HEAD", revs[0])
			data := []byte(strings.Join(merged, ""))
			h, err := c.storeBlob(data)
			if err != nil {
				return c.fatal("%s", err)
			}
			me := entry{h, o.mode}
			if err := c.writeWork(p, me); err != nil {
				return c.fatal("%s", err)
			}
			if conflict {
				if inB {
					notes = append(notes, "CONFLICT (content): Merge conflict in "+p)
				} else {
					notes = append(notes, "CONFLICT (add/add): Merge conflict in "+p)
				}
				bb, oo, tt2 := b, o, t
				ce := conflictEntry{ours: &oo, theirs: &tt2}
				if inB {
					ce.base = &bb
				}
				conflicts[p] = ce
				delete(result, p)
				continue
			}
			result[p] = me
		default:
			// Modified on one side, deleted on the other.
			bb := b
			ce := conflictEntry{base: &bb}
			if inO {
				oo := o
				ce.ours = &oo
				notes = append(notes, fmt.Sprintf("CONFLICT (modify/delete): %s deleted in %s and modified in HEAD.  Version HEAD of %s left in tree.", p, revs[0], p))
			} else {
				tt2 := t
				ce.theirs = &tt2
				if err := c.writeWork(p, t); err != nil {
					return c.fatal("%s", err)
				}
				notes = append(notes, fmt.Sprintf("CONFLICT (modify/delete): %s deleted in HEAD and modified in %s.  Version %s of %s left in tree.", p, revs[0], revs[0], p))
			}
			conflicts[p] = ce
			delete(result, p)
		}
	}
	for _, n := range notes {
		fmt.Fprintln(out, n)
	}
	msg := cleanMessage(strings.Join(msgs, "\n\n"))
	if msg == "" {
		msg = fmt.Sprintf("Merge branch '%s'", revs[0])
		if _, err := c.repo.Storer.Reference(plumbing.NewBranchReferenceName(revs[0])); err != nil {
			msg = fmt.Sprintf("Merge commit '%s'", revs[0])
		}
		if cur := strings.TrimPrefix(string(c.headRef()), "refs/heads/"); cur != "master" && cur != "main" && cur != "" {
			msg += " into " + cur
		}
		msg += "\n"
	}
	if len(conflicts) > 0 {
		var stages []*index.Entry
		for _, p := range sortedKeys(conflicts) {
			ce := conflicts[p]
			for i, e := range []*entry{ce.base, ce.ours, ce.theirs} {
				if e != nil {
					stages = append(stages, &index.Entry{Name: p, Hash: e.hash, Mode: e.mode, Stage: index.Stage(i + 1)})
				}
			}
		}
		if err := c.writeIndexAll(result, stages); err != nil {
			return c.fatal("%s", err)
		}
		if !squash {
			os.WriteFile(filepath.Join(c.gitDir(), "MERGE_HEAD"), []byte(theirs.Hash.String()+"\n"), 0o644)
			os.WriteFile(filepath.Join(c.gitDir(), "MERGE_MODE"), []byte("no-ff"), 0o644)
			var cm strings.Builder
			cm.WriteString(msg + "\n# Conflicts:\n")
			for _, p := range sortedKeys(conflicts) {
				cm.WriteString("#\t" + p + "\n")
			}
			os.WriteFile(filepath.Join(c.gitDir(), "MERGE_MSG"), []byte(cm.String()), 0o644)
		}
		fmt.Fprintln(out, "Automatic merge failed; fix conflicts and then commit the result.")
		return &exitError{1}
	}
	if err := c.writeIndex(result); err != nil {
		return c.fatal("%s", err)
	}
	if squash {
		fmt.Fprintln(out, "Squash commit -- not updating HEAD")
		return nil
	}
	tree, err := c.buildTree(result)
	if err != nil {
		return c.fatal("%s", err)
	}
	author, err := c.identity("AUTHOR")
	if err != nil {
		return err
	}
	committer, err := c.identity("COMMITTER")
	if err != nil {
		return err
	}
	h, err := c.writeCommit(tree, []plumbing.Hash{head.Hash, theirs.Hash}, author, committer, msg)
	if err != nil {
		return c.fatal("%s", err)
	}
	if err := c.setHead(h); err != nil {
		return c.fatal("%s", err)
	}
	fmt.Fprintln(out, "Merge made by the 'ort' strategy.")
	chs := compare(of, result, true)
	c.writeStat(out, chs)
	c.summaryModes(out, chs)
	return nil
}

// summaryModes prints the create/delete mode lines of a diffstat.
func (c *cmd) summaryModes(out io.Writer, chs []change) {
	for _, ch := range chs {
		switch ch.kind {
		case 'A':
			fmt.Fprintf(out, " create mode %o %s\n", uint32(ch.new.mode), quotePath(ch.path))
		case 'D':
			fmt.Fprintf(out, " delete mode %o %s\n", uint32(ch.old.mode), quotePath(ch.path))
		case 'R':
			fmt.Fprintf(out, " rename %s (100%%)\n", renameText(ch.from, ch.path))
		}
	}
}

func unionFiles(a, b files) files {
	u := files{}
	for p, e := range a {
		u[p] = e
	}
	for p, e := range b {
		u[p] = e
	}
	return u
}

// writeIndexAll writes fs's entries plus conflict stages.
func (c *cmd) writeIndexAll(fs files, stages []*index.Entry) error {
	idx := &index.Index{Version: 2}
	for _, p := range sortedKeys(fs) {
		idx.Entries = append(idx.Entries, c.newIndexEntry(p, fs[p]))
	}
	idx.Entries = append(idx.Entries, stages...)
	sortIndex(idx)
	return c.repo.Storer.SetIndex(idx)
}

func sortIndex(idx *index.Index) {
	es := idx.Entries
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && (es[j].Name < es[j-1].Name || es[j].Name == es[j-1].Name && es[j].Stage < es[j-1].Stage); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}
