package git

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// logOpts are git log's and git show's options.
type logOpts struct {
	diff      diffOpts
	format    string // "medium", "oneline", "short", "full", "raw" or "format:..."
	tformat   bool   // terminate each entry (tformat) rather than separate
	max       int
	skip      int
	reverse   bool
	noPatch   bool
	abbrev    bool
	all       bool
	grep      string
	author    string
	firstPar  bool
	decorate  bool
	revs      []string
	specs     []string
	formatSet bool
}

func (c *cmd) parseLogArgs(args []string, o *logOpts) error {
	o.max = -1
	o.format = "medium"
	o.diff.context = 3
	dashdash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case dashdash:
			o.specs = append(o.specs, a)
		case a == "--":
			dashdash = true
		case a == "--oneline":
			o.format, o.abbrev, o.formatSet = "oneline", true, true
		case strings.HasPrefix(a, "--pretty=") || strings.HasPrefix(a, "--format="):
			v := a[strings.Index(a, "=")+1:]
			o.formatSet = true
			switch {
			case strings.HasPrefix(v, "format:"):
				o.format, o.tformat = v, false
			case strings.HasPrefix(v, "tformat:"):
				o.format, o.tformat = "format:"+v[len("tformat:"):], true
			case v == "oneline" || v == "short" || v == "medium" || v == "full" || v == "fuller" || v == "raw":
				o.format = v
			case strings.Contains(v, "%"):
				o.format, o.tformat = "format:"+v, true
			default:
				return c.fatal("invalid --pretty format: %s", v)
			}
		case a == "--pretty":
			o.format = "medium"
		case a == "-n" || a == "--max-count":
			n, err := strconv.Atoi(val())
			if err != nil {
				return c.fatal("'%s': not an integer", args[i])
			}
			o.max = n
		case strings.HasPrefix(a, "--max-count="):
			o.max, _ = strconv.Atoi(a[len("--max-count="):])
		case strings.HasPrefix(a, "-n"):
			o.max, _ = strconv.Atoi(a[2:])
		case len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9':
			o.max, _ = strconv.Atoi(a[1:])
		case a == "--reverse":
			o.reverse = true
		case strings.HasPrefix(a, "--skip="):
			n, err := strconv.Atoi(a[len("--skip="):])
			if err != nil || n < 0 {
				return c.fatal("'%s': not an integer", a[len("--skip="):])
			}
			o.skip = n
		case strings.HasPrefix(a, "--date="):
			mode := a[len("--date="):]
			switch mode {
			case "default", "short", "iso", "iso8601", "iso-strict", "iso8601-strict", "unix", "raw", "rfc", "rfc2822", "relative", "local":
				c.dateMode = mode
			default:
				return c.fatal("unknown date format %s", mode)
			}
		case a == "-s" || a == "--no-patch":
			o.noPatch = true
		case a == "--abbrev-commit":
			o.abbrev = true
		case a == "--all":
			o.all = true
		case a == "--first-parent":
			o.firstPar = true
		case a == "--decorate" || a == "--decorate=short":
			o.decorate = true
		case a == "--no-decorate" || a == "--no-merges" || a == "--no-color" || a == "--color=never" || a == "--graph":
		case strings.HasPrefix(a, "--grep="):
			o.grep = a[len("--grep="):]
		case strings.HasPrefix(a, "--author="):
			o.author = a[len("--author="):]
		case o.diff.parse(a):
		case strings.HasPrefix(a, "-"):
			return c.fatal("unrecognized argument: %s", a)
		default:
			o.revs = append(o.revs, a)
		}
	}
	return nil
}

