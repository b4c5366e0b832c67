package git

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// branches lists the local branch names, sorted.
func (c *cmd) branches() []string {
	var names []string
	refs, err := c.repo.Branches()
	if err != nil {
		return nil
	}
	refs.ForEach(func(r *plumbing.Reference) error {
		names = append(names, r.Name().Short())
		return nil
	})
	sort.Strings(names)
	return names
}

func validRefName(n string) bool {
	if n == "" || strings.HasPrefix(n, "-") || strings.HasSuffix(n, "/") || strings.HasSuffix(n, ".lock") ||
		strings.Contains(n, "..") || strings.ContainsAny(n, " ~^:?*[\\\x7f") || n == "@" || strings.Contains(n, "@{") ||
		strings.HasSuffix(n, ".") || strings.Contains(n, "//") {
		return false
	}
	for _, p := range strings.Split(n, "/") {
		if strings.HasPrefix(p, ".") {
			return false
		}
	}
	return true
}

func (c *cmd) branch() error {
	del, force, move, list, showCurrent, verbose := false, false, false, false, false, false
	remotes, all, tracking, unsetUp := false, false, false, false
	setUp := ""
	var names []string
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if v, ok := strings.CutPrefix(a, "--set-upstream-to="); ok {
			setUp = v
			continue
		}
		if (a == "-u" || a == "--set-upstream-to") && i+1 < len(c.args) {
			i++
			setUp = c.args[i]
			continue
		}
		switch a {
		case "-d", "--delete":
			del = true
		case "-D":
			del, force = true, true
		case "-f", "--force":
			force = true
		case "-m", "--move":
			move = true
		case "-M":
			move, force = true, true
		case "-l", "--list":
			list = true
		case "--no-color":
		case "-a", "--all":
			all = true
		case "-r", "--remotes":
			remotes = true
		case "--unset-upstream":
			unsetUp = true
		case "--show-current":
			showCurrent = true
		case "-v", "--verbose":
			verbose = true
		case "-vv":
			verbose, tracking = true, true
		default:
			if strings.HasPrefix(a, "-") {
				return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
			}
			names = append(names, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	out := c.env.Out()
	current := strings.TrimPrefix(string(c.headRef()), "refs/heads/")
	switch {
	case showCurrent:
		if current != "" {
			fmt.Fprintln(out, current)
		}
		return nil
	case setUp != "" || unsetUp:
		return c.branchUpstream(setUp, names, current)
	case del && remotes:
		for _, n := range names {
			ref := plumbing.ReferenceName("refs/remotes/" + n)
			r, err := c.repo.Storer.Reference(ref)
			if err != nil {
				fmt.Fprintf(c.env.Stderr, "error: remote-tracking branch '%s' not found.\n", n)
				return &exitError{1}
			}
			c.repo.Storer.RemoveReference(ref)
			fmt.Fprintf(out, "Deleted remote-tracking branch %s (was %s).\n", n, abbrev(r.Hash()))
		}
		return nil
	case del:
		if len(names) == 0 {
			return c.fatal("branch name required")
		}
		code := 0
		head, _ := c.headCommit()
		for _, n := range names {
			ref, err := c.repo.Storer.Reference(plumbing.NewBranchReferenceName(n))
			if err != nil {
				fmt.Fprintf(c.env.Stderr, "error: branch '%s' not found.\n", n)
				code = 1
				continue
			}
			if n == current {
				fmt.Fprintf(c.env.Stderr, "error: Cannot delete branch '%s' checked out at '%s'\n", n, c.root)
				code = 1
				continue
			}
			if !force && head != nil && !c.isAncestor(ref.Hash(), head.Hash) {
				fmt.Fprintf(c.env.Stderr, "error: The branch '%s' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D %s'.\n", n, n)
				code = 1
				continue
			}
			if err := c.repo.Storer.RemoveReference(ref.Name()); err != nil {
				return c.fatal("%s", err)
			}
			fmt.Fprintf(out, "Deleted branch %s (was %s).\n", n, abbrev(ref.Hash()))
		}
		if code != 0 {
			return &exitError{code}
		}
		return nil
	case move:
		from, to := current, ""
		switch len(names) {
		case 1:
			to = names[0]
		case 2:
			from, to = names[0], names[1]
		default:
			return c.fatal("branch name required")
		}
		if !validRefName(to) {
			return c.fatal("'%s' is not a valid branch name.", to)
		}
		ref, err := c.repo.Storer.Reference(plumbing.NewBranchReferenceName(from))
		if err != nil {
			if from == current {
				// An unborn branch is renamed by moving HEAD.
				return c.repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(to)))
			}
			return c.errorf(1, "refname refs/heads/%s not found\nfatal: Branch rename failed", from)
		}
		if _, err := c.repo.Storer.Reference(plumbing.NewBranchReferenceName(to)); err == nil && !force && to != from {
			return c.fatal("a branch named '%s' already exists", to)
		}
		if err := c.repo.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(to), ref.Hash())); err != nil {
			return c.fatal("%s", err)
		}
		if to != from {
			c.repo.Storer.RemoveReference(ref.Name())
		}
		if from == current {
			return c.repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(to)))
		}
		return nil
	case len(names) > 0 && !list:
		name := names[0]
		if !validRefName(name) {
			return c.fatal("'%s' is not a valid branch name.", name)
		}
		start := "HEAD"
		if len(names) > 1 {
			start = names[1]
		}
		if _, err := c.repo.Storer.Reference(plumbing.NewBranchReferenceName(name)); err == nil && !force {
			return c.fatal("a branch named '%s' already exists", name)
		}
		cm, err := c.resolve(start)
		if err != nil {
			if start == "HEAD" {
				return c.fatal("not a valid object name: '%s'", current)
			}
			return c.fatal("not a valid object name: '%s'", start)
		}
		return c.repo.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(name), cm.Hash))
	}
	// Listing.
	if remotes {
		c.listRemoteBranches(out, "", verbose, 0)
		return nil
	}
	ref := c.headRef()
	if ref == "" {
		if h, err := c.repo.Head(); err == nil {
			line := fmt.Sprintf("* (HEAD detached at %s)", abbrev(h.Hash()))
			if verbose {
				cm, _ := c.repo.CommitObject(h.Hash())
				line += " " + abbrev(h.Hash()) + " " + subjectOf(cm)
			}
			fmt.Fprintln(out, line)
		}
	}
	locals := c.branches()
	width := 0
	for _, n := range locals {
		width = max(width, len(n))
	}
	if all && verbose {
		for _, r := range c.remoteBranches() {
			width = max(width, len("remotes/")+len(r.Name().String())-len("refs/remotes/"))
		}
	}
	for _, n := range locals {
		if list && len(names) > 0 {
			ok := false
			for _, pat := range names {
				if m, _ := path.Match(pat, n); m {
					ok = true
				}
			}
			if !ok {
				continue
			}
		}
		mark := "  "
		if n == current {
			mark = "* "
		}
		if verbose {
			r, _ := c.repo.Storer.Reference(plumbing.NewBranchReferenceName(n))
			cm, _ := c.repo.CommitObject(r.Hash())
			note := ""
			if tracking {
				note = c.branchTracking(n)
			}
			fmt.Fprintf(out, "%s%-*s %s %s%s\n", mark, width, n, abbrev(r.Hash()), note, subjectOf(cm))
			continue
		}
		fmt.Fprintf(out, "%s%s\n", mark, n)
	}
	if all {
		c.listRemoteBranches(out, "remotes/", verbose, width)
	}
	return nil
}

