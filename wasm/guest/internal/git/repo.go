package git

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// entry is a file in a tree, the index or the work tree.
type entry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// files maps root-relative paths to entries.
type files map[string]entry

// treeFiles flattens a commit's tree (nil: the empty tree).
func (c *cmd) treeFiles(commit *object.Commit) (files, error) {
	fs := files{}
	if commit == nil {
		return fs, nil
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, err
	}
	return fs, c.walkTree(tree, "", fs)
}

func (c *cmd) walkTree(t *object.Tree, prefix string, fs files) error {
	for _, e := range t.Entries {
		p := prefix + e.Name
		if e.Mode == filemode.Dir {
			sub, err := c.repo.TreeObject(e.Hash)
			if err != nil {
				return err
			}
			if err := c.walkTree(sub, p+"/", fs); err != nil {
				return err
			}
			continue
		}
		fs[p] = entry{e.Hash, e.Mode}
	}
	return nil
}

// readIndex reads the index (empty if there is none).
func (c *cmd) readIndex() (*index.Index, error) {
	idx, err := c.repo.Storer.Index()
	if err != nil {
		return nil, err
	}
	return idx, nil
}

func indexFiles(idx *index.Index) files {
	fs := files{}
	for _, e := range idx.Entries {
		if e.Stage == 0 {
			fs[e.Name] = entry{e.Hash, e.Mode}
		}
	}
	return fs
}

