package git

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// change is one path's difference between two sides.
type change struct {
	path, from string // from is the old path of a rename
	kind       byte   // 'A', 'M', 'D', 'R', 'T'
	old, new   entry
}

// compare lists the differences from a to b, sorted by path, exact
// renames detected when renames is set.
func compare(a, b files, renames bool) []change {
	var cs []change
	for p, ea := range a {
		eb, ok := b[p]
		switch {
		case !ok:
			cs = append(cs, change{path: p, kind: 'D', old: ea})
		case ea.hash != eb.hash:
			cs = append(cs, change{path: p, kind: 'M', old: ea, new: eb})
		case ea.mode != eb.mode:
			k := byte('M')
			if ea.mode.IsFile() != eb.mode.IsFile() || (ea.mode == 0o120000) != (eb.mode == 0o120000) {
				k = 'T'
			}
			cs = append(cs, change{path: p, kind: k, old: ea, new: eb})
		}
	}
	for p, eb := range b {
		if _, ok := a[p]; !ok {
			cs = append(cs, change{path: p, kind: 'A', new: eb})
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].path < cs[j].path })
	if renames {
		cs = findRenames(cs)
	}
	return cs
}

// findRenames pairs deleted and added paths with the same contents.
func findRenames(cs []change) []change {
	dels := map[plumbing.Hash][]int{}
	for i, c := range cs {
		if c.kind == 'D' {
			dels[c.old.hash] = append(dels[c.old.hash], i)
		}
	}
	drop := map[int]bool{}
	for i := range cs {
		c := &cs[i]
		if c.kind != 'A' {
			continue
		}
		cand := dels[c.new.hash]
		if len(cand) == 0 {
			continue
		}
		d := cand[0]
		dels[c.new.hash] = cand[1:]
		c.kind, c.from, c.old = 'R', cs[d].path, cs[d].old
		drop[d] = true
	}
	var out []change
	for i, c := range cs {
		if !drop[i] {
			out = append(out, c)
		}
	}
	return out
}

// state is what status compares: HEAD, the index, the work tree.
type state struct {
	head, index, work files
	untracked         []string
	unborn            bool
}

func (c *cmd) readState() (*state, error) {
	hc, err := c.headCommit()
	if err != nil {
		return nil, err
	}
	st := &state{unborn: hc == nil}
	if st.head, err = c.treeFiles(hc); err != nil {
		return nil, err
	}
	idx, err := c.readIndex()
	if err != nil {
		return nil, err
	}
	st.index = indexFiles(idx)
	tracked := files{}
	for p, e := range st.index {
		tracked[p] = e
	}
	for _, p := range c.unmergedPaths() {
		tracked[p] = entry{}
	}
	if st.work, st.untracked, err = c.workFiles(tracked); err != nil {
		return nil, err
	}
	return st, nil
}

// unstaged lists the work tree's differences from the index (tracked
// paths only).
func (st *state) unstaged() []change {
	tracked := files{}
	for p, e := range st.work {
		if _, ok := st.index[p]; ok {
			tracked[p] = e
		}
	}
	return compare(st.index, tracked, false)
}

