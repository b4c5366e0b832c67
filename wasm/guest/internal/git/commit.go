package git

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

func (c *cmd) initCmd() error {
	quiet, bare := false, false
	branch := ""
	dir := "."
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--bare":
			bare = true
		case a == "-b" || a == "--initial-branch":
			if i+1 < len(c.args) {
				i++
				branch = c.args[i]
			}
		case strings.HasPrefix(a, "--initial-branch="):
			branch = strings.TrimPrefix(a, "--initial-branch=")
		case strings.HasPrefix(a, "-"):
			return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
		default:
			dir = a
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return c.fatal("cannot mkdir %s: %s", dir, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return c.fatal("%s", err)
	}
	gitDir := filepath.Join(abs, ".git")
	if bare {
		gitDir = abs
	}
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err == nil {
		if !quiet {
			fmt.Fprintf(c.env.Out(), "Reinitialized existing Git repository in %s/\n", gitDir)
		}
		return nil
	}
	if branch == "" {
		if v, ok := c.getConfig("init.defaultbranch"); ok && v != "" {
			branch = v
		} else {
			branch = "master"
		}
	}
	_, err = gogit.PlainInitWithOptions(abs, &gogit.PlainInitOptions{
		Bare:        bare,
		InitOptions: gogit.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName(branch)},
	})
	if err != nil {
		return c.fatal("%s", err)
	}
	if !bare {
		os.WriteFile(filepath.Join(gitDir, "config"), []byte("[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"), 0o644)
	}
	// git's own layout: the directories git expects to find.
	for _, d := range []string{"refs/heads", "refs/tags", "objects/info", "objects/pack", "info"} {
		os.MkdirAll(filepath.Join(gitDir, d), 0o755)
	}
	os.WriteFile(filepath.Join(gitDir, "description"), []byte("Unnamed repository; edit this file 'description' to name the repository.\n"), 0o644)
	os.WriteFile(filepath.Join(gitDir, "info", "exclude"), []byte("# git ls-files --others --exclude-from=.git/info/exclude\n# Lines that start with '#' are comments.\n# For a project mostly in C, the following would be a\n# good idea, though:\n# *.[oa]\n# *~\n"), 0o644)
	if !quiet {
		fmt.Fprintf(c.env.Out(), "Initialized empty Git repository in %s/\n", gitDir)
	}
	return nil
}