// remoteBranches lists the remote-tracking references, sorted.
func (c *cmd) remoteBranches() []*plumbing.Reference {
	var refs []*plumbing.Reference
	iter, err := c.repo.References()
	if err != nil {
		return nil
	}
	iter.ForEach(func(r *plumbing.Reference) error {
		if strings.HasPrefix(r.Name().String(), "refs/remotes/") {
			refs = append(refs, r)
		}
		return nil
	})
	sort.Slice(refs, func(i, j int) bool { return refs[i].Name() < refs[j].Name() })
	return refs
}

// listRemoteBranches prints git branch -r's lines (or -a's, with prefix
// "remotes/").
func (c *cmd) listRemoteBranches(out io.Writer, prefix string, verbose bool, width int) {
	refs := c.remoteBranches()
	if verbose {
		for _, r := range refs {
			width = max(width, len(prefix)+len(r.Name().String())-len("refs/remotes/"))
		}
	}
	for _, r := range refs {
		name := prefix + strings.TrimPrefix(r.Name().String(), "refs/remotes/")
		if r.Type() == plumbing.SymbolicReference {
			target := strings.TrimPrefix(r.Target().String(), "refs/remotes/")
			if verbose {
				fmt.Fprintf(out, "  %-*s -> %s\n", width, name, target)
			} else {
				fmt.Fprintf(out, "  %s -> %s\n", name, target)
			}
			continue
		}
		if verbose {
			cm, _ := c.repo.CommitObject(r.Hash())
			fmt.Fprintf(out, "  %-*s %s %s\n", width, name, abbrev(r.Hash()), subjectOf(cm))
			continue
		}
		fmt.Fprintf(out, "  %s\n", name)
	}
}

// branchTracking is git branch -vv's "[origin/master: ahead 1] " note.
func (c *cmd) branchTracking(branch string) string {
	_, ref := c.upstream(branch)
	if ref == "" {
		return ""
	}
	name := prettyRef(ref.String())
	up, err := c.repo.Storer.Reference(ref)
	if err != nil {
		return "[" + name + ": gone] "
	}
	local, err := c.repo.Storer.Reference(plumbing.NewBranchReferenceName(branch))
	if err != nil {
		return "[" + name + "] "
	}
	ahead, behind := c.aheadBehind(local.Hash(), up.Hash())
	switch {
	case ahead > 0 && behind > 0:
		return fmt.Sprintf("[%s: ahead %d, behind %d] ", name, ahead, behind)
	case ahead > 0:
		return fmt.Sprintf("[%s: ahead %d] ", name, ahead)
	case behind > 0:
		return fmt.Sprintf("[%s: behind %d] ", name, behind)
	}
	return "[" + name + "] "
}

