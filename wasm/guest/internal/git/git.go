// Package git is git's command line over go-git (github.com/go-git/go-git/v5):
// the local commands an agent uses to checkpoint and review its work (init,
// add, commit, status, diff, log, show, branch, checkout, switch, restore,
// reset, merge, stash, tag, rm, mv, rev-parse, config) and the remote ones
// (remote, clone, fetch, pull, push, ls-remote over HTTP(S), through the
// sandbox's network policy, or a local path), printing what git 2.39 prints and exiting as it does. The repository format is git's own:
// a repository made here is read by git and the other way round.
package git

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// UpstreamVersion is the git release whose output git follows.
const UpstreamVersion = "2.39.5"

// GoGitVersion is the go-git release git is built on.
const GoGitVersion = "v5.19.3"

// exitError ends a command with a status after its message was printed.
type exitError struct{ code int }

func (e *exitError) Error() string { return "exit " + strconv.Itoa(e.code) }

// cmd is one invocation of git.
type cmd struct {
	env  *tool.Env
	args []string // the subcommand's arguments
	repo *gogit.Repository
	wt   *gogit.Worktree
	root string // the work tree's root

	initialCommit bool   // status as git commit shows it: "Initial commit"
	quiet         bool   // -q: checkout, switch and merge say nothing
	dateMode      string // log's --date
}

type subcommand func(c *cmd) error

var subcommands map[string]subcommand

func init() {
	subcommands = map[string]subcommand{
		"init":         (*cmd).initCmd,
		"add":          (*cmd).add,
		"commit":       (*cmd).commit,
		"status":       (*cmd).status,
		"diff":         (*cmd).diff,
		"log":          (*cmd).log,
		"show":         (*cmd).show,
		"branch":       (*cmd).branch,
		"checkout":     (*cmd).checkout,
		"switch":       (*cmd).switchCmd,
		"restore":      (*cmd).restore,
		"reset":        (*cmd).reset,
		"rm":           (*cmd).rm,
		"mv":           (*cmd).mv,
		"tag":          (*cmd).tag,
		"rev-parse":    (*cmd).revParse,
		"config":       (*cmd).config,
		"merge":        (*cmd).merge,
		"stash":        (*cmd).stash,
		"ls-files":     (*cmd).lsFiles,
		"remote":       (*cmd).remoteCmd,
		"clone":        (*cmd).clone,
		"fetch":        (*cmd).fetch,
		"pull":         (*cmd).pull,
		"push":         (*cmd).push,
		"ls-remote":    (*cmd).lsRemote,
		"cat-file":     (*cmd).catFile,
		"check-ignore": (*cmd).checkIgnore,
	}
}

const usage = `usage: git [--version] [--help] [-C <path>] [-c <name>=<value>]
           <command> [<args>]

These are common Git commands used in various situations:

start a working area
   clone      Clone a repository into a new directory
   init       Create an empty Git repository or reinitialize an existing one

work on the current change
   add        Add file contents to the index
   mv         Move or rename a file, a directory, or a symlink
   restore    Restore working tree files
   rm         Remove files from the working tree and from the index

examine the history and state
   diff       Show changes between commits, commit and working tree, etc
   log        Show commit logs
   show       Show various types of objects
   status     Show the working tree status

grow, mark and tweak your common history
   branch     List, create, or delete branches
   commit     Record changes to the repository
   merge      Join two or more development histories together
   reset      Reset current HEAD to the specified state
   switch     Switch branches
   tag        Create, list, delete or verify a tag object signed with GPG
   stash      Stash the changes in a dirty working directory away

collaborate
   fetch      Download objects and refs from another repository
   pull       Fetch from and integrate with another repository or a local branch
   push       Update remote refs along with associated objects

This git is go-git ` + GoGitVersion + ` behind git's command line (wasmsand): remotes
over HTTP(S), through the sandbox's network policy, or a local path.
`