// add stages paths: files, directories (recursively), "." and -A.
func (c *cmd) add() error {
	c.args = expandShort(c.args, "Aufnv", "")
	all, update, force, dryRun, verbose := false, false, false, false, false
	var specs []string
	for _, a := range c.args {
		switch a {
		case "-A", "--all":
			all = true
		case "-u", "--update":
			update = true
		case "-f", "--force":
			force = true
		case "-n", "--dry-run":
			dryRun = true
		case "-v", "--verbose":
			verbose = true
		case "--":
		default:
			if strings.HasPrefix(a, "-") {
				return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
			}
			specs = append(specs, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	if len(specs) == 0 && !all && !update {
		fmt.Fprint(c.env.Stderr, "Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\nhint: Turn this message off by running\nhint: \"git config advice.addEmptyPathspec false\"\n")
		return nil
	}
	if len(specs) == 0 {
		specs = []string{c.root}
	}
	idx, err := c.readIndex()
	if err != nil {
		return c.fatal("%s", err)
	}
	index := indexFiles(idx)
	work, untracked, err := c.workFiles(index)
	if err != nil {
		return c.fatal("%s", err)
	}
	isUntracked := map[string]bool{}
	for _, u := range untracked {
		isUntracked[u] = true
	}
	match, err := c.pathspec(specs)
	if err != nil {
		return err
	}
	// Every pathspec must name something.
	for _, s := range specs {
		r, _ := c.relPath(s)
		m, _ := c.pathspec([]string{s})
		found := r == ""
		for p := range work {
			if found {
				break
			}
			found = m(p)
		}
		for p := range index {
			if found {
				break
			}
			found = m(p)
		}
		if !found {
			if _, err := os.Lstat(s); err == nil && force {
				if we, ok := c.workEntry(r); ok {
					work[r] = we
					isUntracked[r] = true
					continue
				}
			} else if err == nil {
				fmt.Fprintf(c.env.Stderr, "The following paths are ignored by one of your .gitignore files:\n%s\nhint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: \"git config advice.addIgnoredFile false\"\n", s)
				return &exitError{1}
			}
			return c.fatal("pathspec '%s' did not match any files", s)
		}
	}
	changed := false
	var notes []string
	for _, p := range sortedKeys(work) {
		if !match(p) || update && isUntracked[p] {
			continue
		}
		we := work[p]
		if ie, ok := index[p]; ok && ie == we {
			continue
		}
		notes = append(notes, fmt.Sprintf("add '%s'", p))
		if dryRun {
			continue
		}
		data, _, _ := c.readWork(p)
		if _, err := c.storeBlob(data); err != nil {
			return c.fatal("%s", err)
		}
		index[p] = we
		changed = true
	}
	for _, p := range sortedKeys(index) {
		if _, ok := work[p]; ok || !match(p) {
			continue
		}
		// A tracked file gone from the work tree: git add stages its
		// removal (git 2.x: for "git add ." and -A alike).
		notes = append(notes, fmt.Sprintf("remove '%s'", p))
		if dryRun {
			continue
		}
		delete(index, p)
		changed = true
	}
	if dryRun || verbose {
		for _, n := range notes {
			fmt.Fprintln(c.env.Out(), n)
		}
	}
	if changed {
		if err := c.writeIndex(index); err != nil {
			return c.fatal("%s", err)
		}
	}
	return nil
}

func (c *cmd) commit() error {
	c.args = expandShort(c.args, "aqnsv", "mFC")
	var msgs []string
	all, amend, allowEmpty, quiet, noEdit := false, false, false, false, false
	msgFile := ""
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case a == "-m" || a == "--message":
			if i+1 >= len(c.args) {
				return c.errorf(129, "switch `m' requires a value")
			}
			i++
			msgs = append(msgs, c.args[i])
		case strings.HasPrefix(a, "--message="):
			msgs = append(msgs, strings.TrimPrefix(a, "--message="))
		case a == "-F" || a == "--file":
			if i+1 < len(c.args) {
				i++
				msgFile = c.args[i]
			}
		case a == "-a" || a == "--all":
			all = true
		case a == "-am":
			all = true
			if i+1 < len(c.args) {
				i++
				msgs = append(msgs, c.args[i])
			}
		case a == "--amend":
			amend = true
		case a == "--allow-empty":
			allowEmpty = true
		case a == "--allow-empty-message":
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--no-edit":
			noEdit = true
		case a == "--no-verify" || a == "-n" || a == "--no-gpg-sign":
		default:
			return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	if msgFile != "" {
		var b []byte
		var err error
		if msgFile == "-" {
			b, err = readAll(c.env)
		} else {
			b, err = os.ReadFile(msgFile)
		}
		if err != nil {
			return c.fatal("could not read log file '%s': %s", msgFile, err)
		}
		msgs = append(msgs, string(b))
	}
	if all {
		idx, err := c.readIndex()
		if err != nil {
			return c.fatal("%s", err)
		}
		index := indexFiles(idx)
		work, _, err := c.workFiles(index)
		if err != nil {
			return c.fatal("%s", err)
		}
		for p, ie := range index {
			we, ok := work[p]
			if !ok {
				delete(index, p)
				continue
			}
			if we != ie {
				data, _, _ := c.readWork(p)
				if _, err := c.storeBlob(data); err != nil {
					return c.fatal("%s", err)
				}
				index[p] = we
			}
		}
		if err := c.writeIndex(index); err != nil {
			return c.fatal("%s", err)
		}
	}
	if un := c.unmergedPaths(); len(un) > 0 {
		for _, p := range un {
			fmt.Fprintf(c.env.Out(), "U\t%s\n", c.display(p))
		}
		c.env.Out().Flush()
		fmt.Fprint(c.env.Stderr, "error: Committing is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict.\n")
		return &exitError{128}
	}
	head, err := c.headCommit()
	if err != nil {
		return c.fatal("%s", err)
	}
	var parents []plumbing.Hash
	msg := ""
	if len(msgs) > 0 {
		msg = cleanMessage(strings.Join(msgs, "\n\n"))
	}
	if amend {
		if head == nil {
			return c.fatal("You have nothing to amend.")
		}
		parents = head.ParentHashes
		if len(msgs) == 0 || noEdit {
			if len(msgs) == 0 {
				msg = head.Message
			}
		}
	} else if head != nil {
		parents = []plumbing.Hash{head.Hash}
	}
	if mh := c.mergeHead(); mh != plumbing.ZeroHash && !amend {
		parents = append(parents, mh)
		if len(msgs) == 0 {
			b, _ := os.ReadFile(filepath.Join(c.gitDir(), "MERGE_MSG"))
			msg = cleanMessage(stripComments(string(b)))
		}
	}
	if msg == "" {
		if len(msgs) == 0 && !amend {
			fmt.Fprint(c.env.Stderr, "error: There was a problem with the editor 'vi'.\nPlease supply the message using either -m or -F option.\n")
			return &exitError{1}
		}
		fmt.Fprint(c.env.Stderr, "Aborting commit due to empty commit message.\n")
		return &exitError{1}
	}
	idx, err := c.readIndex()
	if err != nil {
		return c.fatal("%s", err)
	}
	index := indexFiles(idx)
	headFiles, err := c.treeFiles(head)
	if err != nil {
		return c.fatal("%s", err)
	}
	var base files
	if amend {
		var parent *object.Commit
		if len(head.ParentHashes) > 0 {
			parent, _ = c.repo.CommitObject(head.ParentHashes[0])
		}
		base, _ = c.treeFiles(parent)
	} else {
		base = headFiles
	}
	changes := compare(base, index, true)
	if len(compare(headFiles, index, false)) == 0 && !allowEmpty && !amend && c.mergeHead() == plumbing.ZeroHash {
		c.env.Out().Flush()
		st, err := c.readState()
		if err != nil {
			return c.fatal("%s", err)
		}
		unstaged := st.unstaged()
		untracked := st.untrackedShown(false)
		c.initialCommit = head == nil
		if head == nil || len(unstaged) > 0 || len(untracked) > 0 {
			_ = c.longStatus(st, nil, unstaged, untracked, false)
		} else {
			// git prints the branch and "nothing to commit".
			_ = c.longStatus(st, nil, nil, nil, false)
		}
		return &exitError{1}
	}
	author, err := c.identity("AUTHOR")
	if err != nil {
		return err
	}
	if amend && c.env.Env("GIT_AUTHOR_NAME") == "" && c.env.Env("GIT_AUTHOR_DATE") == "" {
		author = &head.Author
	}
	committer, err := c.identity("COMMITTER")
	if err != nil {
		return err
	}
	tree, err := c.buildTree(index)
	if err != nil {
		return c.fatal("%s", err)
	}
	h, err := c.writeCommit(tree, parents, author, committer, msg)
	if err != nil {
		return c.fatal("%s", err)
	}
	if err := c.setHead(h); err != nil {
		return c.fatal("%s", err)
	}
	c.clearMerge()
	if quiet {
		return nil
	}
	out := c.env.Out()
	where := strings.TrimPrefix(string(c.headRef()), "refs/heads/")
	if where == "" {
		where = "detached HEAD"
	}
	if len(parents) == 0 {
		where += " (root-commit)"
	}
	subject, _, _ := strings.Cut(strings.TrimRight(msg, "\n"), "\n")
	fmt.Fprintf(out, "[%s %s] %s\n", where, abbrev(h), subject)
	if author.Name != committer.Name || author.Email != committer.Email {
		fmt.Fprintf(out, " Author: %s <%s>\n", author.Name, author.Email)
	}
	if amend {
		fmt.Fprintf(out, " Date: %s\n", gitDate(author.When))
	}
	return c.summary(changes)
}

// summary prints git commit's diffstat summary and its create/delete
// mode lines.
func (c *cmd) summary(changes []change) error {
	out := c.env.Out()
	if len(changes) == 0 {
		return nil
	}
	ins, del := 0, 0
	for _, ch := range changes {
		a, d := c.changeCounts(ch)
		ins += a
		del += d
	}
	fmt.Fprintln(out, statSummary(len(changes), ins, del))
	for _, ch := range changes {
		switch ch.kind {
		case 'A':
			fmt.Fprintf(out, " create mode %o %s\n", uint32(ch.new.mode), quotePath(ch.path))
		case 'D':
			fmt.Fprintf(out, " delete mode %o %s\n", uint32(ch.old.mode), quotePath(ch.path))
		case 'R':
			fmt.Fprintf(out, " rename %s (100%%)\n", renameText(ch.from, ch.path))
		case 'M':
			if ch.old.mode != ch.new.mode {
				fmt.Fprintf(out, " mode change %o => %o %s\n", uint32(ch.old.mode), uint32(ch.new.mode), quotePath(ch.path))
			}
		}
	}
	return nil
}

// renameText is git's compact "dir/{a => b}" form of a rename.
func renameText(from, to string) string {
	// Common leading directories and trailing parts are factored out.
	pre := 0
	for i := 0; i < len(from) && i < len(to) && from[i] == to[i]; i++ {
		if from[i] == '/' {
			pre = i + 1
		}
	}
	suf := 0
	for i := 1; i <= len(from)-pre && i <= len(to)-pre && from[len(from)-i] == to[len(to)-i]; i++ {
		if from[len(from)-i] == '/' {
			suf = i
		}
	}
	if pre == 0 && suf == 0 {
		return from + " => " + to
	}
	return from[:pre] + "{" + from[pre:len(from)-suf] + " => " + to[pre:len(to)-suf] + "}" + from[len(from)-suf:]
}

func statSummary(files, ins, del int) string {
	s := " " + plural(files, "file changed", "files changed")
	if ins > 0 || del == 0 {
		s += ", " + plural(ins, "insertion(+)", "insertions(+)")
	}
	if del > 0 || ins == 0 {
		s += ", " + plural(del, "deletion(-)", "deletions(-)")
	}
	return s
}

// changeCounts counts the lines a change adds and removes (0, 0 for
// binary files).
func (c *cmd) changeCounts(ch change) (add, del int) {
	a, b := c.contents(ch)
	if isBinary(a) || isBinary(b) {
		return 0, 0
	}
	return countChanges(a, b)
}

// contents returns the old and new contents of a change.
func (c *cmd) contents(ch change) (a, b []byte) {
	if ch.kind != 'A' {
		a = c.load(ch.old, ch.from, ch.path)
	}
	if ch.kind != 'D' {
		b = c.load(ch.new, "", ch.path)
	}
	return a, b
}

// load reads an entry's contents from the object store, or from the work
// tree when the object is not stored (a work-tree side of a diff).
func (c *cmd) load(e entry, alt, p string) []byte {
	if b, err := c.blob(e.hash); err == nil {
		return b
	}
	if alt != "" {
		p = alt
	}
	data, _, _ := c.readWork(p)
	return data
}

func (c *cmd) rm() error {
	c.args = expandShort(c.args, "rfqn", "")
	cached, recursive, force, quiet := false, false, false, false
	var specs []string
	for _, a := range c.args {
		switch a {
		case "--cached":
			cached = true
		case "-r":
			recursive = true
		case "-f", "--force":
			force = true
		case "-q", "--quiet":
			quiet = true
		case "-rf", "-fr":
			recursive, force = true, true
		case "--":
		default:
			if strings.HasPrefix(a, "-") {
				return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
			}
			specs = append(specs, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	if len(specs) == 0 {
		fmt.Fprint(c.env.Stderr, "usage: git rm [<options>] [--] <file>...\n")
		return &exitError{129}
	}
	idx, err := c.readIndex()
	if err != nil {
		return c.fatal("%s", err)
	}
	index := indexFiles(idx)
	head, _ := c.headCommit()
	headFiles, _ := c.treeFiles(head)
	var targets []string
	for _, s := range specs {
		r, err := c.relPath(s)
		if err != nil {
			return err
		}
		found := false
		for _, p := range sortedKeys(index) {
			if p == r {
				targets = append(targets, p)
				found = true
			} else if r == "" || strings.HasPrefix(p, r+"/") {
				if !recursive {
					return c.fatal("not removing '%s' recursively without -r", s)
				}
				targets = append(targets, p)
				found = true
			}
		}
		if !found {
			return c.fatal("pathspec '%s' did not match any files", s)
		}
	}
	if !force {
		var staged, local []string
		for _, p := range targets {
			we, inWork := c.workEntry(p)
			ie := index[p]
			he, inHead := headFiles[p]
			switch {
			case inWork && we != ie && (!inHead || he != ie) && !cached:
				staged = append(staged, p) // both
			case inWork && we != ie && !cached:
				local = append(local, p)
			case !inHead || he != ie:
				if !cached || inWork && we != ie {
					staged = append(staged, p)
				}
			}
		}
		if len(staged) > 0 {
			fmt.Fprintf(c.env.Stderr, "error: the following file has changes staged in the index:\n    %s\n(use --cached to keep the file, or -f to force removal)\n", strings.Join(staged, "\n    "))
			return &exitError{1}
		}
		if len(local) > 0 {
			fmt.Fprintf(c.env.Stderr, "error: the following file has local modifications:\n    %s\n(use --cached to keep the file, or -f to force removal)\n", strings.Join(local, "\n    "))
			return &exitError{1}
		}
	}
	for _, p := range targets {
		delete(index, p)
		if !quiet {
			fmt.Fprintf(c.env.Out(), "rm '%s'\n", p)
		}
		if !cached {
			c.removeWork(p)
		}
	}
	if err := c.writeIndex(index); err != nil {
		return c.fatal("%s", err)
	}
	return nil
}

func (c *cmd) mv() error {
	force := false
	var ops []string
	for _, a := range c.args {
		switch a {
		case "-f", "--force":
			force = true
		case "--":
		default:
			if strings.HasPrefix(a, "-") {
				return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
			}
			ops = append(ops, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	if len(ops) < 2 {
		fmt.Fprint(c.env.Stderr, "usage: git mv [<options>] <source>... <destination>\n")
		return &exitError{129}
	}
	idx, err := c.readIndex()
	if err != nil {
		return c.fatal("%s", err)
	}
	index := indexFiles(idx)
	dst := ops[len(ops)-1]
	srcs := ops[:len(ops)-1]
	dstRel, err := c.relPath(dst)
	if err != nil {
		return err
	}
	fi, dstErr := os.Stat(dst)
	dstIsDir := dstErr == nil && fi.IsDir()
	if len(srcs) > 1 && !dstIsDir {
		return c.fatal("destination '%s' is not a directory", dst)
	}
	for _, s := range srcs {
		r, err := c.relPath(s)
		if err != nil {
			return err
		}
		target := dstRel
		if dstIsDir {
			target = path.Join(dstRel, path.Base(r))
		}
		var moved []string
		for p := range index {
			if p == r || strings.HasPrefix(p, r+"/") {
				moved = append(moved, p)
			}
		}
		if len(moved) == 0 {
			if _, err := os.Lstat(s); err != nil {
				return c.fatal("bad source, source=%s, destination=%s", s, filepath.ToSlash(filepath.Join(filepath.Dir(dst), filepath.Base(dst))))
			}
			return c.fatal("not under version control, source=%s, destination=%s", s, target)
		}
		if _, err := os.Lstat(c.abs(target)); err == nil && !force {
			return c.fatal("destination exists, source=%s, destination=%s", s, target)
		}
		if err := os.MkdirAll(filepath.Dir(c.abs(target)), 0o755); err != nil {
			return c.fatal("%s", err)
		}
		if err := os.Rename(c.abs(r), c.abs(target)); err != nil {
			return c.fatal("renaming '%s' failed: %s", s, err)
		}
		sort.Strings(moved)
		for _, p := range moved {
			e := index[p]
			delete(index, p)
			index[target+strings.TrimPrefix(p, r)] = e
		}
	}
	if err := c.writeIndex(index); err != nil {
		return c.fatal("%s", err)
	}
	return nil
}

func stripComments(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