// branchUpstream is git branch --set-upstream-to and --unset-upstream.
func (c *cmd) branchUpstream(upstream string, names []string, current string) error {
	branch := current
	if len(names) > 0 {
		branch = names[0]
	}
	if branch == "" {
		return c.fatal("could not set upstream of HEAD to %s when it does not point to any branch.", upstream)
	}
	if upstream == "" {
		if _, ref := c.upstream(branch); ref == "" {
			return c.fatal("Branch '%s' has no upstream information", branch)
		}
		return c.editConfig(func(cfg *config.Config) {
			s := cfg.Section("branch").Subsection(branch)
			s.RemoveOption("remote")
			s.RemoveOption("merge")
		})
	}
	if _, err := c.repo.Storer.Reference(plumbing.NewBranchReferenceName(branch)); err != nil {
		return c.fatal("branch '%s' does not exist", branch)
	}
	for _, remote := range c.remoteNames() {
		if rest, ok := strings.CutPrefix(upstream, remote+"/"); ok {
			if _, err := c.repo.Storer.Reference(plumbing.NewRemoteReferenceName(remote, rest)); err == nil {
				if err := c.setUpstream(branch, remote, rest); err != nil {
					return err
				}
				fmt.Fprintf(c.env.Out(), "branch '%s' set up to track '%s'.\n", branch, upstream)
				return nil
			}
		}
	}
	if _, err := c.repo.Storer.Reference(plumbing.NewBranchReferenceName(upstream)); err == nil {
		if err := c.setUpstream(branch, ".", upstream); err != nil {
			return err
		}
		fmt.Fprintf(c.env.Out(), "branch '%s' set up to track '%s'.\n", branch, upstream)
		return nil
	}
	return c.fatal("the requested upstream branch '%s' does not exist\nhint: \nhint: If you are planning on basing your work on an upstream\nhint: branch that already exists at the remote, you may need to\nhint: run \"git fetch\" to retrieve it.\nhint: \nhint: If you are planning to push out a new local branch that\nhint: will track its remote counterpart, you may want to use\nhint: \"git push -u\" to set the upstream config as you push.\nhint: Disable this message with \"git config advice.setUpstreamFailure false\"", upstream)
}

func subjectOf(cm *object.Commit) string {
	if cm == nil {
		return ""
	}
	s, _, _ := strings.Cut(strings.TrimRight(cm.Message, "\n"), "\n\n")
	return strings.ReplaceAll(s, "\n", " ")
}

// isAncestor reports whether a is reachable from b.
func (c *cmd) isAncestor(a, b plumbing.Hash) bool {
	seen := map[plumbing.Hash]bool{}
	stack := []plumbing.Hash{b}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if h == a {
			return true
		}
		if seen[h] {
			continue
		}
		seen[h] = true
		cm, err := c.repo.CommitObject(h)
		if err != nil {
			continue
		}
		stack = append(stack, cm.ParentHashes...)
	}
	return false
}

