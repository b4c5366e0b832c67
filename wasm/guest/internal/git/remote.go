package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	gogit "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// The remote commands: remote, clone, fetch, pull, push and ls-remote.
// go-git speaks the protocol; http and https go through hostTransport
// (the sandbox's network policy). What they print is git 2.39's.

// editConfig changes the repository's config file with edit.
func (c *cmd) editConfig(edit func(cfg *config.Config)) error {
	file := filepath.Join(c.gitDir(), "config")
	cfg, err := readConfig(file)
	if err != nil {
		return c.fatal("%s", err)
	}
	edit(cfg)
	var buf bytes.Buffer
	if err := config.NewEncoder(&buf).Encode(cfg); err != nil {
		return c.fatal("%s", err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		return c.errorf(4, "could not write config file %s: %s", file, err)
	}
	return nil
}

// remoteURL is the URL of the named remote, or "" if there is none.
func (c *cmd) remoteURL(name string) string {
	u, _ := c.getConfig("remote." + name + ".url")
	return u
}

// remoteNames lists the configured remotes, sorted.
func (c *cmd) remoteNames() []string {
	cfg, err := readConfig(filepath.Join(c.gitDir(), "config"))
	if err != nil {
		return nil
	}
	var names []string
	for _, ss := range cfg.Section("remote").Subsections {
		if ss.Option("url") != "" {
			names = append(names, ss.Name)
		}
	}
	sort.Strings(names)
	return names
}

func (c *cmd) remoteCmd() error {
	if err := c.open(); err != nil {
		return err
	}
	out := c.env.Out()
	args := c.args
	verbose := false
	if len(args) > 0 && (args[0] == "-v" || args[0] == "--verbose") {
		verbose, args = true, args[1:]
	}
	if len(args) == 0 {
		for _, n := range c.remoteNames() {
			if verbose {
				u := c.remoteURL(n)
				fmt.Fprintf(out, "%s\t%s (fetch)\n%s\t%s (push)\n", n, u, n, u)
			} else {
				fmt.Fprintln(out, n)
			}
		}
		return nil
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "add":
		if len(rest) != 2 {
			fmt.Fprint(c.env.Stderr, "usage: git remote add [<options>] <name> <url>\n")
			return &exitError{129}
		}
		name, u := rest[0], rest[1]
		if !validRefName(name) {
			return c.fatal("'%s' is not a valid remote name", name)
		}
		if c.remoteURL(name) != "" {
			return c.errorf(3, "remote %s already exists.", name)
		}
		return c.editConfig(func(cfg *config.Config) {
			s := cfg.Section("remote").Subsection(name)
			s.SetOption("url", u)
			s.SetOption("fetch", "+refs/heads/*:refs/remotes/"+name+"/*")
		})
	case "remove", "rm":
		if len(rest) != 1 {
			fmt.Fprint(c.env.Stderr, "usage: git remote remove <name>\n")
			return &exitError{129}
		}
		name := rest[0]
		if c.remoteURL(name) == "" {
			return c.errorf(2, "No such remote: '%s'", name)
		}
		prefix := "refs/remotes/" + name + "/"
		refs, _ := c.repo.References()
		if refs != nil {
			var drop []plumbing.ReferenceName
			refs.ForEach(func(r *plumbing.Reference) error {
				if strings.HasPrefix(r.Name().String(), prefix) {
					drop = append(drop, r.Name())
				}
				return nil
			})
			for _, n := range drop {
				c.repo.Storer.RemoveReference(n)
			}
		}
		return c.editConfig(func(cfg *config.Config) {
			cfg.Section("remote").RemoveSubsection(name)
			br := cfg.Section("branch")
			for _, ss := range br.Subsections {
				if ss.Option("remote") == name {
					ss.RemoveOption("remote")
					ss.RemoveOption("merge")
				}
			}
		})
	case "get-url":
		if len(rest) != 1 {
			fmt.Fprint(c.env.Stderr, "usage: git remote get-url [--push] [--all] <name>\n")
			return &exitError{129}
		}
		u := c.remoteURL(rest[0])
		if u == "" {
			return c.errorf(2, "No such remote '%s'", rest[0])
		}
		fmt.Fprintln(out, u)
		return nil
	case "set-url":
		if len(rest) != 2 {
			fmt.Fprint(c.env.Stderr, "usage: git remote set-url [--push] <name> <newurl> [<oldurl>]\n")
			return &exitError{129}
		}
		if c.remoteURL(rest[0]) == "" {
			return c.errorf(2, "No such remote '%s'", rest[0])
		}
		return c.editConfig(func(cfg *config.Config) {
			cfg.Section("remote").Subsection(rest[0]).SetOption("url", rest[1])
		})
	}
	return c.errorf(129, "unknown subcommand: `%s'", sub)
}

// endpointURL makes a local path absolute (go-git's in-process server
// serves it); URLs lose a trailing slash.
func endpointURL(u string) string {
	if strings.Contains(u, "://") {
		return strings.TrimRight(u, "/")
	}
	abs, err := filepath.Abs(u)
	if err != nil {
		return u
	}
	// A work tree's repository is its .git directory.
	if fi, err := os.Stat(filepath.Join(abs, ".git")); err == nil && fi.IsDir() {
		return filepath.Join(abs, ".git")
	}
	return abs
}

// displayURL is a URL as git's error messages show it, with a slash.
func displayURL(u string) string {
	if strings.HasSuffix(u, "/") {
		return u
	}
	return u + "/"
}

// fetchDisplayURL is a URL as fetch's "From" line shows it: without
// trailing slashes and ".git".
func fetchDisplayURL(u string) string {
	u = strings.TrimRight(u, "/")
	if len(u) > 4 {
		u = strings.TrimSuffix(u, ".git")
	}
	return u
}

// netFail reports a failed exchange with the remote at u as git does.
func (c *cmd) netFail(u string, err error) error {
	switch {
	case errors.Is(err, transport.ErrRepositoryNotFound):
		if !strings.Contains(u, "://") {
			return c.fatal("'%s' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.", u)
		}
		return c.fatal("repository '%s' not found", displayURL(u))
	case errors.Is(err, transport.ErrAuthenticationRequired) || errors.Is(err, transport.ErrAuthorizationFailed):
		return c.fatal("Authentication failed for '%s'", displayURL(u))
	}
	if ne := hostHTTP.networkError(); ne != nil {
		return c.fatal("unable to access '%s': %s", displayURL(u), ne.Msg)
	}
	return c.fatal("%s", err)
}

// refMap is a snapshot of the repository's references (name → hash).
func (c *cmd) refMap() map[string]plumbing.Hash {
	m := map[string]plumbing.Hash{}
	refs, err := c.repo.References()
	if err != nil {
		return m
	}
	refs.ForEach(func(r *plumbing.Reference) error {
		if r.Type() == plumbing.HashReference {
			m[r.Name().String()] = r.Hash()
		}
		return nil
	})
	return m
}

// prettyRef shortens a reference name as git's reports do.
func prettyRef(n string) string {
	for _, p := range []string{"refs/heads/", "refs/tags/", "refs/remotes/"} {
		if s, ok := strings.CutPrefix(n, p); ok {
			return s
		}
	}
	return n
}

// fetchLine is one line of fetch's or push's report.
type fetchLine struct {
	flag          byte
	summary       string
	remote, local string
	note          string
	sortKey       string
	deleted       bool
}

// fetchFrom fetches from the named remote and prints git's report
// (unless quiet). It returns the remote's URL.
func (c *cmd) fetchFrom(name string, prune, tags, quiet bool) (string, error) {
	u := c.remoteURL(name)
	if u == "" {
		if strings.Contains(name, "://") || strings.Contains(name, "/") {
			return "", c.fatal("fetching from a URL without a configured remote is not supported here: use 'git remote add'")
		}
		return "", c.fatal("'%s' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.", name)
	}
	installTransport()
	before := c.refMap()
	// go-git's prune takes refs/remotes/NAME/HEAD for a stale branch.
	remoteHead, _ := c.repo.Storer.Reference(plumbing.NewRemoteHEADReferenceName(name))
	defer func() {
		if remoteHead != nil {
			if _, err := c.repo.Storer.Reference(remoteHead.Name()); err != nil {
				c.repo.Storer.SetReference(remoteHead)
			}
		}
	}()
	rc := &gitconfig.RemoteConfig{Name: name, URLs: []string{endpointURL(u)}, Fetch: c.fetchSpecs(name)}
	remote := gogit.NewRemote(c.repo.Storer, rc)
	mode := gogit.TagFollowing
	if tags {
		mode = gogit.AllTags
	}
	err := remote.FetchContext(context.Background(), &gogit.FetchOptions{RemoteName: name, Tags: mode, Prune: prune})
	if err != nil && !errors.Is(err, gogit.NoErrAlreadyUpToDate) && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return u, c.netFail(u, err)
	}
	if !tags {
		if err := c.followTags(remote, name); err != nil {
			return u, c.netFail(u, err)
		}
	}
	after := c.refMap()
	if quiet {
		return u, nil
	}
	prefix := "refs/remotes/" + name + "/"
	var lines []fetchLine
	for ref, h := range after {
		old, had := before[ref]
		if had && old == h {
			continue
		}
		l := fetchLine{local: prettyRef(ref)}
		switch {
		case strings.HasPrefix(ref, prefix):
			l.remote = strings.TrimPrefix(ref, prefix)
			l.sortKey = "refs/heads/" + l.remote
		case strings.HasPrefix(ref, "refs/tags/"):
			l.remote = prettyRef(ref)
			l.sortKey = ref
		default:
			continue
		}
		switch {
		case !had && strings.HasPrefix(ref, "refs/tags/"):
			l.flag, l.summary = '*', "[new tag]"
		case !had:
			l.flag, l.summary = '*', "[new branch]"
		case strings.HasPrefix(ref, "refs/tags/"):
			l.flag, l.summary, l.note = 't', "[tag update]", ""
		case c.isAncestor(old, h):
			l.flag, l.summary = ' ', abbrev(old)+".."+abbrev(h)
		default:
			l.flag, l.summary, l.note = '+', abbrev(old)+"..."+abbrev(h), "forced update"
		}
		lines = append(lines, l)
	}
	for ref := range before {
		if _, ok := after[ref]; !ok && strings.HasPrefix(ref, prefix) {
			lines = append(lines, fetchLine{flag: '-', summary: "[deleted]", remote: "(none)", local: prettyRef(ref), deleted: true})
		}
	}
	sort.SliceStable(lines, func(i, j int) bool {
		if lines[i].deleted != lines[j].deleted {
			return lines[i].deleted
		}
		if lines[i].deleted {
			return lines[i].local < lines[j].local
		}
		return lines[i].sortKey < lines[j].sortKey
	})
	if len(lines) == 0 {
		return u, nil
	}
	width := 10
	for _, l := range lines {
		if l.deleted {
			continue
		}
		if n := len(l.remote); 21+n+4+len(l.local) < 80 && n > width {
			width = n
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From %s\n", fetchDisplayURL(u))
	for _, l := range lines {
		fmt.Fprintf(&b, " %c %-17s %-*s -> %s", l.flag, l.summary, width, l.remote, l.local)
		if l.note != "" {
			fmt.Fprintf(&b, "  (%s)", l.note)
		}
		b.WriteByte('\n')
	}
	c.env.Out().Flush()
	fmt.Fprint(c.env.Stderr, b.String())
	return u, nil
}

// followTags fetches the remote's tags that point at objects the
// repository now has, as git's fetch does (go-git's TagFollowing misses
// annotated tags on commits that were already here).
func (c *cmd) followTags(remote *gogit.Remote, name string) error {
	refs, err := remote.ListContext(context.Background(), &gogit.ListOptions{PeelingOption: gogit.AppendPeeled})
	if err != nil {
		if errors.Is(err, transport.ErrEmptyRemoteRepository) {
			return nil
		}
		return err
	}
	target := map[string]plumbing.Hash{}
	for _, r := range refs {
		n := r.Name().String()
		if r.Type() != plumbing.HashReference || !strings.HasPrefix(n, "refs/tags/") {
			continue
		}
		if base, ok := strings.CutSuffix(n, "^{}"); ok {
			target[base] = r.Hash()
		} else if _, seen := target[n]; !seen {
			target[n] = r.Hash()
		}
	}
	var specs []gitconfig.RefSpec
	for n, h := range target {
		if _, err := c.repo.Storer.Reference(plumbing.ReferenceName(n)); err == nil {
			continue
		}
		if _, err := c.repo.Storer.EncodedObject(plumbing.AnyObject, h); err != nil {
			continue
		}
		specs = append(specs, gitconfig.RefSpec(n+":"+n))
	}
	if len(specs) == 0 {
		return nil
	}
	err = remote.FetchContext(context.Background(), &gogit.FetchOptions{RemoteName: name, RefSpecs: specs, Tags: gogit.NoTags})
	if errors.Is(err, gogit.NoErrAlreadyUpToDate) {
		return nil
	}
	return err
}

// openQuiet opens the repository around the working directory, if there
// is one, without a message.
func (c *cmd) openQuiet() {
	repo, err := gogit.PlainOpenWithOptions(".", &gogit.PlainOpenOptions{DetectDotGit: true})
	if err != nil {
		return
	}
	wt, err := repo.Worktree()
	if err != nil {
		return
	}
	c.repo, c.wt, c.root = repo, wt, wt.Filesystem.Root()
}

// fetchSpecs are the remote's fetch refspecs (git's default if none).
func (c *cmd) fetchSpecs(name string) []gitconfig.RefSpec {
	cfg, err := readConfig(filepath.Join(c.gitDir(), "config"))
	var specs []gitconfig.RefSpec
	if err == nil {
		for _, v := range cfg.Section("remote").Subsection(name).OptionAll("fetch") {
			specs = append(specs, gitconfig.RefSpec(v))
		}
	}
	if len(specs) == 0 {
		specs = []gitconfig.RefSpec{gitconfig.RefSpec("+refs/heads/*:refs/remotes/" + name + "/*")}
	}
	return specs
}

func (c *cmd) fetch() error {
	prune, tags, quiet, all := false, false, false, false
	var names []string
	for _, a := range c.args {
		switch a {
		case "-p", "--prune":
			prune = true
		case "-t", "--tags":
			tags = true
		case "-q", "--quiet":
			quiet = true
		case "--all":
			all = true
		case "-v", "--verbose", "--no-tags", "--progress", "--no-progress":
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
	if all {
		names = c.remoteNames()
	} else if len(names) == 0 {
		names = []string{c.upstreamRemote()}
	} else if len(names) > 1 {
		return c.fatal("fetching a refspec is not supported here: run 'git fetch %s'", names[0])
	}
	for _, n := range names {
		if _, err := c.fetchFrom(n, prune, tags, quiet); err != nil {
			return err
		}
	}
	return nil
}

// upstreamRemote is the current branch's remote, or origin.
func (c *cmd) upstreamRemote() string {
	if b := c.currentBranch(); b != "" {
		if r, ok := c.getConfig("branch." + b + ".remote"); ok && r != "" {
			return r
		}
	}
	return "origin"
}

// currentBranch is the short name of the checked-out branch ("" if HEAD
// is detached).
func (c *cmd) currentBranch() string {
	return strings.TrimPrefix(string(c.headRef()), "refs/heads/")
}

// upstream returns the remote and the remote-tracking reference the
// branch follows ("origin", "refs/remotes/origin/master"), or "" if it
// follows none.
func (c *cmd) upstream(branch string) (remote string, ref plumbing.ReferenceName) {
	if branch == "" {
		return "", ""
	}
	r, ok := c.getConfig("branch." + branch + ".remote")
	m, ok2 := c.getConfig("branch." + branch + ".merge")
	if !ok || !ok2 || r == "" || m == "" {
		return "", ""
	}
	short := strings.TrimPrefix(m, "refs/heads/")
	if r == "." {
		return r, plumbing.NewBranchReferenceName(short)
	}
	return r, plumbing.NewRemoteReferenceName(r, short)
}

// aheadBehind counts the commits reachable from a and not b, and the
// other way round.
func (c *cmd) aheadBehind(a, b plumbing.Hash) (ahead, behind int) {
	reach := func(h plumbing.Hash) map[plumbing.Hash]bool {
		seen := map[plumbing.Hash]bool{}
		stack := []plumbing.Hash{h}
		for len(stack) > 0 {
			h := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[h] {
				continue
			}
			seen[h] = true
			if cm, err := c.repo.CommitObject(h); err == nil {
				stack = append(stack, cm.ParentHashes...)
			}
		}
		return seen
	}
	ra, rb := reach(a), reach(b)
	for h := range ra {
		if !rb[h] {
			ahead++
		}
	}
	for h := range rb {
		if !ra[h] {
			behind++
		}
	}
	return ahead, behind
}

// trackingInfo describes the current branch against its upstream: the
// long status lines and the short "[ahead 1, behind 2]" note. ok is false
// when the branch has no upstream.
func (c *cmd) trackingInfo() (long, short, name string, ok bool) {
	_, ref := c.upstream(c.currentBranch())
	if ref == "" {
		return "", "", "", false
	}
	name = prettyRef(ref.String())
	up, err := c.repo.Storer.Reference(ref)
	if err != nil {
		return fmt.Sprintf("Your branch is based on '%s', but the upstream is gone.\n  (use \"git branch --unset-upstream\" to fixup)\n", name), " [gone]", name, true
	}
	head, err := c.repo.Head()
	if err != nil {
		return "", "", name, true
	}
	ahead, behind := c.aheadBehind(head.Hash(), up.Hash())
	commits := func(n int) string { return plural(n, "commit", "commits") }
	switch {
	case ahead == 0 && behind == 0:
		return fmt.Sprintf("Your branch is up to date with '%s'.\n", name), "", name, true
	case behind == 0:
		return fmt.Sprintf("Your branch is ahead of '%s' by %s.\n  (use \"git push\" to publish your local commits)\n", name, commits(ahead)), fmt.Sprintf(" [ahead %d]", ahead), name, true
	case ahead == 0:
		return fmt.Sprintf("Your branch is behind '%s' by %s, and can be fast-forwarded.\n  (use \"git pull\" to update your local branch)\n", name, commits(behind)), fmt.Sprintf(" [behind %d]", behind), name, true
	}
	return fmt.Sprintf("Your branch and '%s' have diverged,\nand have %d and %d different commits each, respectively.\n  (use \"git pull\" to merge the remote branch into yours)\n", name, ahead, behind),
		fmt.Sprintf(" [ahead %d, behind %d]", ahead, behind), name, true
}

// humanish is the directory git clone makes for a URL: its last path
// element without ".git".
func humanish(u string) string {
	u = strings.TrimRight(u, "/")
	u = strings.TrimSuffix(u, "/.git")
	if i := strings.LastIndexAny(u, "/:"); i >= 0 {
		u = u[i+1:]
	}
	u = strings.TrimSuffix(u, ".git")
	if u == "" {
		u = "repo"
	}
	return u
}

func (c *cmd) clone() error {
	quiet, noCheckout := false, false
	branch, origin := "", "origin"
	var pos []string
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "-n" || a == "--no-checkout":
			noCheckout = true
		case (a == "-b" || a == "--branch" || a == "-o" || a == "--origin") && i+1 < len(c.args):
			i++
			if a == "-b" || a == "--branch" {
				branch = c.args[i]
			} else {
				origin = c.args[i]
			}
		case strings.HasPrefix(a, "--branch="):
			branch = strings.TrimPrefix(a, "--branch=")
		case a == "--progress" || a == "--no-progress" || a == "-v" || a == "--verbose" || a == "--single-branch" || a == "--no-single-branch":
		case strings.HasPrefix(a, "-"):
			return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
		default:
			pos = append(pos, a)
		}
	}
	if len(pos) == 0 || len(pos) > 2 {
		fmt.Fprint(c.env.Stderr, "fatal: You must specify a repository to clone.\n\nusage: git clone [<options>] [--] <repo> [<dir>]\n")
		return &exitError{129}
	}
	u := pos[0]
	dir := humanish(u)
	if len(pos) == 2 {
		dir = pos[1]
	}
	existed := false
	if ents, err := os.ReadDir(dir); err == nil {
		existed = true
		if len(ents) > 0 {
			return c.fatal("destination path '%s' already exists and is not an empty directory.", dir)
		}
	} else if _, err := os.Stat(dir); err == nil {
		return c.fatal("destination path '%s' already exists and is not an empty directory.", dir)
	}
	if !quiet {
		fmt.Fprintf(c.env.Stderr, "Cloning into '%s'...\n", dir)
	}
	cleanup := func() {
		if existed {
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				os.RemoveAll(filepath.Join(dir, e.Name()))
			}
		} else {
			os.RemoveAll(dir)
		}
	}
	initc := &cmd{env: c.env, args: []string{"-q", dir}}
	if err := initc.initCmd(); err != nil {
		cleanup()
		return err
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		cleanup()
		return c.fatal("%s", err)
	}
	defer os.Chdir(wd)
	if err := c.open(); err != nil {
		os.Chdir(wd)
		cleanup()
		return err
	}
	// A relative local path is relative to where clone ran.
	stored := u
	if !strings.Contains(u, "://") && !filepath.IsAbs(u) {
		stored = filepath.Join(wd, u)
	}
	if err := c.editConfig(func(cfg *config.Config) {
		s := cfg.Section("remote").Subsection(origin)
		s.SetOption("url", stored)
		s.SetOption("fetch", "+refs/heads/*:refs/remotes/"+origin+"/*")
	}); err != nil {
		os.Chdir(wd)
		cleanup()
		return err
	}
	installTransport()
	remote := gogit.NewRemote(c.repo.Storer, &gitconfig.RemoteConfig{Name: origin, URLs: []string{endpointURL(stored)}})
	advertised, err := remote.ListContext(context.Background(), &gogit.ListOptions{})
	empty := errors.Is(err, transport.ErrEmptyRemoteRepository)
	if err == nil && len(advertised) == 0 {
		empty = true
	}
	if err != nil && !empty {
		os.Chdir(wd)
		cleanup()
		return c.netFail(u, err)
	}
	if empty {
		c.env.Out().Flush()
		fmt.Fprint(c.env.Stderr, "warning: You appear to have cloned an empty repository.\n")
		return c.setUpstream(c.currentBranch(), origin, c.currentBranch())
	}
	if _, err := c.fetchFrom(origin, false, false, true); err != nil {
		os.Chdir(wd)
		cleanup()
		return err
	}
	// The branch to check out: -b, or the one the remote's HEAD names.
	var head plumbing.ReferenceName
	for _, r := range advertised {
		if r.Name() == plumbing.HEAD && r.Type() == plumbing.SymbolicReference {
			head = r.Target()
		}
	}
	if head != "" {
		c.repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.NewRemoteHEADReferenceName(origin), plumbing.NewRemoteReferenceName(origin, head.Short())))
	}
	if branch != "" {
		head = plumbing.NewBranchReferenceName(branch)
		if _, err := c.repo.Storer.Reference(plumbing.NewRemoteReferenceName(origin, branch)); err != nil {
			os.Chdir(wd)
			cleanup()
			return c.fatal("Remote branch %s not found in upstream %s", branch, origin)
		}
	}
	if head == "" {
		c.env.Out().Flush()
		fmt.Fprint(c.env.Stderr, "warning: remote HEAD refers to nonexistent ref, unable to checkout\n\n")
		return nil
	}
	short := head.Short()
	tip, err := c.repo.Storer.Reference(plumbing.NewRemoteReferenceName(origin, short))
	if err != nil {
		c.env.Out().Flush()
		fmt.Fprint(c.env.Stderr, "warning: remote HEAD refers to nonexistent ref, unable to checkout\n\n")
		return nil
	}
	if err := c.repo.Storer.SetReference(plumbing.NewHashReference(head, tip.Hash())); err != nil {
		return c.fatal("%s", err)
	}
	if err := c.repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, head)); err != nil {
		return c.fatal("%s", err)
	}
	if err := c.setUpstream(short, origin, short); err != nil {
		return err
	}
	if !quiet && !strings.Contains(u, "://") {
		fmt.Fprint(c.env.Stderr, "done.\n")
	}
	if noCheckout {
		return nil
	}
	cm, err := c.repo.CommitObject(tip.Hash())
	if err != nil {
		return c.fatal("%s", err)
	}
	next, err := c.treeFiles(cm)
	if err != nil {
		return c.fatal("%s", err)
	}
	for p, e := range next {
		if err := c.writeWork(p, e); err != nil {
			return c.fatal("%s", err)
		}
	}
	return c.writeIndex(next)
}

