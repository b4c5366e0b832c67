// Package du implements du: estimate file space usage.
package du

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/stat"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: '0', Long: "null"},
		{Short: 'a', Long: "all"},
		{Long: "apparent-size"},
		{Short: 'B', Long: "block-size", Arg: tool.RequiredArg},
		{Short: 'b', Long: "bytes"},
		{Short: 'c', Long: "total"},
		{Short: 'D', Long: "dereference-args"},
		{Short: 'H'},
		{Short: 'd', Long: "max-depth", Arg: tool.RequiredArg},
		{Short: 'h', Long: "human-readable"},
		{Long: "inodes"},
		{Short: 'k'},
		{Short: 'L', Long: "dereference"},
		{Short: 'l', Long: "count-links"},
		{Short: 'm'},
		{Short: 'P', Long: "no-dereference"},
		{Short: 'S', Long: "separate-dirs"},
		{Long: "si"},
		{Short: 's', Long: "summarize"},
		{Short: 'x', Long: "one-file-system"},
		{Long: "exclude", Arg: tool.RequiredArg},
		{Short: 't', Long: "threshold", Arg: tool.RequiredArg},
	},
	Help: `Usage: du [OPTION]... [FILE]...
Summarize device usage of the set of FILEs, recursively for directories.

  -0, --null            end each output line with NUL, not newline
  -a, --all             write counts for all files, not just directories
      --apparent-size   print apparent sizes rather than device usage
  -B, --block-size=SIZE  scale sizes by SIZE before printing them
  -b, --bytes           equivalent to '--apparent-size --block-size=1'
  -c, --total           produce a grand total
  -D, --dereference-args  dereference only symlinks that are listed on the
                          command line
  -d, --max-depth=N     print the total for a directory (or file, with --all)
                          only if it is N or fewer levels below the command
                          line argument;  --max-depth=0 is the same as
                          --summarize
  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)
      --inodes          list inode usage information instead of block usage
  -k                    like --block-size=1K
  -L, --dereference     dereference all symbolic links
  -l, --count-links     count sizes many times if hard linked
  -m                    like --block-size=1M
  -P, --no-dereference  don't follow any symbolic links (this is the default)
  -S, --separate-dirs   for directories do not include size of subdirectories
      --si              like -h, but use powers of 1000 not 1024
  -s, --summarize       display only a total for each argument
  -t, --threshold=SIZE  exclude entries smaller than SIZE if positive,
                          or entries greater than SIZE if negative
  -x, --one-file-system  skip directories on different file systems
      --exclude=PATTERN  exclude files that match PATTERN
      --help        display this help and exit
      --version     output version information and exit
`}

type config struct {
	all, apparent, countLinks, separate, inodes bool
	derefAll, derefArgs                         bool
	human                                       int // 0, 1024 or 1000
	block                                       int64
	maxDepth                                    int
	threshold                                   int64
	eol                                         byte
	excludes                                    []string
	seen                                        map[[2]uint64]bool
}

// Main runs du.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	c := &config{block: 1024, maxDepth: -1, eol: '\n', seen: map[[2]uint64]bool{}}
	summarize, total := false, false
	for _, f := range flags {
		switch f.Name {
		case "0":
			c.eol = 0
		case "a":
			c.all = true
		case "apparent-size":
			c.apparent = true
		case "B":
			v, ok := tool.ParseSize(f.Arg)
			if !ok || v == 0 {
				env.Errorf("invalid -B argument %s", tool.Quote(f.Arg))
				return 1
			}
			c.block, c.human = v, 0
		case "b":
			c.apparent, c.block, c.human = true, 1, 0
		case "c":
			total = true
		case "D", "H":
			c.derefArgs = true
		case "d":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 0 {
				env.Errorf("invalid maximum depth %s", tool.Quote(f.Arg))
				return 1
			}
			c.maxDepth = n
		case "h":
			c.human = 1024
		case "si":
			c.human = 1000
		case "inodes":
			c.inodes = true
		case "k":
			c.block, c.human = 1024, 0
		case "m":
			c.block, c.human = 1<<20, 0
		case "L":
			c.derefAll = true
		case "P":
			c.derefAll, c.derefArgs = false, false
		case "l":
			c.countLinks = true
		case "S":
			c.separate = true
		case "s":
			summarize = true
		case "exclude":
			c.excludes = append(c.excludes, f.Arg)
		case "t":
			neg := strings.HasPrefix(f.Arg, "-")
			v, ok := tool.ParseSize(strings.TrimPrefix(f.Arg, "-"))
			if !ok || neg && v == 0 {
				env.Errorf("invalid --threshold argument %s", tool.Quote(f.Arg))
				return 1
			}
			if neg {
				v = -v
			}
			c.threshold = v
		}
	}
	if summarize {
		if c.maxDepth > 0 {
			env.Errorf("warning: summarizing conflicts with --max-depth=%d", c.maxDepth)
			return env.Usage(1, "")
		}
		if c.all {
			env.Errorf("cannot both summarize and show all entries")
			return env.Usage(1, "")
		}
		c.maxDepth = 0
	}
	if len(files) == 0 {
		files = []string{"."}
	}
	status := 0
	var grand int64
	for _, name := range files {
		size, ok := c.walk(env, name, 0, true)
		if !ok {
			status = 1
		}
		grand += size
	}
	if total {
		c.print(env, grand, "total")
	}
	return status
}