// blob returns an object's contents.
func (c *cmd) blob(h plumbing.Hash) ([]byte, error) {
	b, err := c.repo.BlobObject(h)
	if err != nil {
		return nil, err
	}
	r, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// storeBlob writes data as a blob object.
func (c *cmd) storeBlob(data []byte) (plumbing.Hash, error) {
	o := c.repo.Storer.NewEncodedObject()
	o.SetType(plumbing.BlobObject)
	w, err := o.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	w.Write(data)
	w.Close()
	return c.repo.Storer.SetEncodedObject(o)
}

func (c *cmd) abs(p string) string { return filepath.Join(c.root, filepath.FromSlash(p)) }

// readWork reads a work-tree file: its contents (a symlink's target) and
// its git mode. ok is false if there is no file.
func (c *cmd) readWork(p string) (data []byte, mode filemode.FileMode, ok bool) {
	fi, err := os.Lstat(c.abs(p))
	if err != nil {
		return nil, 0, false
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := os.Readlink(c.abs(p))
		if err != nil {
			return nil, 0, false
		}
		return []byte(t), filemode.Symlink, true
	case fi.Mode().IsRegular():
		b, err := os.ReadFile(c.abs(p))
		if err != nil {
			return nil, 0, false
		}
		if fi.Mode()&0o111 != 0 {
			return b, filemode.Executable, true
		}
		return b, filemode.Regular, true
	}
	return nil, 0, false
}

// workEntry hashes a work-tree file without storing it.
func (c *cmd) workEntry(p string) (entry, bool) {
	data, mode, ok := c.readWork(p)
	if !ok {
		return entry{}, false
	}
	return entry{plumbing.ComputeHash(plumbing.BlobObject, data), mode}, true
}

// writeWork writes a blob to the work tree.
func (c *cmd) writeWork(p string, e entry) error {
	data, err := c.blob(e.hash)
	if err != nil {
		return err
	}
	full := c.abs(p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	if fi, err := os.Lstat(full); err == nil && (fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0) {
		os.RemoveAll(full)
	}
	if e.mode == filemode.Symlink {
		os.Remove(full)
		return os.Symlink(string(data), full)
	}
	perm := os.FileMode(0o644)
	if e.mode == filemode.Executable {
		perm = 0o755
	}
	if err := os.WriteFile(full, data, perm); err != nil {
		return err
	}
	return os.Chmod(full, perm)
}

// removeWork deletes a work-tree file and the directories it leaves empty.
func (c *cmd) removeWork(p string) {
	os.Remove(c.abs(p))
	for d := path.Dir(p); d != "." && d != "/"; d = path.Dir(d) {
		if os.Remove(c.abs(d)) != nil {
			break
		}
	}
}

// newIndexEntry makes an index entry for p, with the work tree's stat data
// when the file there has the same contents.
func (c *cmd) newIndexEntry(p string, e entry) *index.Entry {
	ie := &index.Entry{Name: p, Hash: e.hash, Mode: e.mode}
	if fi, err := os.Lstat(c.abs(p)); err == nil {
		if we, ok := c.workEntry(p); ok && we == e {
			ie.ModifiedAt = fi.ModTime()
			ie.CreatedAt = fi.ModTime()
			ie.Size = uint32(fi.Size())
		}
	}
	return ie
}

// writeIndex replaces the index with fs's entries.
// Conflict stages of paths not in fs are kept.
func (c *cmd) writeIndex(fs files) error {
	var stages []*index.Entry
	if old, err := c.readIndex(); err == nil {
		for _, e := range old.Entries {
			if _, ok := fs[e.Name]; e.Stage != 0 && !ok {
				stages = append(stages, e)
			}
		}
	}
	return c.writeIndexAll(fs, stages)
}

// ignorer decides which untracked paths .gitignore files and
// .git/info/exclude hide.
type ignorer struct {
	c        *cmd
	patterns []gitignore.Pattern
	dirOnly  []bool // the pattern ends in "/"
	loaded   map[string]bool
}

func (c *cmd) newIgnorer() *ignorer {
	ig := &ignorer{c: c, loaded: map[string]bool{}}
	if b, err := os.ReadFile(filepath.Join(c.gitDir(), "info", "exclude")); err == nil {
		ig.add(string(b), nil)
	}
	if xf, ok := c.getConfig("core.excludesfile"); ok {
		if strings.HasPrefix(xf, "~/") {
			xf = filepath.Join(c.env.Env("HOME"), xf[2:])
		}
		if b, err := os.ReadFile(xf); err == nil {
			ig.add(string(b), nil)
		}
	}
	return ig
}

func (ig *ignorer) add(text string, domain []string) {
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		ig.patterns = append(ig.patterns, gitignore.ParsePattern(l, domain))
		ig.dirOnly = append(ig.dirOnly, strings.HasSuffix(strings.TrimRight(l, " "), "/"))
	}
}

// loadDir reads dir's .gitignore (dir root-relative, "" for the root).
func (ig *ignorer) loadDir(dir string) {
	if ig.loaded[dir] {
		return
	}
	ig.loaded[dir] = true
	b, err := os.ReadFile(filepath.Join(ig.c.abs(dir), ".gitignore"))
	if err != nil {
		return
	}
	var domain []string
	if dir != "" {
		domain = strings.Split(dir, "/")
	}
	ig.add(string(b), domain)
}

func (ig *ignorer) ignored(p string, isDir bool) bool {
	parts := strings.Split(p, "/")
	for i := range parts {
		ig.loadDir(strings.Join(parts[:i], "/"))
	}
	// As git does: a path inside an excluded directory is excluded (no
	// pattern can bring it back); otherwise the last pattern matching the
	// path itself decides. go-git's matcher lets a directory-only pattern
	// ("!*/") match a file through its parent directories, so it is asked
	// one level at a time.
	for i := 1; i < len(parts); i++ {
		if ig.match(parts[:i], true) {
			return true
		}
	}
	return ig.match(parts, isDir)
}

func (ig *ignorer) match(parts []string, isDir bool) bool {
	for i := len(ig.patterns) - 1; i >= 0; i-- {
		if ig.dirOnly[i] && !isDir {
			continue
		}
		switch ig.patterns[i].Match(parts, isDir) {
		case gitignore.Exclude:
			return true
		case gitignore.Include:
			return false
		}
	}
	return false
}

// workFiles walks the work tree: tracked paths (those in tracked) present
// there, and the untracked files that are not ignored.
func (c *cmd) workFiles(tracked files) (work files, untracked []string, err error) {
	work = files{}
	ig := c.newIgnorer()
	dirsWithTracked := map[string]bool{}
	for p := range tracked {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			dirsWithTracked[d] = true
		}
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		ents, err := os.ReadDir(c.abs(dir))
		if err != nil {
			return nil
		}
		for _, e := range ents {
			name := e.Name()
			p := name
			if dir != "" {
				p = dir + "/" + name
			}
			if name == ".git" {
				continue
			}
			if e.IsDir() {
				if ig.ignored(p, true) && !dirsWithTracked[p] {
					continue
				}
				if err := walk(p); err != nil {
					return err
				}
				continue
			}
			if _, ok := tracked[p]; ok {
				if we, ok := c.workEntry(p); ok {
					work[p] = we
				}
				continue
			}
			if ig.ignored(p, false) {
				continue
			}
			if we, ok := c.workEntry(p); ok {
				work[p] = we
				untracked = append(untracked, p)
			}
		}
		return nil
	}
	if err := walk(""); err != nil {
		return nil, nil, err
	}
	sort.Strings(untracked)
	return work, untracked, nil
}