// switchTo moves the work tree and index from HEAD's tree to target's,
// keeping local changes to paths the two trees agree on, and refusing
// (unless force) to overwrite local changes otherwise.
func (c *cmd) switchTo(target *object.Commit, force bool, verb string) error {
	st, err := c.readState()
	if err != nil {
		return c.fatal("%s", err)
	}
	next, err := c.treeFiles(target)
	if err != nil {
		return c.fatal("%s", err)
	}
	var touched []string
	for p := range st.head {
		if next[p] != st.head[p] {
			touched = append(touched, p)
		}
	}
	for p := range next {
		if _, ok := st.head[p]; !ok {
			touched = append(touched, p)
		}
	}
	sort.Strings(touched)
	if !force {
		var dirty, untracked []string
		for _, p := range touched {
			he, inHead := st.head[p]
			ie, inIndex := st.index[p]
			we, inWork := st.work[p]
			ne, inNext := next[p]
			if !inHead && !inIndex && inWork && inNext && we != ne {
				untracked = append(untracked, p)
				continue
			}
			if inIndex != inHead || ie != he || inWork != inIndex || we != ie {
				// Changes that already match the target are fine.
				if inIndex == inNext && ie == ne && (inWork == inNext && we == ne) {
					continue
				}
				dirty = append(dirty, p)
			}
		}
		if len(dirty) > 0 {
			what := "switch branches"
			if verb == "merge" {
				what = "merge"
			}
			fmt.Fprintf(c.env.Stderr, "error: Your local changes to the following files would be overwritten by %s:\n\t%s\nPlease commit your changes or stash them before you %s.\nAborting\n", verb, strings.Join(dirty, "\n\t"), what)
			return &exitError{1}
		}
		if len(untracked) > 0 {
			fmt.Fprintf(c.env.Stderr, "error: The following untracked working tree files would be overwritten by %s:\n\t%s\nPlease move or remove them before you switch branches.\nAborting\n", verb, strings.Join(untracked, "\n\t"))
			return &exitError{1}
		}
	}
	index := st.index
	if force {
		index = files{}
		for p, e := range next {
			index[p] = e
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
		return c.writeIndex(index)
	}
	for _, p := range touched {
		ne, inNext := next[p]
		if !inNext {
			delete(index, p)
			c.removeWork(p)
			continue
		}
		index[p] = ne
		if we, ok := st.work[p]; !ok || we != ne {
			if err := c.writeWork(p, ne); err != nil {
				return c.fatal("%s", err)
			}
		}
	}
	return c.writeIndex(index)
}

// localChanges lists "M\tpath" lines for the changes git checkout reports
// after switching.
func (c *cmd) localChanges() []string {
	st, err := c.readState()
	if err != nil {
		return nil
	}
	kinds := map[string]byte{}
	for _, ch := range compare(st.head, st.index, false) {
		kinds[ch.path] = ch.kind
	}
	for _, ch := range st.unstaged() {
		if _, ok := kinds[ch.path]; !ok {
			kinds[ch.path] = ch.kind
		}
	}
	var out []string
	for _, p := range sortedKeys(kinds) {
		out = append(out, fmt.Sprintf("%c\t%s", kinds[p], p))
	}
	return out
}

func (c *cmd) checkout() error {
	create, force, detach := "", false, false
	createForce := false
	var rest []string
	dashdash := -1
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case dashdash >= 0:
			rest = append(rest, a)
		case a == "--":
			dashdash = len(rest)
		case a == "-b" || a == "-B":
			if i+1 >= len(c.args) {
				return c.errorf(129, "switch `%c' requires a value", a[1])
			}
			i++
			create, createForce = c.args[i], a == "-B"
		case a == "-f" || a == "--force":
			force = true
		case a == "--detach":
			detach = true
		case a == "-q" || a == "--quiet":
			c.quiet = true
		case strings.HasPrefix(a, "-") && a != "-":
			return c.errorf(129, "unknown switch `%s'", strings.TrimLeft(a, "-"))
		default:
			rest = append(rest, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	if create != "" {
		start := "HEAD"
		if len(rest) > 0 {
			start = rest[0]
		}
		return c.createAndSwitch(create, start, createForce, force, "checkout")
	}
	if len(rest) == 0 {
		return nil
	}
	// "checkout REV -- paths", "checkout -- paths", "checkout paths".
	if dashdash >= 0 || len(rest) > 1 {
		src := ""
		paths := rest
		if dashdash > 0 {
			src, paths = rest[0], rest[1:]
		} else if dashdash < 0 {
			if _, err := c.resolve(rest[0]); err == nil {
				src, paths = rest[0], rest[1:]
			}
		}
		return c.checkoutPaths(src, paths)
	}
	target := rest[0]
	if _, err := c.repo.Storer.Reference(plumbing.NewBranchReferenceName(target)); err == nil && !detach {
		return c.switchBranch(target, force, "checkout")
	}
	if remote, ok := c.remoteBranchFor(target); ok && !detach {
		if _, err := c.resolve(target); err != nil {
			return c.trackRemote(target, remote, force)
		}
	}
	cm, err := c.resolve(target)
	if err != nil {
		if _, serr := os.Lstat(target); serr == nil {
			return c.checkoutPaths("", rest)
		}
		return c.errorf(1, "pathspec '%s' did not match any file(s) known to git", target)
	}
	return c.detachTo(cm, force, "checkout")
}

func (c *cmd) detachTo(cm *object.Commit, force bool, verb string) error {
	if err := c.switchTo(cm, force, verb); err != nil {
		return err
	}
	wasDetached := c.headRef() == ""
	if err := c.repo.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, cm.Hash)); err != nil {
		return c.fatal("%s", err)
	}
	c.env.Out().Flush()
	if c.quiet {
		return nil
	}
	if wasDetached {
		fmt.Fprintf(c.env.Stderr, "HEAD is now at %s %s\n", abbrev(cm.Hash), subjectOf(cm))
		return nil
	}
	fmt.Fprintf(c.env.Stderr, "Note: switching to '%s'.\n\nYou are in 'detached HEAD' state. You can look around, make experimental\nchanges and commit them, and you can discard any commits you make in this\nstate without impacting any branches by switching back to a branch.\n\nIf you want to create a new branch to retain commits you create, you may\ndo so (now or later) by using -c with the switch command. Example:\n\n  git switch -c <new-branch-name>\n\nOr undo this operation with:\n\n  git switch -\n\nTurn off this advice by setting config variable advice.detachedHead to false\n\nHEAD is now at %s %s\n", c.args[len(c.args)-1], abbrev(cm.Hash), subjectOf(cm))
	return nil
}