// Main is the git command.
func Main(env *tool.Env) (code int) {
	defer func() {
		// A corrupt repository can make go-git panic: report it in git's
		// words, never as a Go crash dump.
		if r := recover(); r != nil {
			env.Out().Flush()
			fmt.Fprintf(env.Stderr, "fatal: %v\n", r)
			code = 128
		}
	}()
	args := env.Args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch a := args[0]; {
		case a == "--version" || a == "version":
			fmt.Fprintf(env.Out(), "git version %s (wasmsand %s, go-git %s)\n", UpstreamVersion, tool.Version, GoGitVersion)
			return 0
		case a == "--help" || a == "-h":
			fmt.Fprint(env.Out(), usage)
			return 0
		case a == "-C" && len(args) > 1:
			if err := os.Chdir(args[1]); err != nil {
				fmt.Fprintf(env.Stderr, "fatal: cannot change to '%s': %s\n", args[1], tool.Strerror(err))
				return 128
			}
			args = args[2:]
			continue
		case a == "--no-pager" || a == "--no-replace-objects" || a == "-P":
			args = args[1:]
			continue
		case a == "-c" && len(args) > 1:
			k, v, _ := strings.Cut(args[1], "=")
			overrides[strings.ToLower(k)] = v
			args = args[2:]
			continue
		default:
			fmt.Fprintf(env.Stderr, "unknown option: %s\n%s", a, usage)
			return 129
		}
	}
	if len(args) == 0 {
		fmt.Fprint(env.Out(), usage)
		return 1
	}
	if args[0] == "version" {
		fmt.Fprintf(env.Out(), "git version %s (wasmsand %s, go-git %s)\n", UpstreamVersion, tool.Version, GoGitVersion)
		return 0
	}
	if args[0] == "help" {
		fmt.Fprint(env.Out(), usage)
		return 0
	}
	sub, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "git: '%s' is not a git command. See 'git --help'.\n", args[0])
		return 1
	}
	c := &cmd{env: env, args: args[1:]}
	err := sub(c)
	env.Out().Flush()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintf(env.Stderr, "fatal: %s\n", err)
	return 128
}

// expandShort splits clustered short options ("-qam msg" into "-q -a -m
// msg"): flags are the letters that take no value, valued those that do
// (the rest of the cluster, or the next argument, is their value).
func expandShort(args []string, flags, valued string) []string {
	var out []string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) < 3 || a[0] != '-' || a[1] == '-' {
			out = append(out, a)
			continue
		}
		ok := true
		var parts []string
		for j := 1; j < len(a); j++ {
			l := a[j]
			switch {
			case strings.IndexByte(valued, l) >= 0:
				parts = append(parts, "-"+string(l))
				if j+1 < len(a) {
					parts = append(parts, a[j+1:])
				}
				j = len(a)
			case strings.IndexByte(flags, l) >= 0:
				parts = append(parts, "-"+string(l))
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		if !ok {
			out = append(out, a)
			continue
		}
		out = append(out, parts...)
	}
	return out
}

// lsFiles lists the index's paths below the working directory, relative
// to it.
func (c *cmd) lsFiles() error {
	if err := c.open(); err != nil {
		return err
	}
	idx, err := c.readIndex()
	if err != nil {
		return c.fatal("%s", err)
	}
	pre := c.prefix()
	seen := map[string]bool{}
	for _, e := range idx.Entries {
		if !strings.HasPrefix(e.Name, pre) || seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		fmt.Fprintln(c.env.Out(), quotePath(e.Name[len(pre):]))
	}
	return nil
}

// fail prints "fatal: ..." and returns status 128.
func (c *cmd) fatal(format string, a ...any) error {
	c.env.Out().Flush()
	fmt.Fprintf(c.env.Stderr, "fatal: "+format+"\n", a...)
	return &exitError{128}
}

// errorf prints "error: ..." and returns an exit status.
func (c *cmd) errorf(code int, format string, a ...any) error {
	c.env.Out().Flush()
	fmt.Fprintf(c.env.Stderr, "error: "+format+"\n", a...)
	return &exitError{code}
}