func (c *config) excluded(name string) bool {
	base := path.Base(name)
	for _, p := range c.excludes {
		if m, _ := path.Match(p, base); m {
			return true
		}
		if m, _ := path.Match(p, name); m {
			return true
		}
	}
	return false
}

// walk sums name's usage, printing directories (and files with -a) within
// the depth limit, and returns the sum.
func (c *config) walk(env *tool.Env, name string, depth int, arg bool) (int64, bool) {
	var fi fs.FileInfo
	var err error
	if c.derefAll || arg && c.derefArgs {
		fi, err = os.Stat(name)
	} else {
		fi, err = os.Lstat(name)
	}
	if err != nil {
		env.Errorf("cannot access %s: %s", tool.Quote(name), tool.Strerror(err))
		return 0, false
	}
	if !arg && c.excluded(name) {
		return 0, true
	}
	in := stat.SysInfo(fi)
	if !c.countLinks && !fi.IsDir() && in.Nlink > 1 || fi.IsDir() {
		key := [2]uint64{in.Dev, in.Ino}
		if in.Ino != 0 {
			if c.seen[key] {
				return 0, true
			}
			c.seen[key] = true
		}
	}
	var size int64
	switch {
	case c.inodes:
		size = 1
	case c.apparent:
		size = fi.Size()
	default:
		size = in.Blocks * 512
	}
	ok := true
	if fi.IsDir() {
		entries, err := os.ReadDir(name)
		if err != nil {
			env.Errorf("cannot read directory %s: %s", tool.Quote(name), tool.Strerror(err))
			ok = false
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		for _, e := range entries {
			child := name + "/" + e.Name()
			if strings.HasSuffix(name, "/") {
				child = name + e.Name()
			}
			s, cok := c.walk(env, child, depth+1, false)
			if !cok {
				ok = false
			}
			if !c.separate || !e.IsDir() {
				size += s
			}
		}
	}
	if (fi.IsDir() || c.all || arg) && (c.maxDepth < 0 || depth <= c.maxDepth) {
		c.print(env, size, name)
	}
	return size, ok
}

func (c *config) print(env *tool.Env, size int64, name string) {
	if c.threshold > 0 && size < c.threshold || c.threshold < 0 && size > -c.threshold {
		return
	}
	w := env.Out()
	switch {
	case c.inodes:
		w.WriteString(strconv.FormatInt(size, 10))
	case c.human != 0:
		w.WriteString(Human(size, c.human))
	default:
		w.WriteString(strconv.FormatInt((size+c.block-1)/c.block, 10))
	}
	w.WriteByte('\t')
	w.WriteString(name)
	w.WriteByte(c.eol)
}

// Human formats a byte count as GNU's -h does: rounded up, one decimal
// below 10, a unit letter (K, M, G...) in powers of base (1024 or 1000).
func Human(n int64, base int) string {
	if n < int64(base) {
		return strconv.FormatInt(n, 10)
	}
	units := "KMGTPEZYRQ"
	v := float64(n)
	u := -1
	for v >= float64(base) && u < len(units)-1 {
		v /= float64(base)
		u++
	}
	suffix := string(units[u])
	if base == 1000 && u == 0 {
		suffix = "k"
	}
	if v < 10 {
		r := math.Ceil(v*10) / 10
		if r < 10 {
			return fmt.Sprintf("%.1f%s", r, suffix)
		}
		v = r
	}
	r := math.Ceil(v)
	if r >= float64(base) && u < len(units)-1 {
		return fmt.Sprintf("1.0%c", units[u+1])
	}
	return fmt.Sprintf("%.0f%s", r, suffix)
}