func (c *cmd) switchBranch(name string, force bool, verb string) error {
	if c.headRef() == plumbing.NewBranchReferenceName(name) {
		c.reportSwitch(fmt.Sprintf("Already on '%s'\n", name))
		return nil
	}
	cm, err := c.resolve("refs/heads/" + name)
	if err != nil {
		return c.fatal("%s", err)
	}
	if err := c.switchTo(cm, force, verb); err != nil {
		return err
	}
	if err := c.repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(name))); err != nil {
		return c.fatal("%s", err)
	}
	c.reportSwitch(fmt.Sprintf("Switched to branch '%s'\n", name))
	return nil
}

// reportSwitch prints what checkout and switch say after moving to a
// branch: local changes and the branch's tracking state on stdout, msg on
// stderr; nothing with -q.
func (c *cmd) reportSwitch(msg string) {
	if c.quiet {
		return
	}
	for _, l := range c.localChanges() {
		fmt.Fprintln(c.env.Out(), l)
	}
	if long, _, _, ok := c.trackingInfo(); ok {
		fmt.Fprint(c.env.Out(), long)
	}
	c.env.Out().Flush()
	fmt.Fprint(c.env.Stderr, msg)
}

// remoteBranchFor finds the one remote-tracking branch named name
// (origin/NAME) that checkout and switch create a local branch from.
func (c *cmd) remoteBranchFor(name string) (remote string, ok bool) {
	found := 0
	for _, r := range c.remoteNames() {
		if _, err := c.repo.Storer.Reference(plumbing.NewRemoteReferenceName(r, name)); err == nil {
			remote = r
			found++
		}
	}
	return remote, found == 1
}

// trackRemote creates branch name from remote's branch of that name,
// following it, and switches to it (git checkout's "DWIM" for remotes).
func (c *cmd) trackRemote(name, remote string, force bool) error {
	if err := c.createAndSwitch(name, "refs/remotes/"+remote+"/"+name, false, force, "checkout", func() error {
		if err := c.setUpstream(name, remote, name); err != nil {
			return err
		}
		if !c.quiet {
			fmt.Fprintf(c.env.Out(), "branch '%s' set up to track '%s/%s'.\n", name, remote, name)
		}
		return nil
	}); err != nil {
		return err
	}
	return nil
}

func (c *cmd) createAndSwitch(name, start string, reset, force bool, verb string, then ...func() error) error {
	if !validRefName(name) {
		return c.fatal("'%s' is not a valid branch name.", name)
	}
	ref := plumbing.NewBranchReferenceName(name)
	if _, err := c.repo.Storer.Reference(ref); err == nil && !reset {
		return c.fatal("a branch named '%s' already exists", name)
	}
	head, _ := c.headCommit()
	if head == nil && start == "HEAD" {
		// An unborn branch: only HEAD moves.
		return c.repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, ref))
	}
	cm, err := c.resolve(start)
	if err != nil {
		return c.fatal("'%s' is not a commit and a branch '%s' cannot be created from it", start, name)
	}
	if err := c.switchTo(cm, force, verb); err != nil {
		return err
	}
	if err := c.repo.Storer.SetReference(plumbing.NewHashReference(ref, cm.Hash)); err != nil {
		return c.fatal("%s", err)
	}
	if err := c.repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, ref)); err != nil {
		return c.fatal("%s", err)
	}
	for _, f := range then {
		if err := f(); err != nil {
			return err
		}
	}
	if reset {
		c.reportSwitch(fmt.Sprintf("Switched to and reset branch '%s'\n", name))
	} else {
		c.reportSwitch(fmt.Sprintf("Switched to a new branch '%s'\n", name))
	}
	return nil
}

// checkoutPaths restores paths in the work tree from the index, or from a
// commit (updating the index too).
func (c *cmd) checkoutPaths(src string, specs []string) error {
	idx, err := c.readIndex()
	if err != nil {
		return c.fatal("%s", err)
	}
	index := indexFiles(idx)
	from := index
	if src != "" {
		if from, err = c.revFiles(src); err != nil {
			return err
		}
	}
	n := 0
	for _, s := range specs {
		m, err := c.pathspec([]string{s})
		if err != nil {
			return err
		}
		found := false
		for _, p := range sortedKeys(from) {
			if !m(p) {
				continue
			}
			found = true
			if err := c.writeWork(p, from[p]); err != nil {
				return c.fatal("%s", err)
			}
			if src != "" {
				index[p] = from[p]
			}
			n++
		}
		if !found {
			return c.errorf(1, "pathspec '%s' did not match any file(s) known to git", s)
		}
	}
	if err := c.writeIndex(index); err != nil {
		return c.fatal("%s", err)
	}
	c.env.Out().Flush()
	where := "the index"
	if src != "" {
		cm, _ := c.resolve(src)
		where = abbrev(cm.Hash)
	}
	fmt.Fprintf(c.env.Stderr, "Updated %s from %s\n", plural(n, "path", "paths"), where)
	return nil
}