func (c *cmd) log() error {
	o := &logOpts{}
	if err := c.parseLogArgs(c.args, o); err != nil {
		return err
	}
	if err := c.open(); err != nil {
		return err
	}
	if _, err := c.headCommit(); err != nil {
		return c.fatal("%s", err)
	}
	var include, exclude []plumbing.Hash
	var specs []string
	for i, r := range o.revs {
		if a, b, ok := strings.Cut(r, ".."); ok {
			ca, err := c.resolve(orHead(a))
			if err != nil {
				return c.badRev(r)
			}
			cb, err := c.resolve(orHead(b))
			if err != nil {
				return c.badRev(r)
			}
			exclude = append(exclude, ca.Hash)
			include = append(include, cb.Hash)
			continue
		}
		if strings.HasPrefix(r, "^") {
			cm, err := c.resolve(r[1:])
			if err != nil {
				return c.badRev(r)
			}
			exclude = append(exclude, cm.Hash)
			continue
		}
		cm, err := c.resolve(r)
		if err != nil {
			if _, serr := os.Lstat(r); serr == nil {
				specs = append(specs, o.revs[i:]...)
				break
			}
			return c.fatal("ambiguous argument '%s': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'", r)
		}
		include = append(include, cm.Hash)
	}
	o.specs = append(o.specs, specs...)
	if o.all {
		refs, _ := c.repo.References()
		refs.ForEach(func(r *plumbing.Reference) error {
			if r.Type() == plumbing.HashReference && (r.Name().IsBranch() || r.Name().IsTag() || r.Name().IsRemote()) {
				if cm, err := c.resolve(r.Name().String()); err == nil {
					include = append(include, cm.Hash)
				}
			}
			return nil
		})
	}
	if len(include) == 0 && o.all {
		return nil
	}
	if len(include) == 0 {
		h, err := c.headCommit()
		if err != nil || h == nil {
			branch := strings.TrimPrefix(string(c.headRef()), "refs/heads/")
			return c.fatal("your current branch '%s' does not have any commits yet", branch)
		}
		include = append(include, h.Hash)
	}
	commits, err := c.walk(include, exclude, o.firstPar)
	if err != nil {
		return c.fatal("%s", err)
	}
	match, err := c.pathspec(o.specs)
	if err != nil {
		return err
	}
	var shown []*object.Commit
	for _, cm := range commits {
		if o.grep != "" && !strings.Contains(cm.Message, o.grep) {
			continue
		}
		if o.author != "" && !strings.Contains(cm.Author.Name+" <"+cm.Author.Email+">", o.author) {
			continue
		}
		if len(o.specs) > 0 {
			chs, err := c.commitChanges(cm)
			if err != nil {
				return c.fatal("%s", err)
			}
			if len(filterChanges(chs, match)) == 0 {
				continue
			}
		}
		shown = append(shown, cm)
	}
	if o.skip > 0 {
		shown = shown[min(o.skip, len(shown)):]
	}
	if o.max >= 0 && len(shown) > o.max {
		shown = shown[:o.max]
	}
	if o.reverse {
		for i, j := 0, len(shown)-1; i < j; i, j = i+1, j-1 {
			shown[i], shown[j] = shown[j], shown[i]
		}
	}
	out := c.env.Out()
	for i, cm := range shown {
		if err := c.showCommit(out, cm, o, i, match); err != nil {
			return err
		}
	}
	return nil
}

func (c *cmd) badRev(r string) error {
	return c.fatal("ambiguous argument '%s': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'", r)
}

