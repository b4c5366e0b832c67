package git

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// The stash is refs/stash and its reflog, .git/logs/refs/stash, whose
// lines (oldest first) are the stash entries, as git keeps them.

type stashEntry struct {
	hash plumbing.Hash
	msg  string
	line string
}

func (c *cmd) stashLog() []stashEntry {
	f, err := os.Open(filepath.Join(c.gitDir(), "logs", "refs", "stash"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var es []stashEntry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		fields := strings.Fields(l)
		if len(fields) < 2 {
			continue
		}
		_, msg, _ := strings.Cut(l, "\t")
		es = append(es, stashEntry{plumbing.NewHash(fields[1]), msg, l})
	}
	// Newest first: stash@{0} is the last line.
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return es
}

func (c *cmd) writeStashLog(es []stashEntry) error {
	logf := filepath.Join(c.gitDir(), "logs", "refs", "stash")
	if len(es) == 0 {
		os.Remove(logf)
		return c.repo.Storer.RemoveReference("refs/stash")
	}
	var b strings.Builder
	prev := plumbing.ZeroHash
	for i := len(es) - 1; i >= 0; i-- {
		e := es[i]
		// Re-chain the old hashes as git does when dropping entries.
		_, rest, _ := strings.Cut(e.line, " ")
		_, rest, _ = strings.Cut(rest, " ")
		fmt.Fprintf(&b, "%s %s %s\n", prev, e.hash, rest)
		prev = e.hash
	}
	if err := os.MkdirAll(filepath.Dir(logf), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(logf, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return c.repo.Storer.SetReference(plumbing.NewHashReference("refs/stash", es[0].hash))
}

func (c *cmd) stash() error {
	sub := "push"
	args := c.args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	if err := c.open(); err != nil {
		return err
	}
	out := c.env.Out()
	switch sub {
	case "push", "save":
		msg := ""
		untracked, quiet := false, false
		for i := 0; i < len(args); i++ {
			switch a := args[i]; a {
			case "-m", "--message":
				if i+1 < len(args) {
					i++
					msg = args[i]
				}
			case "-u", "--include-untracked":
				untracked = true
			case "-q", "--quiet":
				quiet = true
			default:
				if sub == "save" && !strings.HasPrefix(a, "-") {
					msg = strings.Join(args[i:], " ")
					i = len(args)
					continue
				}
				return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
			}
		}
		return c.stashPush(msg, untracked, quiet)
	case "list":
		for i, e := range c.stashLog() {
			fmt.Fprintf(out, "stash@{%d}: %s\n", i, e.msg)
		}
		return nil
	case "pop", "apply", "drop":
		n := 0
		quiet := false
		for _, a := range args {
			if a == "-q" || a == "--quiet" {
				quiet = true
				continue
			}
			if strings.HasPrefix(a, "stash@{") {
				fmt.Sscanf(a, "stash@{%d}", &n)
			} else if a != "--index" && a != "-q" {
				fmt.Sscanf(a, "%d", &n)
			}
		}
		es := c.stashLog()
		if n >= len(es) {
			if len(es) == 0 {
				return c.errorf(1, "No stash entries found.")
			}
			return c.errorf(1, "stash@{%d} is not a valid reference", n)
		}
		if sub != "drop" {
			conflicted, err := c.stashApply(es[n].hash, quiet)
			if err != nil {
				return err
			}
			if conflicted {
				if sub == "pop" {
					fmt.Fprintln(out, "The stash entry is kept in case you need it again.")
				}
				return &exitError{1}
			}
		}
		if sub != "apply" {
			h := es[n].hash
			es = append(es[:n], es[n+1:]...)
			if err := c.writeStashLog(es); err != nil {
				return c.fatal("%s", err)
			}
			if !quiet {
				fmt.Fprintf(out, "Dropped refs/stash@{%d} (%s)\n", n, h)
			}
		}
		return nil
	case "clear":
		return c.writeStashLog(nil)
	case "show":
		es := c.stashLog()
		if len(es) == 0 {
			return c.errorf(1, "No stash entries found.")
		}
		w, err := c.repo.CommitObject(es[0].hash)
		if err != nil {
			return c.fatal("%s", err)
		}
		chs, err := c.commitChanges(w)
		if err != nil {
			return c.fatal("%s", err)
		}
		o := &diffOpts{stat: true, context: 3}
		for _, a := range args {
			if a == "-p" || a == "--patch" {
				o.stat, o.patch = false, true
			}
		}
		c.writeChanges(out, chs, o)
		return nil
	}
	return c.errorf(129, "unknown subcommand: %s", sub)
}

func (c *cmd) stashPush(msg string, withUntracked, quiet bool) error {
	head, err := c.headCommit()
	if err != nil || head == nil {
		return c.errorf(1, "You do not have the initial commit yet")
	}
	st, err := c.readState()
	if err != nil {
		return c.fatal("%s", err)
	}
	staged := compare(st.head, st.index, false)
	unstaged := st.unstaged()
	if len(staged) == 0 && len(unstaged) == 0 && (!withUntracked || len(st.untracked) == 0) {
		fmt.Fprintln(c.env.Out(), "No local changes to save")
		return nil
	}
	branch := strings.TrimPrefix(string(c.headRef()), "refs/heads/")
	if branch == "" {
		branch = "(no branch)"
	}
	desc := fmt.Sprintf("%s: %s %s", branch, abbrev(head.Hash), subjectOf(head))
	author, err := c.identity("AUTHOR")
	if err != nil {
		return err
	}
	sig, err := c.identity("COMMITTER")
	if err != nil {
		return err
	}
	itree, err := c.buildTree(st.index)
	if err != nil {
		return c.fatal("%s", err)
	}
	ih, err := c.writeCommit(itree, []plumbing.Hash{head.Hash}, author, sig, "index on "+desc+"\n")
	if err != nil {
		return c.fatal("%s", err)
	}
	wfiles := files{}
	for p, e := range st.index {
		wfiles[p] = e
	}
	for _, ch := range unstaged {
		if ch.kind == 'D' {
			delete(wfiles, ch.path)
			continue
		}
		data, _, _ := c.readWork(ch.path)
		if _, err := c.storeBlob(data); err != nil {
			return c.fatal("%s", err)
		}
		wfiles[ch.path] = ch.new
	}
	parents := []plumbing.Hash{head.Hash, ih}
	if withUntracked && len(st.untracked) > 0 {
		uf := files{}
		for _, p := range st.untracked {
			data, _, _ := c.readWork(p)
			h, err := c.storeBlob(data)
			if err != nil {
				return c.fatal("%s", err)
			}
			uf[p] = entry{h, st.work[p].mode}
		}
		ut, err := c.buildTree(uf)
		if err != nil {
			return c.fatal("%s", err)
		}
		uh, err := c.writeCommit(ut, nil, author, sig, "untracked files on "+desc+"\n")
		if err != nil {
			return c.fatal("%s", err)
		}
		parents = append(parents, uh)
	}
	wtree, err := c.buildTree(wfiles)
	if err != nil {
		return c.fatal("%s", err)
	}
	title := "WIP on " + desc
	if msg != "" {
		title = "On " + branch + ": " + msg
	}
	wh, err := c.writeCommit(wtree, parents, author, sig, title)
	if err != nil {
		return c.fatal("%s", err)
	}
	es := c.stashLog()
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s", plumbing.ZeroHash, wh, sig.Name, sig.Email, sig.When.Unix(), sig.When.Format("-0700"), title)
	es = append([]stashEntry{{wh, title, line}}, es...)
	if err := c.writeStashLog(es); err != nil {
		return c.fatal("%s", err)
	}
	// Back to HEAD, untracked files removed if they were stashed.
	if err := c.hardReset(head, st); err != nil {
		return err
	}
	if withUntracked {
		for _, p := range st.untracked {
			c.removeWork(p)
		}
	}
	if !quiet {
		fmt.Fprintf(c.env.Out(), "Saved working directory and index state %s\n", title)
	}
	return nil
}

// hardReset makes the index and work tree match commit.
func (c *cmd) hardReset(commit *object.Commit, st *state) error {
	next, err := c.treeFiles(commit)
	if err != nil {
		return c.fatal("%s", err)
	}
	for p := range st.index {
		if _, ok := next[p]; !ok {
			c.removeWork(p)
		}
	}
	for p, e := range next {
		if we, ok := st.work[p]; !ok || we != e {
			if err := c.writeWork(p, e); err != nil {
				return c.fatal("%s", err)
			}
		}
	}
	return c.writeIndex(next)
}

// stashApply applies a stash's work-tree changes (and its untracked
// files) to the work tree, merging with HEAD where both changed.
func (c *cmd) stashApply(h plumbing.Hash, quiet bool) (conflicted bool, err error) {
	w, err := c.repo.CommitObject(h)
	if err != nil {
		return false, c.fatal("%s", err)
	}
	base, err := c.repo.CommitObject(w.ParentHashes[0])
	if err != nil {
		return false, c.fatal("%s", err)
	}
	var stages []*index.Entry
	bf, _ := c.treeFiles(base)
	wf, _ := c.treeFiles(w)
	st, err := c.readState()
	if err != nil {
		return false, c.fatal("%s", err)
	}
	staged0 := st.index
	tracked := compare(bf, wf, false)
	if len(tracked) == 0 {
		fmt.Fprintln(c.env.Out(), "Already up to date.")
	}
	for _, ch := range tracked {
		cur, inCur := st.work[ch.path]
		switch ch.kind {
		case 'D':
			delete(staged0, ch.path)
			c.removeWork(ch.path)
		case 'A':
			if err := c.writeWork(ch.path, ch.new); err != nil {
				return false, c.fatal("%s", err)
			}
			staged0[ch.path] = ch.new
		default:
			if inCur && cur != ch.old && cur != ch.new {
				bt, _ := c.blob(ch.old.hash)
				ct, _, _ := c.readWork(ch.path)
				nt, _ := c.blob(ch.new.hash)
				merged, conflict := merge3(splitText(bt), splitText(ct), splitText(nt), "Updated upstream", "Stashed changes")
				if conflict {
					fmt.Fprintf(c.env.Out(), "Auto-merging %s\nCONFLICT (content): Merge conflict in %s\n", ch.path, ch.path)
					conflicted = true
					ours := st.index[ch.path]
					stages = append(stages,
						&index.Entry{Name: ch.path, Hash: ch.old.hash, Mode: ch.old.mode, Stage: index.AncestorMode},
						&index.Entry{Name: ch.path, Hash: ours.hash, Mode: ours.mode, Stage: index.OurMode},
						&index.Entry{Name: ch.path, Hash: ch.new.hash, Mode: ch.new.mode, Stage: index.TheirMode})
					delete(staged0, ch.path)
				}
				os.WriteFile(c.abs(ch.path), []byte(strings.Join(merged, "")), 0o644)
				continue
			}
			if err := c.writeWork(ch.path, ch.new); err != nil {
				return false, c.fatal("%s", err)
			}
		}
	}
	if len(w.ParentHashes) > 2 {
		u, err := c.repo.CommitObject(w.ParentHashes[2])
		if err == nil {
			uf, _ := c.treeFiles(u)
			for p, e := range uf {
				if err := c.writeWork(p, e); err != nil {
					return false, c.fatal("%s", err)
				}
			}
		}
	}
	if err := c.writeIndexAll(staged0, stages); err != nil {
		return false, c.fatal("%s", err)
	}
	if quiet {
		return conflicted, nil
	}
	st2, err := c.readState()
	if err != nil {
		return false, c.fatal("%s", err)
	}
	staged := compare(st2.head, st2.index, true)
	return conflicted, c.longStatus(st2, staged, st2.unstaged(), st2.untrackedShown(false), false)
}