func (c *cmd) switchCmd() error {
	create, detach, force, reset := "", false, false, false
	var rest []string
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case a == "-c" || a == "-C" || a == "--create" || a == "--force-create":
			if i+1 >= len(c.args) {
				return c.errorf(129, "switch `%c' requires a value", a[1])
			}
			i++
			create, reset = c.args[i], a == "-C" || a == "--force-create"
		case a == "-d" || a == "--detach":
			detach = true
		case a == "-f" || a == "--force" || a == "--discard-changes":
			force = true
		case a == "-q" || a == "--quiet":
			c.quiet = true
		case strings.HasPrefix(a, "-"):
			return c.errorf(129, "unknown switch `%s'", strings.TrimLeft(a, "-"))
		default:
			rest = append(rest, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	if create != "" {
		start := "HEAD"
		if len(rest) > 0 {
			start = rest[0]
		}
		return c.createAndSwitch(create, start, reset, force, "checkout")
	}
	if len(rest) == 0 {
		return c.fatal("missing branch or commit argument")
	}
	if detach {
		cm, err := c.resolve(rest[0])
		if err != nil {
			return c.fatal("invalid reference: %s", rest[0])
		}
		return c.detachTo(cm, force, "checkout")
	}
	if _, err := c.repo.Storer.Reference(plumbing.NewBranchReferenceName(rest[0])); err != nil {
		if remote, ok := c.remoteBranchFor(rest[0]); ok {
			return c.trackRemote(rest[0], remote, force)
		}
		if _, err := c.resolve(rest[0]); err == nil {
			fmt.Fprintf(c.env.Stderr, "fatal: a branch is expected, got commit '%s'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.\n", rest[0])
			return &exitError{128}
		}
		return c.fatal("invalid reference: %s", rest[0])
	}
	return c.switchBranch(rest[0], force, "checkout")
}

func (c *cmd) restore() error {
	staged, worktree := false, false
	source := ""
	var specs []string
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case a == "-S" || a == "--staged":
			staged = true
		case a == "-W" || a == "--worktree":
			worktree = true
		case a == "-SW" || a == "-WS":
			staged, worktree = true, true
		case a == "-s" || a == "--source":
			if i+1 < len(c.args) {
				i++
				source = c.args[i]
			}
		case strings.HasPrefix(a, "--source="):
			source = a[len("--source="):]
		case strings.HasPrefix(a, "-s") && len(a) > 2:
			source = a[2:]
		case a == "--":
		case a == "-q" || a == "--quiet":
		case strings.HasPrefix(a, "-"):
			return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
		default:
			specs = append(specs, a)
		}
	}
	if !staged {
		worktree = true
	}
	if err := c.open(); err != nil {
		return err
	}
	if len(specs) == 0 {
		return c.fatal("you must specify path(s) to restore")
	}
	idx, err := c.readIndex()
	if err != nil {
		return c.fatal("%s", err)
	}
	index := indexFiles(idx)
	var from files
	switch {
	case source != "":
		if from, err = c.revFiles(source); err != nil {
			return err
		}
	case staged:
		head, err := c.headCommit()
		if err != nil || head == nil {
			return c.fatal("could not resolve HEAD")
		}
		from, _ = c.treeFiles(head)
	default:
		from = index
	}
	for _, s := range specs {
		m, err := c.pathspec([]string{s})
		if err != nil {
			return err
		}
		found := false
		for _, p := range unionKeys(from, index) {
			if !m(p) {
				continue
			}
			found = true
			e, ok := from[p]
			if staged {
				if ok {
					index[p] = e
				} else {
					delete(index, p)
				}
			}
			if worktree {
				if ok {
					if err := c.writeWork(p, e); err != nil {
						return c.fatal("%s", err)
					}
				} else if source != "" || staged {
					c.removeWork(p)
				}
			}
		}
		if !found {
			return c.errorf(1, "pathspec '%s' did not match any file(s) known to git", s)
		}
	}
	return c.writeIndex(index)
}

func unionKeys(a, b files) []string {
	m := map[string]bool{}
	for p := range a {
		m[p] = true
	}
	for p := range b {
		m[p] = true
	}
	return sortedKeys(m)
}

