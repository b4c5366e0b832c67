package diskcache

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// DefaultLimit is the size Trim keeps a cache directory under when its
// owner names none: room for the compiled and instrumented modules of
// about two versions of every tool, python3 included.
const DefaultLimit = 3 << 30

// Trim removes the least recently used files below the directories dirs
// (by modification time, which Store.Load renews) until the files left
// in all of them take at most limit bytes, and returns how many bytes it
// freed. Every module cache a sandbox keeps on disk is named by content
// hash, so a new version of a tool adds files and never replaces any:
// without Trim the caches would grow with every version used. Name only
// directories that hold nothing but cache files. Files that vanish or
// cannot be removed are skipped (another process may be trimming too); a
// missing directory is empty.
func Trim(limit int64, dirs ...string) (freed int64, err error) {
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var files []entry
	var total int64
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return nil
				}
				return err
			}
			if !d.Type().IsRegular() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return nil // removed meanwhile
			}
			files = append(files, entry{p, info.Size(), info.ModTime()})
			total += info.Size()
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	if total <= limit {
		return 0, nil
	}
	slices.SortFunc(files, func(a, b entry) int { return a.used.Compare(b.used) })
	for _, f := range files {
		if total <= limit {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
			freed += f.size
		}
	}
	return freed, nil
}

// touchAfter is how stale a file's modification time must be before
// Load renews it: often enough for Trim to see what is in use, seldom
// enough that loads do not turn into writes.
const touchAfter = time.Hour

// touch marks the file at p as used now, if its mark is older than
// touchAfter.
func touch(p string) {
	info, err := os.Stat(p)
	if err != nil || time.Since(info.ModTime()) < touchAfter {
		return
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now)
}