// open finds the repository containing the working directory.
func (c *cmd) open() error {
	repo, err := gogit.PlainOpenWithOptions(".", &gogit.PlainOpenOptions{DetectDotGit: true})
	if err != nil {
		if errors.Is(err, gogit.ErrRepositoryNotExists) {
			return c.fatal("not a git repository (or any of the parent directories): .git")
		}
		return c.fatal("%s", err)
	}
	c.repo = repo
	wt, err := repo.Worktree()
	if err != nil {
		return c.fatal("this operation must be run in a work tree")
	}
	c.wt = wt
	c.root = wt.Filesystem.Root()
	return nil
}

// relPath turns a path the user gave (relative to the working directory)
// into a slash-separated path relative to the work tree's root.
func (c *cmd) relPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	root, _ := filepath.Abs(c.root)
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", c.fatal("%s: '%s' is outside repository at '%s'", p, p, root)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

// prefix is the working directory relative to the root ("" or "sub/").
func (c *cmd) prefix() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	root, _ := filepath.Abs(c.root)
	rel, err := filepath.Rel(root, wd)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	return filepath.ToSlash(rel) + "/"
}

// display turns a root-relative path into one relative to the working
// directory, as git's long status shows paths.
func (c *cmd) display(p string) string {
	pre := c.prefix()
	if pre == "" {
		return p
	}
	if strings.HasPrefix(p, pre) {
		if p == pre {
			return "./"
		}
		return p[len(pre):]
	}
	up := strings.Repeat("../", strings.Count(pre, "/"))
	for pre != "" {
		// Strip common leading directories.
		i := strings.Index(pre, "/")
		d := pre[:i+1]
		if !strings.HasPrefix(p, d) {
			break
		}
		p, pre = p[len(d):], pre[i+1:]
		up = up[3:]
	}
	return up + p
}

// headRef returns the branch HEAD points at ("refs/heads/master"), or ""
// when HEAD is detached.
func (c *cmd) headRef() plumbing.ReferenceName {
	ref, err := c.repo.Storer.Reference(plumbing.HEAD)
	if err != nil || ref.Type() != plumbing.SymbolicReference {
		return ""
	}
	return ref.Target()
}

// headCommit returns HEAD's commit, or nil on an unborn branch.
func (c *cmd) headCommit() (*object.Commit, error) {
	ref, err := c.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return c.repo.CommitObject(ref.Hash())
}

// resolve resolves a revision (HEAD~2, a branch, a tag, an abbreviated
// hash) to a commit.
func (c *cmd) resolve(rev string) (*object.Commit, error) {
	h, err := c.resolveHash(rev)
	if err != nil {
		return nil, err
	}
	obj, err := c.repo.Object(plumbing.AnyObject, *h)
	if err != nil {
		return nil, err
	}
	switch o := obj.(type) {
	case *object.Commit:
		return o, nil
	case *object.Tag:
		return o.Commit()
	}
	return nil, fmt.Errorf("%s is not a commit", rev)
}

// resolveHash resolves a revision to an object's hash. A name that is a
// branch or a tag is taken as one before it is tried as an abbreviated
// hash, as git does ("f" is branch f, not a commit starting with f).
func (c *cmd) resolveHash(rev string) (*plumbing.Hash, error) {
	for _, peel := range []string{"^{tree}", "^{commit}", "^{}"} {
		if r, ok := strings.CutSuffix(rev, peel); ok {
			cm, err := c.resolve(r)
			if err != nil {
				return nil, err
			}
			if peel == "^{tree}" {
				return &cm.TreeHash, nil
			}
			return &cm.Hash, nil
		}
	}
	base := rev
	suffix := ""
	if i := strings.IndexAny(rev, "~^@"); i > 0 {
		base, suffix = rev[:i], rev[i:]
	}
	for _, full := range []plumbing.ReferenceName{plumbing.NewBranchReferenceName(base), plumbing.NewTagReferenceName(base)} {
		if _, err := c.repo.Storer.Reference(full); err == nil {
			return c.repo.ResolveRevision(plumbing.Revision(string(full) + suffix))
		}
	}
	return c.repo.ResolveRevision(plumbing.Revision(rev))
}

// abbrev is the short form of a hash git prints.
func abbrev(h plumbing.Hash) string { return h.String()[:7] }

// gitDate formats a time as git's default date format.
func gitDate(t time.Time) string { return t.Format("Mon Jan 2 15:04:05 2006 -0700") }

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