func (c *cmd) reset() error {
	mode := "mixed"
	var rest []string
	dashdash := -1
	quiet := false
	for _, a := range c.args {
		switch {
		case dashdash >= 0:
			rest = append(rest, a)
		case a == "--":
			dashdash = len(rest)
		case a == "--soft" || a == "--mixed" || a == "--hard" || a == "--keep" || a == "--merge":
			mode = a[2:]
		case a == "-q" || a == "--quiet":
			quiet = true
		case strings.HasPrefix(a, "-"):
			return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
		default:
			rest = append(rest, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	rev := "HEAD"
	var specs []string
	switch {
	case dashdash == 0:
		specs = rest
	case dashdash > 0:
		rev, specs = rest[0], rest[1:]
	case len(rest) > 0:
		if _, err := c.resolve(rest[0]); err == nil {
			rev, specs = rest[0], rest[1:]
		} else {
			specs = rest
			if head, _ := c.headCommit(); head != nil {
				for _, s := range specs {
					if _, err := os.Lstat(s); err != nil {
						return c.badRev(s)
					}
				}
			}
		}
	}
	head, _ := c.headCommit()
	if len(specs) > 0 {
		if mode != "mixed" {
			return c.fatal("Cannot do %s reset with paths.", mode)
		}
		var from files
		if head != nil || rev != "HEAD" {
			var err error
			if from, err = c.revFiles(rev); err != nil {
				return err
			}
		} else {
			from = files{}
		}
		idx, err := c.readIndex()
		if err != nil {
			return c.fatal("%s", err)
		}
		index := indexFiles(idx)
		match, err := c.pathspec(specs)
		if err != nil {
			return err
		}
		for _, p := range unionKeys(from, index) {
			if !match(p) {
				continue
			}
			if e, ok := from[p]; ok {
				index[p] = e
			} else {
				delete(index, p)
			}
		}
		if err := c.writeIndex(index); err != nil {
			return c.fatal("%s", err)
		}
		if !quiet {
			c.printUnstaged()
		}
		return nil
	}
	var target *object.Commit
	if head == nil && rev == "HEAD" {
		target = nil
	} else {
		cm, err := c.resolve(rev)
		if err != nil {
			return c.badRev(rev)
		}
		target = cm
	}
	next, err := c.treeFiles(target)
	if err != nil {
		return c.fatal("%s", err)
	}
	switch mode {
	case "hard", "keep", "merge":
		st, err := c.readState()
		if err != nil {
			return c.fatal("%s", err)
		}
		for p := range st.index {
			if _, ok := next[p]; !ok {
				c.removeWork(p)
			}
		}
		for p := range st.head {
			if _, ok := next[p]; !ok {
				if _, inIdx := st.index[p]; !inIdx {
					c.removeWork(p)
				}
			}
		}
		for p, e := range next {
			if we, ok := st.work[p]; !ok || we != e {
				if err := c.writeWork(p, e); err != nil {
					return c.fatal("%s", err)
				}
			}
		}
		fallthrough
	case "mixed":
		if err := c.writeIndex(next); err != nil {
			return c.fatal("%s", err)
		}
	}
	if target != nil {
		c.saveOrigHead()
		if err := c.setHead(target.Hash); err != nil {
			return c.fatal("%s", err)
		}
	}
	c.clearMerge()
	if quiet {
		return nil
	}
	switch mode {
	case "hard":
		fmt.Fprintf(c.env.Out(), "HEAD is now at %s %s\n", abbrev(target.Hash), subjectOf(target))
	case "mixed":
		c.printUnstaged()
	}
	return nil
}

// printUnstaged prints what git reset prints after a mixed reset.
func (c *cmd) printUnstaged() {
	st, err := c.readState()
	if err != nil {
		return
	}
	chs := st.unstaged()
	if len(chs) == 0 {
		return
	}
	fmt.Fprintln(c.env.Out(), "Unstaged changes after reset:")
	for _, ch := range chs {
		fmt.Fprintf(c.env.Out(), "%c\t%s\n", ch.kind, ch.path)
	}
}

func (c *cmd) tag() error {
	del, annotate, list, force, lines := false, false, false, false, false
	contains, sortKey := "", "refname"
	var msgs []string
	var names []string
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case a == "-d" || a == "--delete":
			del = true
		case a == "-n" || strings.HasPrefix(a, "-n") && len(a) > 2 && a[2] >= '0' && a[2] <= '9':
			lines, list = true, true
		case a == "--contains" && i+1 < len(c.args):
			i++
			contains, list = c.args[i], true
		case strings.HasPrefix(a, "--contains="):
			contains, list = a[len("--contains="):], true
		case strings.HasPrefix(a, "--sort="):
			sortKey = a[len("--sort="):]
			switch strings.TrimPrefix(sortKey, "-") {
			case "refname", "version:refname", "v:refname":
			default:
				return c.fatal("unsupported sort specification '%s'", sortKey)
			}
		case a == "-a" || a == "--annotate":
			annotate = true
		case a == "-l" || a == "--list":
			list = true
		case a == "-f" || a == "--force":
			force = true
		case a == "-m" || a == "--message":
			if i+1 < len(c.args) {
				i++
				msgs = append(msgs, c.args[i])
			}
			annotate = true
		case strings.HasPrefix(a, "-m"):
			msgs = append(msgs, a[2:])
			annotate = true
		case a == "-am":
			annotate = true
			if i+1 < len(c.args) {
				i++
				msgs = append(msgs, c.args[i])
			}
		case strings.HasPrefix(a, "-"):
			return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
		default:
			names = append(names, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	out := c.env.Out()
	if del {
		code := 0
		for _, n := range names {
			ref, err := c.repo.Storer.Reference(plumbing.NewTagReferenceName(n))
			if err != nil {
				fmt.Fprintf(c.env.Stderr, "error: tag '%s' not found.\n", n)
				code = 1
				continue
			}
			c.repo.Storer.RemoveReference(ref.Name())
			fmt.Fprintf(out, "Deleted tag '%s' (was %s)\n", n, abbrev(ref.Hash()))
		}
		if code != 0 {
			return &exitError{code}
		}
		return nil
	}
	if list || len(names) == 0 {
		var tags []string
		refs, err := c.repo.Tags()
		if err == nil {
			refs.ForEach(func(r *plumbing.Reference) error {
				tags = append(tags, r.Name().Short())
				return nil
			})
		}
		sortTags(tags, sortKey)
		var within plumbing.Hash
		if contains != "" {
			cm, err := c.resolve(contains)
			if err != nil {
				return c.errorf(129, "malformed object name %s", contains)
			}
			within = cm.Hash
		}
		for _, t := range tags {
			if contains != "" {
				cm, err := c.resolve("refs/tags/" + t)
				if err != nil || !c.isAncestor(within, cm.Hash) {
					continue
				}
			}
			if len(names) > 0 {
				ok := false
				for _, pat := range names {
					if m, _ := path.Match(pat, t); m {
						ok = true
					}
				}
				if !ok {
					continue
				}
			}
			if lines {
				fmt.Fprintf(out, "%-15s %s\n", t, c.tagSubject(t))
				continue
			}
			fmt.Fprintln(out, t)
		}
		return nil
	}
	name := names[0]
	if !validRefName(name) {
		return c.fatal("'%s' is not a valid tag name.", name)
	}
	rev := "HEAD"
	if len(names) > 1 {
		rev = names[1]
	}
	ref := plumbing.NewTagReferenceName(name)
	prev, err := c.repo.Storer.Reference(ref)
	if err == nil && !force {
		return c.fatal("tag '%s' already exists", name)
	}
	cm, err := c.resolve(rev)
	if err != nil {
		return c.fatal("Failed to resolve '%s' as a valid ref.", rev)
	}
	target := cm.Hash
	if annotate {
		if len(msgs) == 0 {
			return c.fatal("no tag message given (use -m)")
		}
		tagger, err := c.identity("COMMITTER")
		if err != nil {
			return err
		}
		t := &object.Tag{Name: name, Tagger: *tagger, Message: cleanMessage(strings.Join(msgs, "\n\n")), TargetType: plumbing.CommitObject, Target: cm.Hash}
		o := c.repo.Storer.NewEncodedObject()
		if err := t.Encode(o); err != nil {
			return c.fatal("%s", err)
		}
		if target, err = c.repo.Storer.SetEncodedObject(o); err != nil {
			return c.fatal("%s", err)
		}
	}
	if prev != nil && prev.Hash() != target {
		fmt.Fprintf(out, "Updated tag '%s' (was %s)\n", name, abbrev(prev.Hash()))
	}
	return c.repo.Storer.SetReference(plumbing.NewHashReference(ref, target))
}

// tagSubject is the first line git tag -n shows: the annotation's, or the
// commit's subject for a lightweight tag.
func (c *cmd) tagSubject(name string) string {
	ref, err := c.repo.Storer.Reference(plumbing.NewTagReferenceName(name))
	if err != nil {
		return ""
	}
	if t, err := c.repo.TagObject(ref.Hash()); err == nil {
		l, _, _ := strings.Cut(strings.TrimRight(t.Message, "\n"), "\n")
		return l
	}
	cm, err := c.repo.CommitObject(ref.Hash())
	if err != nil {
		return ""
	}
	return subjectOf(cm)
}

// sortTags orders tag names by refname or version ("-" reverses).
func sortTags(tags []string, key string) {
	desc := strings.HasPrefix(key, "-")
	key = strings.TrimPrefix(key, "-")
	less := func(a, b string) bool { return a < b }
	if key != "refname" {
		less = versionLess
	}
	sort.SliceStable(tags, func(i, j int) bool {
		if desc {
			return less(tags[j], tags[i])
		}
		return less(tags[i], tags[j])
	})
}

// versionLess compares names with runs of digits taken as numbers
// ("v1.10" after "v1.9").
func versionLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// Merge state files.
func (c *cmd) merging() bool {
	_, err := os.Stat(filepath.Join(c.gitDir(), "MERGE_HEAD"))
	return err == nil
}

func (c *cmd) mergeHead() plumbing.Hash {
	b, err := os.ReadFile(filepath.Join(c.gitDir(), "MERGE_HEAD"))
	if err != nil {
		return plumbing.ZeroHash
	}
	return plumbing.NewHash(strings.TrimSpace(string(b)))
}

func (c *cmd) clearMerge() {
	for _, f := range []string{"MERGE_HEAD", "MERGE_MSG", "MERGE_MODE"} {
		os.Remove(filepath.Join(c.gitDir(), f))
	}
}

// unmergedPaths lists the index's conflicted paths.
func (c *cmd) unmergedPaths() []string {
	idx, err := c.readIndex()
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, e := range idx.Entries {
		if e.Stage != 0 && !seen[e.Name] {
			seen[e.Name] = true
			out = append(out, e.Name)
		}
	}
	sort.Strings(out)
	return out
}