// untrackedShown collapses untracked files into their topmost directory
// that holds no tracked file, as git status shows them ("dir/").
func (st *state) untrackedShown(all bool) []string {
	if all {
		return st.untracked
	}
	hasTracked := map[string]bool{}
	for p := range st.index {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			hasTracked[d] = true
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range st.untracked {
		show := p
		parts := strings.Split(p, "/")
		for i := 1; i < len(parts); i++ {
			d := strings.Join(parts[:i], "/")
			if !hasTracked[d] {
				show = d + "/"
				break
			}
		}
		if !seen[show] {
			seen[show] = true
			out = append(out, show)
		}
	}
	return out
}

// quotePath quotes a path as git's core.quotePath does when it has
// special bytes.
func quotePath(p string) string { return quoteName(p, false) }

// quoteSP quotes as git status does: a name with a space is quoted too.
func quoteSP(p string) string { return quoteName(p, true) }

func quoteName(p string, sp bool) string {
	need := false
	for i := 0; i < len(p); i++ {
		if b := p[i]; b < 0x20 || b == '"' || b == '\\' || b >= 0x7f || sp && b == ' ' {
			need = true
			break
		}
	}
	if !need {
		return p
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch b := p[i]; b {
		case '"', '\\':
			sb.WriteByte('\\')
			sb.WriteByte(b)
		case '\t':
			sb.WriteString(`\t`)
		case '\n':
			sb.WriteString(`\n`)
		default:
			if b < 0x20 || b >= 0x7f {
				fmt.Fprintf(&sb, "\\%03o", b)
			} else {
				sb.WriteByte(b)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

func (c *cmd) status() error {
	short, porcelain, branch, all, null := false, false, false, false, false
	var specs []string
	for _, a := range c.args {
		switch {
		case a == "-s" || a == "--short":
			short = true
		case a == "--porcelain" || a == "--porcelain=v1":
			porcelain = true
		case a == "-b" || a == "--branch":
			branch = true
		case a == "-sb" || a == "-bs":
			short, branch = true, true
		case a == "-u" || a == "-uall" || a == "--untracked-files=all" || a == "--untracked-files":
			all = true
		case a == "-unormal" || a == "--untracked-files=normal" || a == "--long":
		case a == "-z":
			null, porcelain = true, !short
		case a == "-uno" || a == "--untracked-files=no":
			all = false
			defer func() {}()
		case a == "--":
		case strings.HasPrefix(a, "-"):
			return c.errorf(129, "unknown option `%s'", strings.TrimLeft(a, "-"))
		default:
			specs = append(specs, a)
		}
	}
	if err := c.open(); err != nil {
		return err
	}
	st, err := c.readState()
	if err != nil {
		return c.fatal("%s", err)
	}
	match, err := c.pathspec(specs)
	if err != nil {
		return err
	}
	staged := filterChanges(compare(st.head, st.index, true), match)
	unstaged := filterChanges(st.unstaged(), match)
	var untracked []string
	for _, u := range st.untrackedShown(all) {
		if match(strings.TrimSuffix(u, "/")) {
			untracked = append(untracked, u)
		}
	}
	noUntracked := false
	for _, a := range c.args {
		if a == "-uno" || a == "--untracked-files=no" {
			noUntracked = true
		}
	}
	if noUntracked {
		untracked = nil
	}
	if short || porcelain {
		return c.shortStatus(st, staged, unstaged, untracked, porcelain, branch, null)
	}
	return c.longStatus(st, staged, unstaged, untracked, noUntracked)
}

func filterChanges(cs []change, match func(string) bool) []change {
	var out []change
	for _, ch := range cs {
		if match(ch.path) || ch.from != "" && match(ch.from) {
			out = append(out, ch)
		}
	}
	return out
}

// pathspec returns a matcher of root-relative paths for the given
// pathspecs (paths relative to the working directory, or globs).
func (c *cmd) pathspec(specs []string) (func(string) bool, error) {
	if len(specs) == 0 {
		return func(string) bool { return true }, nil
	}
	var rels []string
	for _, s := range specs {
		r, err := c.relPath(s)
		if err != nil {
			return nil, err
		}
		rels = append(rels, r)
	}
	return func(p string) bool {
		for _, r := range rels {
			if r == "" || p == r || strings.HasPrefix(p, r+"/") {
				return true
			}
			if strings.ContainsAny(r, "*?[") {
				if ok, _ := path.Match(r, p); ok {
					return true
				}
			}
		}
		return false
	}, nil
}

func (c *cmd) shortStatus(st *state, staged, unstaged []change, untracked []string, porcelain, branch, null bool) error {
	out := c.env.Out()
	term := "\n"
	if null {
		term = "\x00"
	}
	if branch {
		name := strings.TrimPrefix(string(c.headRef()), "refs/heads/")
		switch {
		case c.headRef() == "":
			fmt.Fprintf(out, "## HEAD (no branch)%s", term)
		case st.unborn:
			fmt.Fprintf(out, "## No commits yet on %s%s", name, term)
		default:
			if _, note, up, ok := c.trackingInfo(); ok {
				name += "..." + up + note
			}
			fmt.Fprintf(out, "## %s%s", name, term)
		}
	}
	type row struct {
		x, y       byte
		path, from string
	}
	rows := map[string]*row{}
	for _, ch := range staged {
		rows[ch.path] = &row{x: ch.kind, y: ' ', path: ch.path, from: ch.from}
	}
	for _, ch := range unstaged {
		r := rows[ch.path]
		if r == nil {
			r = &row{x: ' ', path: ch.path}
			rows[ch.path] = r
		}
		r.y = ch.kind
	}
	show := func(p string) string {
		if porcelain {
			return quoteSP(p)
		}
		return quoteSP(c.display(p))
	}
	if null {
		show = func(p string) string { return p }
	}
	for p, code := range c.unmergedCodes() {
		rows[p] = &row{x: code[0], y: code[1], path: p}
	}
	for _, p := range sortedKeys(rows) {
		r := rows[p]
		if r.from != "" {
			if null {
				fmt.Fprintf(out, "%c%c %s\x00%s\x00", r.x, r.y, show(r.path), show(r.from))
			} else {
				fmt.Fprintf(out, "%c%c %s -> %s\n", r.x, r.y, show(r.from), show(r.path))
			}
			continue
		}
		fmt.Fprintf(out, "%c%c %s%s", r.x, r.y, show(r.path), term)
	}
	for _, u := range untracked {
		fmt.Fprintf(out, "?? %s%s", show(u), term)
	}
	return nil
}

// unmergedCodes gives the two-letter short-status code of each
// conflicted path from its stages.
func (c *cmd) unmergedCodes() map[string]string {
	idx, err := c.readIndex()
	if err != nil {
		return nil
	}
	stages := map[string]int{}
	for _, e := range idx.Entries {
		if e.Stage != 0 {
			stages[e.Name] |= 1 << (e.Stage - 1)
		}
	}
	codes := map[string]string{}
	for p, s := range stages {
		switch s {
		case 7:
			codes[p] = "UU"
		case 6:
			codes[p] = "AA"
		case 3:
			codes[p] = "UD"
		case 5:
			codes[p] = "DU"
		case 2:
			codes[p] = "AU"
		case 4:
			codes[p] = "UA"
		default:
			codes[p] = "DD"
		}
	}
	return codes
}

var labels = map[byte]string{'A': "new file:", 'M': "modified:", 'D': "deleted:", 'R': "renamed:", 'T': "typechange:"}

func (c *cmd) longStatus(st *state, staged, unstaged []change, untracked []string, noUntracked bool) error {
	out := c.env.Out()
	ref := c.headRef()
	if ref == "" {
		h, _ := c.repo.Head()
		if h != nil {
			fmt.Fprintf(out, "HEAD detached at %s\n", abbrev(h.Hash()))
		}
	} else {
		fmt.Fprintf(out, "On branch %s\n", strings.TrimPrefix(string(ref), "refs/heads/"))
		if long, _, _, ok := c.trackingInfo(); ok && !st.unborn && long != "" {
			fmt.Fprint(out, long+"\n")
		}
	}
	unmerged := c.unmergedPaths()
	if c.merging() {
		if len(unmerged) > 0 {
			fmt.Fprint(out, "You have unmerged paths.\n  (fix conflicts and run \"git commit\")\n  (use \"git merge --abort\" to abort the merge)\n\n")
		} else {
			fmt.Fprint(out, "All conflicts fixed but you are still merging.\n  (use \"git commit\" to conclude merge)\n\n")
		}
	}
	switch {
	case c.initialCommit:
		fmt.Fprint(out, "\nInitial commit\n\n")
	case st.unborn:
		fmt.Fprint(out, "\nNo commits yet\n\n")
	}
	item := func(ch change) {
		p := quoteSP(c.display(ch.path))
		if ch.kind == 'R' {
			p = quoteSP(c.display(ch.from)) + " -> " + p
		}
		fmt.Fprintf(out, "\t%-12s%s\n", labels[ch.kind], p)
	}
	isUnmerged := map[string]bool{}
	for _, p := range unmerged {
		isUnmerged[p] = true
	}
	var s2, u2 []change
	for _, ch := range staged {
		if !isUnmerged[ch.path] {
			s2 = append(s2, ch)
		}
	}
	for _, ch := range unstaged {
		if !isUnmerged[ch.path] {
			u2 = append(u2, ch)
		}
	}
	staged, unstaged = s2, u2
	if len(staged) > 0 {
		fmt.Fprint(out, "Changes to be committed:\n")
		if st.unborn {
			fmt.Fprint(out, "  (use \"git rm --cached <file>...\" to unstage)\n")
		} else {
			fmt.Fprint(out, "  (use \"git restore --staged <file>...\" to unstage)\n")
		}
		for _, ch := range staged {
			item(ch)
		}
		fmt.Fprintln(out)
	}
	if len(unmerged) > 0 {
		fmt.Fprint(out, "Unmerged paths:\n")
		if !c.merging() {
			fmt.Fprint(out, "  (use \"git restore --staged <file>...\" to unstage)\n")
		}
		fmt.Fprint(out, "  (use \"git add <file>...\" to mark resolution)\n")
		codes := c.unmergedCodes()
		for _, p := range unmerged {
			label := map[string]string{"UU": "both modified:", "AA": "both added:", "UD": "deleted by them:", "DU": "deleted by us:", "AU": "added by us:", "UA": "added by them:", "DD": "both deleted:"}[codes[p]]
			fmt.Fprintf(out, "\t%-17s%s\n", label, quoteSP(c.display(p)))
		}
		fmt.Fprintln(out)
	}
	if len(unstaged) > 0 {
		fmt.Fprint(out, "Changes not staged for commit:\n")
		deleted := false
		for _, ch := range unstaged {
			deleted = deleted || ch.kind == 'D'
		}
		if deleted {
			fmt.Fprint(out, "  (use \"git add/rm <file>...\" to update what will be committed)\n")
		} else {
			fmt.Fprint(out, "  (use \"git add <file>...\" to update what will be committed)\n")
		}
		fmt.Fprint(out, "  (use \"git restore <file>...\" to discard changes in working directory)\n")
		for _, ch := range unstaged {
			item(ch)
		}
		fmt.Fprintln(out)
	}
	if len(untracked) > 0 {
		fmt.Fprint(out, "Untracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n")
		for _, u := range untracked {
			fmt.Fprintf(out, "\t%s\n", quoteSP(c.display(u)))
		}
		fmt.Fprintln(out)
	}
	switch {
	case len(staged) > 0:
	case len(unmerged) > 0:
		fmt.Fprint(out, "no changes added to commit (use \"git add\" and/or \"git commit -a\")\n")
	case len(unstaged) > 0:
		fmt.Fprint(out, "no changes added to commit (use \"git add\" and/or \"git commit -a\")\n")
	case len(untracked) > 0:
		fmt.Fprint(out, "nothing added to commit but untracked files present (use \"git add\" to track)\n")
	case st.unborn:
		fmt.Fprint(out, "nothing to commit (create/copy files and use \"git add\" to track)\n")
	case noUntracked:
		fmt.Fprint(out, "nothing to commit (use -u to show untracked files)\n")
	default:
		fmt.Fprint(out, "nothing to commit, working tree clean\n")
	}
	return nil
}