// buildTree writes the tree objects for fs and returns the root's hash.
func (c *cmd) buildTree(fs files) (plumbing.Hash, error) {
	type node struct {
		files map[string]entry
		dirs  map[string]*node
	}
	newNode := func() *node { return &node{files: map[string]entry{}, dirs: map[string]*node{}} }
	root := newNode()
	for p, e := range fs {
		n := root
		parts := strings.Split(p, "/")
		for _, d := range parts[:len(parts)-1] {
			if n.dirs[d] == nil {
				n.dirs[d] = newNode()
			}
			n = n.dirs[d]
		}
		n.files[parts[len(parts)-1]] = e
	}
	var write func(n *node) (plumbing.Hash, error)
	write = func(n *node) (plumbing.Hash, error) {
		var t object.Tree
		for name, e := range n.files {
			t.Entries = append(t.Entries, object.TreeEntry{Name: name, Mode: e.mode, Hash: e.hash})
		}
		for name, d := range n.dirs {
			h, err := write(d)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			t.Entries = append(t.Entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
		}
		// git orders tree entries by name, a directory's name taken as
		// ending in "/".
		key := func(e object.TreeEntry) string {
			if e.Mode == filemode.Dir {
				return e.Name + "/"
			}
			return e.Name
		}
		sort.Slice(t.Entries, func(i, j int) bool { return key(t.Entries[i]) < key(t.Entries[j]) })
		o := c.repo.Storer.NewEncodedObject()
		if err := t.Encode(o); err != nil {
			return plumbing.ZeroHash, err
		}
		return c.repo.Storer.SetEncodedObject(o)
	}
	return write(root)
}

// writeCommit stores a commit object and returns its hash.
func (c *cmd) writeCommit(tree plumbing.Hash, parents []plumbing.Hash, author, committer *object.Signature, msg string) (plumbing.Hash, error) {
	cm := &object.Commit{
		Author:       *author,
		Committer:    *committer,
		Message:      msg,
		TreeHash:     tree,
		ParentHashes: parents,
	}
	o := c.repo.Storer.NewEncodedObject()
	if err := cm.Encode(o); err != nil {
		return plumbing.ZeroHash, err
	}
	return c.repo.Storer.SetEncodedObject(o)
}

// setHead moves the current branch (or a detached HEAD) to h, writing
// the reflog line git would.
func (c *cmd) setHead(h plumbing.Hash) error {
	name := c.headRef()
	if name == "" {
		name = plumbing.HEAD
	}
	return c.repo.Storer.SetReference(plumbing.NewHashReference(name, h))
}

// saveOrigHead records HEAD's commit in ORIG_HEAD before reset or merge
// move it, as git does.
func (c *cmd) saveOrigHead() {
	if h, err := c.repo.Head(); err == nil {
		os.WriteFile(filepath.Join(c.gitDir(), "ORIG_HEAD"), []byte(h.Hash().String()+"\n"), 0o644)
	}
}

// errNoHead is returned where a commit is needed on an unborn branch.
var errNoHead = errors.New("no HEAD")

// cleanMessage cleans a commit message as git's default cleanup does:
// trailing spaces and leading and trailing blank lines go, runs of blank
// lines become one, and "#" lines are kept (cleanup=whitespace for -m).
func cleanMessage(s string) string {
	var out []string
	blank := false
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			blank = true
			continue
		}
		if blank && len(out) > 0 {
			out = append(out, "")
		}
		blank = false
		out = append(out, l)
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}