// walk lists the commits reachable from include and not from exclude,
// newest first by commit date (git log's default order, ties broken by
// discovery order).
func (c *cmd) walk(include, exclude []plumbing.Hash, firstParent bool) ([]*object.Commit, error) {
	excluded := map[plumbing.Hash]bool{}
	var stack []plumbing.Hash
	stack = append(stack, exclude...)
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if excluded[h] {
			continue
		}
		excluded[h] = true
		cm, err := c.repo.CommitObject(h)
		if err != nil {
			return nil, err
		}
		stack = append(stack, cm.ParentHashes...)
	}
	seen := map[plumbing.Hash]bool{}
	var queue []*object.Commit
	push := func(h plumbing.Hash) error {
		if seen[h] || excluded[h] {
			return nil
		}
		seen[h] = true
		cm, err := c.repo.CommitObject(h)
		if err != nil {
			return err
		}
		queue = append(queue, cm)
		return nil
	}
	for _, h := range include {
		if err := push(h); err != nil {
			return nil, err
		}
	}
	var out []*object.Commit
	for len(queue) > 0 {
		// Take the newest commit in the queue.
		best := 0
		for i, cm := range queue {
			if cm.Committer.When.After(queue[best].Committer.When) {
				best = i
			}
		}
		cm := queue[best]
		queue = append(queue[:best], queue[best+1:]...)
		out = append(out, cm)
		parents := cm.ParentHashes
		if firstParent && len(parents) > 1 {
			parents = parents[:1]
		}
		for _, p := range parents {
			if err := push(p); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// commitChanges compares a commit with its first parent.
func (c *cmd) commitChanges(cm *object.Commit) ([]change, error) {
	var parent *object.Commit
	if len(cm.ParentHashes) > 0 {
		p, err := c.repo.CommitObject(cm.ParentHashes[0])
		if err != nil {
			return nil, err
		}
		parent = p
	}
	a, err := c.treeFiles(parent)
	if err != nil {
		return nil, err
	}
	b, err := c.treeFiles(cm)
	if err != nil {
		return nil, err
	}
	return compare(a, b, true), nil
}

// decorations maps commits to the refs that point at them.
func (c *cmd) decorations() map[plumbing.Hash][]string {
	d := map[plumbing.Hash][]string{}
	head, _ := c.repo.Head()
	headRef := c.headRef()
	refs, err := c.repo.References()
	if err != nil {
		return d
	}
	var names []*plumbing.Reference
	refs.ForEach(func(r *plumbing.Reference) error {
		if r.Type() == plumbing.HashReference && (r.Name().IsBranch() || r.Name().IsTag()) {
			names = append(names, r)
		}
		return nil
	})
	// git lists a commit's decorations newest-added first: refs in
	// reverse name order, the checked-out branch first of all.
	sort.Slice(names, func(i, j int) bool { return names[i].Name() > names[j].Name() })
	if head != nil && headRef == "" {
		d[head.Hash()] = append(d[head.Hash()], "HEAD")
	}
	for _, r := range names {
		h := r.Hash()
		label := r.Name().Short()
		if r.Name().IsTag() {
			if cm, err := c.resolve(r.Name().String()); err == nil {
				h = cm.Hash
			}
			label = "tag: " + label
		}
		if r.Name() == headRef {
			d[h] = append([]string{"HEAD -> " + label}, d[h]...)
			continue
		}
		d[h] = append(d[h], label)
	}
	return d
}

// showCommit prints one commit in the chosen format, with its diff when
// asked.
func (c *cmd) showCommit(w io.Writer, cm *object.Commit, o *logOpts, n int, match func(string) bool) error {
	var deco map[plumbing.Hash][]string
	if o.decorate || strings.Contains(o.format, "%d") || strings.Contains(o.format, "%D") {
		deco = c.decorations()
	}
	hash := cm.Hash.String()
	if o.abbrev {
		hash = abbrev(cm.Hash)
	}
	decoText := ""
	if o.decorate && len(deco[cm.Hash]) > 0 {
		decoText = " (" + strings.Join(deco[cm.Hash], ", ") + ")"
	}
	msg := strings.TrimRight(cm.Message, "\n")
	subject, body, _ := strings.Cut(msg, "\n\n")
	subject = strings.ReplaceAll(subject, "\n", " ")
	wantDiff := (o.diff.set || o.diff.patch) && !o.noPatch
	switch {
	case strings.HasPrefix(o.format, "format:"):
		if n > 0 && !o.tformat {
			fmt.Fprintln(w)
		}
		fmt.Fprint(w, c.expandFormat(o.format[len("format:"):], cm, deco))
		if o.tformat {
			fmt.Fprintln(w)
		}
		if wantDiff {
			fmt.Fprintln(w)
		}
	case o.format == "oneline":
		fmt.Fprintf(w, "%s%s %s\n", hash, decoText, subject)
	default:
		if n > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "commit %s%s\n", hash, decoText)
		if len(cm.ParentHashes) > 1 {
			var ps []string
			for _, p := range cm.ParentHashes {
				ps = append(ps, abbrev(p))
			}
			fmt.Fprintf(w, "Merge: %s\n", strings.Join(ps, " "))
		}
		switch o.format {
		case "short":
			fmt.Fprintf(w, "Author: %s <%s>\n", cm.Author.Name, cm.Author.Email)
		case "full":
			fmt.Fprintf(w, "Author: %s <%s>\nCommit: %s <%s>\n", cm.Author.Name, cm.Author.Email, cm.Committer.Name, cm.Committer.Email)
		case "fuller":
			fmt.Fprintf(w, "Author:     %s <%s>\nAuthorDate: %s\nCommit:     %s <%s>\nCommitDate: %s\n", cm.Author.Name, cm.Author.Email, c.dateIn(cm.Author.When), cm.Committer.Name, cm.Committer.Email, c.dateIn(cm.Committer.When))
		default:
			fmt.Fprintf(w, "Author: %s <%s>\nDate:   %s\n", cm.Author.Name, cm.Author.Email, c.dateIn(cm.Author.When))
		}
		fmt.Fprintln(w)
		lines := strings.Split(msg, "\n")
		if o.format == "short" {
			lines = []string{subject}
		}
		for _, l := range lines {
			fmt.Fprintf(w, "    %s\n", l)
		}
		if wantDiff && (o.diff.patch || o.diff.stat || o.diff.shortstat || o.diff.nameOnly || o.diff.nameStatus || o.diff.numstat) {
			fmt.Fprintln(w)
		}
	}
	_ = body
	if wantDiff {
		chs, err := c.commitChanges(cm)
		if err != nil {
			return c.fatal("%s", err)
		}
		if o.format == "oneline" && (o.diff.patch || o.diff.stat) && len(chs) > 0 {
			// git separates the diff from a oneline header with nothing.
		}
		c.writeChanges(w, filterChanges(chs, match), &o.diff)
	}
	return nil
}

// expandFormat expands a --format string's placeholders.
func (c *cmd) expandFormat(f string, cm *object.Commit, deco map[plumbing.Hash][]string) string {
	var b strings.Builder
	msg := strings.TrimRight(cm.Message, "\n")
	subject, body, _ := strings.Cut(msg, "\n\n")
	subject = strings.ReplaceAll(subject, "\n", " ")
	date := func(t time.Time, k byte) string {
		switch k {
		case 'd':
			return c.dateIn(t)
		case 't':
			return strconv.FormatInt(t.Unix(), 10)
		case 'i':
			return t.Format("2006-01-02 15:04:05 -0700")
		case 'I':
			return t.Format("2006-01-02T15:04:05-07:00")
		case 's':
			return t.Format("2006-01-02")
		case 'D':
			return t.Format("Mon, 2 Jan 2006 15:04:05 -0700")
		case 'r':
			return relDate(t)
		}
		return ""
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'H':
			b.WriteString(cm.Hash.String())
		case 'h':
			b.WriteString(abbrev(cm.Hash))
		case 'T':
			b.WriteString(cm.TreeHash.String())
		case 't':
			b.WriteString(abbrev(cm.TreeHash))
		case 'P', 'p':
			var ps []string
			for _, p := range cm.ParentHashes {
				if f[i] == 'p' {
					ps = append(ps, abbrev(p))
				} else {
					ps = append(ps, p.String())
				}
			}
			b.WriteString(strings.Join(ps, " "))
		case 'a', 'c':
			sig := cm.Author
			if f[i] == 'c' {
				sig = cm.Committer
			}
			if i+1 >= len(f) {
				b.WriteByte('%')
				b.WriteByte(f[i])
				continue
			}
			i++
			switch f[i] {
			case 'n', 'N':
				b.WriteString(sig.Name)
			case 'e', 'E':
				b.WriteString(sig.Email)
			case 'l':
				local, _, _ := strings.Cut(sig.Email, "@")
				b.WriteString(local)
			default:
				b.WriteString(date(sig.When, f[i]))
			}
		case 's':
			b.WriteString(subject)
		case 'b':
			if body != "" {
				b.WriteString(body + "\n")
			}
		case 'B':
			b.WriteString(msg + "\n")
		case 'n':
			b.WriteByte('\n')
		case '%':
			b.WriteByte('%')
		case 'x':
			if i+2 < len(f) {
				if v, err := strconv.ParseUint(f[i+1:i+3], 16, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteString("%x")
		case 'd':
			if ds := deco[cm.Hash]; len(ds) > 0 {
				b.WriteString(" (" + strings.Join(ds, ", ") + ")")
			}
		case 'D':
			b.WriteString(strings.Join(deco[cm.Hash], ", "))
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

// dateIn formats t in the --date mode (git's default format if none).
func (c *cmd) dateIn(t time.Time) string {
	switch c.dateMode {
	case "short":
		return t.Format("2006-01-02")
	case "iso", "iso8601":
		return t.Format("2006-01-02 15:04:05 -0700")
	case "iso-strict", "iso8601-strict":
		return t.Format(time.RFC3339)
	case "unix":
		return strconv.FormatInt(t.Unix(), 10)
	case "raw":
		return strconv.FormatInt(t.Unix(), 10) + t.Format(" -0700")
	case "rfc", "rfc2822":
		return t.Format("Mon, 2 Jan 2006 15:04:05 -0700")
	case "relative":
		return relDate(t)
	case "local":
		return t.Local().Format("Mon Jan 2 15:04:05 2006")
	}
	return gitDate(t)
}

// relDate is git's relative date ("3 days ago").
func relDate(t time.Time) string {
	d := time.Since(t)
	s := int64(d.Seconds())
	switch {
	case s < 0:
		return "in the future"
	case s < 90:
		return plural(int(s), "second ago", "seconds ago")
	case s < 90*60:
		return plural(int((s+30)/60), "minute ago", "minutes ago")
	case s < 36*3600:
		return plural(int((s+1800)/3600), "hour ago", "hours ago")
	case s < 14*86400:
		return plural(int((s+43200)/86400), "day ago", "days ago")
	case s < 70*86400:
		return plural(int((s+3*86400)/(7*86400)), "week ago", "weeks ago")
	case s < 365*86400:
		return plural(int((s+15*86400)/(30*86400)), "month ago", "months ago")
	}
	return plural(int((s+183*86400)/(365*86400)), "year ago", "years ago")
}

func (c *cmd) show() error {
	o := &logOpts{}
	if err := c.parseLogArgs(c.args, o); err != nil {
		return err
	}
	if err := c.open(); err != nil {
		return err
	}
	if !o.diff.set && !o.noPatch {
		o.diff.patch = true
	}
	if len(o.revs) == 0 {
		o.revs = []string{"HEAD"}
	}
	out := c.env.Out()
	match, _ := c.pathspec(o.specs)
	for i, r := range o.revs {
		if rev, p, ok := strings.Cut(r, ":"); ok {
			cm, err := c.resolve(orHead(rev))
			if err != nil {
				return c.badRev(r)
			}
			tree, err := cm.Tree()
			if err != nil {
				return c.fatal("%s", err)
			}
			f, err := tree.File(strings.TrimPrefix(p, "./"))
			if err != nil {
				return c.fatal("path '%s' does not exist in '%s'", p, orHead(rev))
			}
			data, err := c.blob(f.Hash)
			if err != nil {
				return c.fatal("%s", err)
			}
			out.Write(data)
			continue
		}
		h, err := c.resolveHash(r)
		if err != nil {
			return c.badRev(r)
		}
		if tr, err := c.repo.Storer.Reference(plumbing.NewTagReferenceName(r)); err == nil {
			h = new(plumbing.Hash)
			*h = tr.Hash()
		}
		if tag, err := c.repo.TagObject(*h); err == nil {
			fmt.Fprintf(out, "tag %s\nTagger: %s <%s>\nDate:   %s\n\n%s\n", tag.Name, tag.Tagger.Name, tag.Tagger.Email, gitDate(tag.Tagger.When), strings.TrimRight(tag.Message, "\n"))
			if i == 0 {
				fmt.Fprintln(out)
			}
		}
		cm, err := c.resolve(r)
		if err != nil {
			return c.badRev(r)
		}
		if err := c.showCommit(out, cm, o, i, match); err != nil {
			return err
		}
	}
	return nil
}

func (c *cmd) revParse() error {
	if err := c.open(); err != nil {
		return err
	}
	out := c.env.Out()
	short := false
	abbrevRef := false
	verify := false
	for _, a := range c.args {
		switch {
		case a == "--show-toplevel":
			fmt.Fprintln(out, c.root)
		case a == "--git-dir":
			if c.prefix() == "" {
				fmt.Fprintln(out, ".git")
			} else {
				fmt.Fprintln(out, c.gitDir())
			}
		case a == "--is-inside-work-tree":
			fmt.Fprintln(out, "true")
		case a == "--is-bare-repository":
			fmt.Fprintln(out, "false")
		case a == "--show-prefix":
			fmt.Fprintln(out, c.prefix())
		case a == "--show-cdup":
			fmt.Fprintln(out, strings.Repeat("../", strings.Count(c.prefix(), "/")))
		case a == "--short":
			short = true
		case strings.HasPrefix(a, "--short="):
			short = true
		case a == "--abbrev-ref":
			abbrevRef = true
		case a == "--verify" || a == "-q" || a == "--quiet":
			verify = true
		case a == "--symbolic-full-name":
		case strings.HasPrefix(a, "-"):
			fmt.Fprintln(out, a)
		default:
			if abbrevRef {
				if a == "HEAD" {
					ref := c.headRef()
					if ref == "" {
						fmt.Fprintln(out, "HEAD")
					} else {
						if _, err := c.headCommit(); err != nil {
							return c.fatal("%s", err)
						}
						if h, _ := c.headCommit(); h == nil {
							fmt.Fprintf(out, "HEAD\n")
							c.env.Out().Flush()
							fmt.Fprint(c.env.Stderr, "fatal: ambiguous argument 'HEAD': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'\n")
							return &exitError{128}
						}
						fmt.Fprintln(out, strings.TrimPrefix(string(ref), "refs/heads/"))
					}
					continue
				}
				fmt.Fprintln(out, a)
				continue
			}
			h, err := c.resolveHash(a)
			if rev, p, ok := strings.Cut(a, ":"); ok {
				h, err = nil, errNoHead
				if cm, cerr := c.resolve(orHead(rev)); cerr == nil {
					if tree, terr := cm.Tree(); terr == nil {
						if p == "" {
							h = &cm.TreeHash
							err = nil
						} else if e, ferr := tree.FindEntry(p); ferr == nil {
							h = &e.Hash
							err = nil
						}
					}
				}
			}
			if err != nil {
				if verify {
					c.env.Out().Flush()
					fmt.Fprint(c.env.Stderr, "fatal: Needed a single revision\n")
					return &exitError{128}
				}
				fmt.Fprintln(out, a)
				c.env.Out().Flush()
				fmt.Fprintf(c.env.Stderr, "fatal: ambiguous argument '%s': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'\n", a)
				return &exitError{128}
			}
			if short {
				fmt.Fprintln(out, abbrev(*h))
			} else {
				fmt.Fprintln(out, h.String())
			}
		}
	}
	return nil
}
