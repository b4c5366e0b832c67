package git

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// catFile is git cat-file -t, -s, -e and -p: an object's type, size,
// existence or contents (a tree as git's ls-tree lines).
func (c *cmd) catFile() error {
	if len(c.args) != 2 || !strings.HasPrefix(c.args[0], "-") {
		fmt.Fprint(c.env.Stderr, "usage: git cat-file (-t | -s | -e | -p) <object>\n")
		return &exitError{129}
	}
	mode, rev := c.args[0], c.args[1]
	if err := c.open(); err != nil {
		return err
	}
	h, err := c.objectName(rev)
	if base, p, ok := strings.Cut(rev, ":"); ok && err != nil && p != "" {
		if _, berr := c.resolve(orHead(base)); berr == nil {
			return c.fatal("path '%s' does not exist in '%s'", p, base)
		}
	}
	if err != nil {
		if mode == "-e" {
			return &exitError{1}
		}
		return c.fatal("Not a valid object name %s", rev)
	}
	obj, err := c.repo.Storer.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		if mode == "-e" {
			return &exitError{1}
		}
		return c.fatal("Not a valid object name %s", rev)
	}
	out := c.env.Out()
	switch mode {
	case "-e":
		return nil
	case "-t":
		fmt.Fprintln(out, obj.Type())
		return nil
	case "-s":
		fmt.Fprintln(out, obj.Size())
		return nil
	case "-p":
		if obj.Type() == plumbing.TreeObject {
			t, err := object.DecodeTree(c.repo.Storer, obj)
			if err != nil {
				return c.fatal("%s", err)
			}
			for _, e := range t.Entries {
				kind := "blob"
				switch e.Mode {
				case filemode.Dir:
					kind = "tree"
				case filemode.Submodule:
					kind = "commit"
				}
				fmt.Fprintf(out, "%06o %s %s\t%s\n", uint32(e.Mode), kind, e.Hash, quotePath(e.Name))
			}
			return nil
		}
		r, err := obj.Reader()
		if err != nil {
			return c.fatal("%s", err)
		}
		defer r.Close()
		_, err = io.Copy(out, r)
		return err
	}
	return c.errorf(129, "unknown option `%s'", strings.TrimLeft(mode, "-"))
}

// objectName resolves a revision that may name any object: REV:path, a
// tag, an abbreviated hash.
func (c *cmd) objectName(rev string) (plumbing.Hash, error) {
	if base, p, ok := strings.Cut(rev, ":"); ok {
		cm, err := c.resolve(orHead(base))
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if p == "" {
			return cm.TreeHash, nil
		}
		t, err := cm.Tree()
		if err != nil {
			return plumbing.ZeroHash, err
		}
		e, err := t.FindEntry(p)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return e.Hash, nil
	}
	if r, err := c.repo.Storer.Reference(plumbing.NewTagReferenceName(rev)); err == nil {
		return r.Hash(), nil
	}
	h, err := c.resolveHash(rev)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return *h, nil
}

// checkIgnore is git check-ignore: the paths that .gitignore and friends
// exclude; status 1 if none is.
func (c *cmd) checkIgnore() error {
	var paths []string
	for _, a := range c.args {
		switch {
		case a == "-q" || a == "--quiet" || a == "--no-index" || a == "--":
		case strings.HasPrefix(a, "-"):
			return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
		default:
			paths = append(paths, a)
		}
	}
	if len(paths) == 0 {
		return c.fatal("no path specified")
	}
	if err := c.open(); err != nil {
		return err
	}
	ig := c.newIgnorer()
	found := false
	for _, p := range paths {
		rel, err := c.relPath(p)
		if err != nil {
			return err
		}
		if rel == "" {
			continue
		}
		fi, err := os.Stat(c.abs(rel))
		if ig.ignored(rel, err == nil && fi.IsDir()) {
			found = true
			fmt.Fprintln(c.env.Out(), p)
		}
	}
	if !found {
		return &exitError{1}
	}
	return nil
}