// setUpstream records that branch follows remote's branch remoteBranch.
func (c *cmd) setUpstream(branch, remote, remoteBranch string) error {
	if branch == "" {
		return nil
	}
	return c.editConfig(func(cfg *config.Config) {
		s := cfg.Section("branch").Subsection(branch)
		s.SetOption("remote", remote)
		s.SetOption("merge", "refs/heads/"+remoteBranch)
	})
}

func (c *cmd) pull() error {
	quiet, ffOnly, noRebase, noFF := false, false, false, false
	var pos []string
	for _, a := range c.args {
		switch a {
		case "-q", "--quiet":
			quiet = true
		case "--ff-only":
			ffOnly = true
		case "--no-rebase":
			noRebase = true
		case "--no-ff":
			noRebase, noFF = true, true
		case "--ff", "--no-edit", "--stat", "-v", "--verbose":
		case "-r", "--rebase":
			return c.fatal("pull --rebase is not supported here (there is no rebase): use 'git pull --no-rebase'")
		default:
			if strings.HasPrefix(a, "-") {
				return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
			}
			pos = append(pos, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	branch := c.currentBranch()
	remote, ref := c.upstream(branch)
	switch len(pos) {
	case 0:
		if ref == "" {
			if c.remoteURL(c.upstreamRemote()) != "" {
				if _, err := c.fetchFrom(c.upstreamRemote(), false, false, quiet); err != nil {
					return err
				}
			}
			if branch == "" {
				fmt.Fprint(c.env.Stderr, "You are not currently on a branch.\nPlease specify which branch you want to merge with.\nSee git-pull(1) for details.\n\n    git pull <remote> <branch>\n\n")
				return &exitError{1}
			}
			fmt.Fprintf(c.env.Stderr, "There is no tracking information for the current branch.\nPlease specify which branch you want to merge with.\nSee git-pull(1) for details.\n\n    git pull <remote> <branch>\n\nIf you wish to set tracking information for this branch you can do so with:\n\n    git branch --set-upstream-to=%s/<branch> %s\n\n", c.upstreamRemote(), branch)
			return &exitError{1}
		}
	case 1:
		remote = pos[0]
		if _, r := c.upstream(branch); r == "" || !strings.HasPrefix(r.String(), "refs/remotes/"+remote+"/") {
			return c.fatal("pulling from '%s' without a branch is only supported for the branch's upstream: run 'git pull %s <branch>'", remote, remote)
		}
	case 2:
		remote, ref = pos[0], plumbing.NewRemoteReferenceName(pos[0], pos[1])
	default:
		return c.fatal("pulling more than one branch is not supported here")
	}
	u, err := c.fetchFrom(remote, false, false, quiet)
	if err != nil {
		return err
	}
	theirs, err := c.repo.Storer.Reference(ref)
	if err != nil {
		return c.fatal("couldn't find remote ref %s", strings.TrimPrefix(ref.String(), "refs/remotes/"+remote+"/"))
	}
	head, _ := c.headCommit()
	if head != nil && !c.isAncestor(head.Hash, theirs.Hash()) && !c.isAncestor(theirs.Hash(), head.Hash) {
		ff, _ := c.getConfig("pull.ff")
		rebase, hasRebase := c.getConfig("pull.rebase")
		switch {
		case ffOnly || ff == "only":
			return c.fatal("Not possible to fast-forward, aborting.")
		case noRebase || hasRebase && rebase == "false" || ff == "false" || ff == "true":
		case hasRebase && rebase != "false":
			return c.fatal("pull.rebase is set, but rebase is not supported here: use 'git pull --no-rebase'")
		default:
			c.env.Out().Flush()
			fmt.Fprint(c.env.Stderr, "hint: You have divergent branches and need to specify how to reconcile them.\nhint: You can do so by running one of the following commands sometime before\nhint: your next pull:\nhint: \nhint:   git config pull.rebase false  # merge\nhint:   git config pull.rebase true   # rebase\nhint:   git config pull.ff only       # fast-forward only\nhint: \nhint: You can replace \"git config\" with \"git config --global\" to set a default\nhint: preference for all repositories. You can also pass --rebase, --no-rebase,\nhint: or --ff-only on the command line to override the configured default per\nhint: invocation.\nfatal: Need to specify how to reconcile divergent branches.\n")
			return &exitError{128}
		}
	}
	short := strings.TrimPrefix(ref.String(), "refs/remotes/"+remote+"/")
	msg := fmt.Sprintf("Merge branch '%s' of %s", short, fetchDisplayURL(u))
	args := []string{"--no-edit", "-m", msg, ref.String()}
	if noFF {
		args = append([]string{"--no-ff"}, args...)
	}
	m := &cmd{env: c.env, args: args, quiet: quiet}
	return m.merge()
}

// pushUpdate is one reference push would update.
type pushUpdate struct {
	src, dst plumbing.ReferenceName
	old, new plumbing.Hash
	force    bool
	delete   bool
	line     fetchLine
	rejected string // "fetch first", "non-fast-forward", "already exists"
	upToDate bool
	track    bool // -u: the branch follows what it was pushed to
}

func (c *cmd) push() error {
	quiet, setUp, force, tags, del := false, false, false, false, false
	var pos []string
	for _, a := range c.args {
		switch a {
		case "-q", "--quiet":
			quiet = true
		case "-u", "--set-upstream":
			setUp = true
		case "-f", "--force":
			force = true
		case "--tags":
			tags = true
		case "-d", "--delete":
			del = true
		case "-v", "--verbose", "--progress", "--no-progress", "--no-verify":
		default:
			if strings.HasPrefix(a, "-") {
				return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
			}
			pos = append(pos, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	branch := c.currentBranch()
	remoteName := c.upstreamRemote()
	if len(pos) > 0 {
		remoteName, pos = pos[0], pos[1:]
	}
	u := c.remoteURL(remoteName)
	if u == "" {
		return c.fatal("'%s' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.", remoteName)
	}
	var specs []string
	switch {
	case len(pos) > 0:
		specs = pos
	case tags:
	default:
		if branch == "" {
			return c.fatal("You are not currently on a branch.\nTo push the history leading to the current (detached HEAD)\nstate now, use\n\n    git push %s HEAD:<name-of-remote-branch>\n", remoteName)
		}
		_, ref := c.upstream(branch)
		if ref == "" {
			if ok, _ := c.getConfig("push.autosetupremote"); ok == "true" {
				setUp = true
				specs = []string{branch}
				break
			}
			return c.fatal("The current branch %s has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream %s %s\n\nTo have this happen automatically for branches without a tracking\nupstream, see 'push.autoSetupRemote' in 'git help config'.\n", branch, remoteName, branch)
		}
		merge, _ := c.getConfig("branch." + branch + ".merge")
		specs = []string{"refs/heads/" + branch + ":" + merge}
	}
	var updates []*pushUpdate
	for _, s := range specs {
		p := &pushUpdate{force: force}
		if strings.HasPrefix(s, "+") {
			p.force, s = true, s[1:]
		}
		src, dst, hasDst := strings.Cut(s, ":")
		if del {
			src, dst, hasDst = "", s, true
		}
		if src == "" && hasDst {
			p.delete = true
			p.dst = c.remoteRefName(dst, "")
			updates = append(updates, p)
			continue
		}
		if src == "HEAD" {
			if branch == "" {
				if !hasDst {
					return c.fatal("HEAD does not refer to a branch")
				}
			} else {
				src = branch
			}
		}
		srcRef, h, ok := c.localRef(src)
		if !ok {
			c.env.Out().Flush()
			fmt.Fprintf(c.env.Stderr, "error: src refspec %s does not match any\nerror: failed to push some refs to '%s'\n", src, u)
			return &exitError{1}
		}
		p.src, p.new = srcRef, h
		if !hasDst {
			dst = src
			if srcRef.IsBranch() || srcRef.IsTag() {
				dst = srcRef.String()
			}
		}
		p.dst = c.remoteRefName(dst, srcRef)
		p.track = setUp && srcRef.IsBranch()
		updates = append(updates, p)
	}
	if tags {
		refs, _ := c.repo.Tags()
		if refs != nil {
			refs.ForEach(func(r *plumbing.Reference) error {
				updates = append(updates, &pushUpdate{src: r.Name(), dst: r.Name(), new: r.Hash(), force: force})
				return nil
			})
		}
	}
	installTransport()
	remote := gogit.NewRemote(c.repo.Storer, &gitconfig.RemoteConfig{Name: remoteName, URLs: []string{endpointURL(u)}, Fetch: c.fetchSpecs(remoteName)})
	advertised, err := remote.ListContext(context.Background(), &gogit.ListOptions{})
	if err != nil && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return c.netFail(u, err)
	}
	theirs := map[plumbing.ReferenceName]plumbing.Hash{}
	for _, r := range advertised {
		if r.Type() == plumbing.HashReference {
			theirs[r.Name()] = r.Hash()
		}
	}
	var accepted []gitconfig.RefSpec
	rejected, shown := 0, 0
	for _, p := range updates {
		old, exists := theirs[p.dst]
		p.old = old
		l := &p.line
		l.remote, l.local = prettyRef(p.src.String()), prettyRef(p.dst.String())
		switch {
		case p.delete && !exists:
			c.env.Out().Flush()
			fmt.Fprintf(c.env.Stderr, "error: unable to delete '%s': remote ref does not exist\nerror: failed to push some refs to '%s'\n", prettyRef(p.dst.String()), u)
			return &exitError{1}
		case p.delete:
			l.flag, l.summary, l.remote = '-', "[deleted]", ""
			accepted = append(accepted, gitconfig.RefSpec(":"+p.dst.String()))
			continue
		case exists && old == p.new:
			p.upToDate = true
			continue
		case !exists:
			l.flag = '*'
			switch {
			case p.dst.IsTag():
				l.summary = "[new tag]"
			case p.dst.IsBranch():
				l.summary = "[new branch]"
			default:
				l.summary = "[new reference]"
			}
		case p.dst.IsTag() && !p.force:
			l.flag, l.summary, p.rejected = '!', "[rejected]", "already exists"
		case c.hasCommit(old) && c.isAncestor(old, p.new):
			l.flag, l.summary = ' ', abbrev(old)+".."+abbrev(p.new)
		case p.force:
			l.flag, l.summary, l.note = '+', abbrev(old)+"..."+abbrev(p.new), "forced update"
		case !c.hasCommit(old):
			l.flag, l.summary, p.rejected = '!', "[rejected]", "fetch first"
		default:
			l.flag, l.summary, p.rejected = '!', "[rejected]", "non-fast-forward"
		}
		if p.rejected != "" {
			l.note = p.rejected
			rejected++
			continue
		}
		spec := p.src.String() + ":" + p.dst.String()
		if p.force {
			spec = "+" + spec
		}
		accepted = append(accepted, gitconfig.RefSpec(spec))
	}
	if len(accepted) > 0 {
		err := remote.PushContext(context.Background(), &gogit.PushOptions{RemoteName: remoteName, RefSpecs: accepted, FollowTags: false})
		if err != nil && !errors.Is(err, gogit.NoErrAlreadyUpToDate) {
			return c.netFail(u, err)
		}
		// Remote-tracking branches follow what was pushed.
		for _, p := range updates {
			if p.rejected != "" || p.upToDate || !p.dst.IsBranch() {
				continue
			}
			track := plumbing.NewRemoteReferenceName(remoteName, p.dst.Short())
			if p.delete {
				c.repo.Storer.RemoveReference(track)
			} else {
				c.repo.Storer.SetReference(plumbing.NewHashReference(track, p.new))
			}
		}
	}
	var b strings.Builder
	for _, p := range updates {
		if p.upToDate {
			continue
		}
		l := p.line
		shown++
		fmt.Fprintf(&b, " %c %-17s ", l.flag, l.summary)
		if l.remote != "" {
			fmt.Fprintf(&b, "%s -> %s", l.remote, l.local)
		} else {
			b.WriteString(l.local)
		}
		if l.note != "" {
			fmt.Fprintf(&b, " (%s)", l.note)
		}
		b.WriteByte('\n')
	}
	c.env.Out().Flush()
	if shown == 0 {
		if !quiet {
			fmt.Fprint(c.env.Stderr, "Everything up-to-date\n")
		}
	} else if !quiet || rejected > 0 {
		fmt.Fprintf(c.env.Stderr, "To %s\n%s", u, b.String())
	}
	for _, p := range updates {
		if p.track && p.rejected == "" {
			if err := c.setUpstream(p.src.Short(), remoteName, p.dst.Short()); err != nil {
				return err
			}
			fmt.Fprintf(c.env.Out(), "branch '%s' set up to track '%s/%s'.\n", p.src.Short(), remoteName, p.dst.Short())
		}
	}
	if rejected == 0 {
		return nil
	}
	c.env.Out().Flush()
	fmt.Fprintf(c.env.Stderr, "error: failed to push some refs to '%s'\n", u)
	hint := ""
	for _, p := range updates {
		switch {
		case p.rejected == "fetch first":
			hint = "hint: Updates were rejected because the remote contains work that you do\nhint: not have locally. This is usually caused by another repository pushing\nhint: to the same ref. You may want to first integrate the remote changes\nhint: (e.g., 'git pull ...') before pushing again.\nhint: See the 'Note about fast-forwards' in 'git push --help' for details.\n"
		case p.rejected == "non-fast-forward" && p.src.Short() == branch:
			hint = "hint: Updates were rejected because the tip of your current branch is behind\nhint: its remote counterpart. Integrate the remote changes (e.g.\nhint: 'git pull ...') before pushing again.\nhint: See the 'Note about fast-forwards' in 'git push --help' for details.\n"
		case p.rejected == "non-fast-forward":
			hint = "hint: Updates were rejected because a pushed branch tip is behind its remote\nhint: counterpart. Check out this branch and integrate the remote changes\nhint: (e.g. 'git pull ...') before pushing again.\nhint: See the 'Note about fast-forwards' in 'git push --help' for details.\n"
		case p.rejected == "already exists":
			hint = "hint: Updates were rejected because the tag already exists in the remote.\n"
		}
		if hint != "" {
			break
		}
	}
	fmt.Fprint(c.env.Stderr, hint)
	return &exitError{1}
}

// hasCommit reports whether the commit h is in the repository.
func (c *cmd) hasCommit(h plumbing.Hash) bool {
	_, err := c.repo.CommitObject(h)
	return err == nil
}

// localRef resolves the source side of a push refspec.
func (c *cmd) localRef(src string) (plumbing.ReferenceName, plumbing.Hash, bool) {
	for _, n := range []plumbing.ReferenceName{plumbing.ReferenceName(src), plumbing.NewBranchReferenceName(src), plumbing.NewTagReferenceName(src)} {
		if r, err := c.repo.Reference(n, true); err == nil {
			return n, r.Hash(), true
		}
	}
	return "", plumbing.ZeroHash, false
}

// remoteRefName completes the destination side of a push refspec.
func (c *cmd) remoteRefName(dst string, src plumbing.ReferenceName) plumbing.ReferenceName {
	if strings.HasPrefix(dst, "refs/") {
		return plumbing.ReferenceName(dst)
	}
	if src.IsTag() {
		return plumbing.NewTagReferenceName(dst)
	}
	return plumbing.NewBranchReferenceName(dst)
}

func (c *cmd) lsRemote() error {
	heads, tagsOnly := false, false
	var pos []string
	for _, a := range c.args {
		switch a {
		case "-h", "--heads", "-b", "--branches":
			heads = true
		case "-t", "--tags":
			tagsOnly = true
		case "-q", "--quiet":
		default:
			if strings.HasPrefix(a, "-") {
				return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
			}
			pos = append(pos, a)
		}
	}
	c.openQuiet()
	name := "origin"
	if c.repo != nil {
		name = c.upstreamRemote()
	}
	if len(pos) > 0 {
		name = pos[0]
	}
	u := name
	if c.repo != nil && c.remoteURL(name) != "" {
		u = c.remoteURL(name)
	} else if !strings.Contains(name, "/") && !strings.Contains(name, "://") {
		return c.fatal("'%s' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.", name)
	}
	if len(pos) == 0 {
		fmt.Fprintf(c.env.Stderr, "From %s\n", u)
	}
	installTransport()
	remote := gogit.NewRemote(nil, &gitconfig.RemoteConfig{Name: "anonymous", URLs: []string{endpointURL(u)}})
	refs, err := remote.ListContext(context.Background(), &gogit.ListOptions{PeelingOption: gogit.AppendPeeled})
	if err != nil && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return c.netFail(u, err)
	}
	var head *plumbing.Reference
	byName := map[plumbing.ReferenceName]plumbing.Hash{}
	var names []string
	for _, r := range refs {
		if r.Name() == plumbing.HEAD {
			head = r
			continue
		}
		if r.Type() == plumbing.HashReference {
			byName[r.Name()] = r.Hash()
			names = append(names, r.Name().String())
		}
	}
	sort.Strings(names)
	out := c.env.Out()
	if head != nil && !heads && !tagsOnly {
		h := head.Hash()
		if head.Type() == plumbing.SymbolicReference {
			h = byName[head.Target()]
		}
		fmt.Fprintf(out, "%s\tHEAD\n", h)
	}
	for _, n := range names {
		isHead, isTag := strings.HasPrefix(n, "refs/heads/"), strings.HasPrefix(n, "refs/tags/")
		if (heads || tagsOnly) && !(heads && isHead || tagsOnly && isTag) {
			continue
		}
		fmt.Fprintf(out, "%s\t%s\n", byName[plumbing.ReferenceName(n)], n)
	}
	return nil
}
