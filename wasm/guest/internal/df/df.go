// Package df implements df: report file system space usage. The sandbox
// has one file system, its in-memory VFS, whose size is the VFS limit; df
// reports it as "wasmsand" mounted on /.
package df

import (
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/du"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/fsx"
	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// The names df shows for the sandbox's file system.
const (
	Source = "wasmsand"
	Type   = "tmpfs"
	Mount  = "/"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'a', Long: "all"},
		{Short: 'B', Long: "block-size", Arg: tool.RequiredArg},
		{Short: 'h', Long: "human-readable"},
		{Short: 'H', Long: "si"},
		{Short: 'i', Long: "inodes"},
		{Short: 'k'},
		{Short: 'l', Long: "local"},
		{Long: "no-sync"},
		{Long: "sync"},
		{Short: 'P', Long: "portability"},
		{Long: "total"},
		{Short: 't', Long: "type", Arg: tool.RequiredArg},
		{Short: 'T', Long: "print-type"},
		{Short: 'x', Long: "exclude-type", Arg: tool.RequiredArg},
	},
	Help: `Usage: df [OPTION]... [FILE]...
Show information about the file system on which each FILE resides,
or all file systems by default.

  -a, --all             include pseudo, duplicate, inaccessible file systems
  -B, --block-size=SIZE  scale sizes by SIZE before printing them
  -h, --human-readable  print sizes in powers of 1024 (e.g., 1023M)
  -H, --si              print sizes in powers of 1000 (e.g., 1.1G)
  -i, --inodes          list inode information instead of block usage
  -k                    like --block-size=1K
  -l, --local           limit listing to local file systems
  -P, --portability     use the POSIX output format
      --total           elide all entries insignificant to available space,
                          and produce a grand total
  -t, --type=TYPE       limit listing to file systems of type TYPE
  -T, --print-type      print file system type
  -x, --exclude-type=TYPE   limit listing to file systems not of type TYPE
      --help        display this help and exit
      --version     output version information and exit

The sandbox has one file system: its in-memory VFS, sized by its limit.
`}

// Main runs df.
func Main(env *tool.Env) int {
	flags, files, code, done := spec.Parse(env)
	if done {
		return code
	}
	var human int
	block := int64(1024)
	inodes, posix, total, printType := false, false, false, false
	for _, f := range flags {
		switch f.Name {
		case "B":
			v, ok := tool.ParseSize(f.Arg)
			if !ok || v == 0 {
				env.Errorf("invalid --block-size argument %s", tool.Quote(f.Arg))
				return 1
			}
			block, human = v, 0
		case "h":
			human = 1024
		case "H":
			human = 1000
		case "i":
			inodes = true
		case "k":
			block, human = 1024, 0
		case "P":
			posix = true
		case "total":
			total = true
		case "T":
			printType = true
		case "t":
			if f.Arg != Type {
				env.Errorf("no file systems processed")
				return 1
			}
		case "x":
			if f.Arg == Type {
				env.Errorf("no file systems processed")
				return 1
			}
		}
	}
	status := 0
	var rows [][]string
	header := []string{"Filesystem"}
	if printType {
		header = append(header, "Type")
	}
	switch {
	case inodes:
		header = append(header, "Inodes", "IUsed", "IFree", "IUse%")
	case human != 0:
		header = append(header, "Size", "Used", "Avail", "Use%")
	case posix:
		header = append(header, strconv.FormatInt(block, 10)+"-blocks", "Used", "Available", "Capacity")
	default:
		header = append(header, blockHeader(block), "Used", "Available", "Use%")
	}
	header = append(header, "Mounted on")
	rows = append(rows, header)
	targets := files
	if len(targets) == 0 {
		targets = []string{Mount}
	}
	var sum [3]uint64
	for _, name := range targets {
		u, err := fsx.FSUsage(name)
		if err != nil {
			env.Errorf("%s: %s", tool.QuoteIfNeeded(name), tool.Strerror(err))
			status = 1
			continue
		}
		var size, used, avail uint64
		if inodes {
			size, used = u.MaxInodes, min(u.UsedInodes, u.MaxInodes)
		} else {
			size, used = u.MaxBytes, min(u.UsedBytes, u.MaxBytes)
		}
		avail = size - used
		sum[0] += size
		sum[1] += used
		sum[2] += avail
		rows = append(rows, row(Source, size, used, avail, inodes, human, block, printType))
		if len(files) == 0 {
			break
		}
	}
	if total && len(rows) > 1 {
		rows = append(rows, row("total", sum[0], sum[1], sum[2], inodes, human, block, printType))
		rows[len(rows)-1][len(rows[len(rows)-1])-1] = "-"
	}
	if len(rows) == 1 {
		return status
	}
	write(env, rows, printType)
	return status
}

func blockHeader(block int64) string {
	if block%(1<<20) == 0 {
		return strconv.FormatInt(block>>20, 10) + "M-blocks"
	}
	if block%1024 == 0 {
		return strconv.FormatInt(block>>10, 10) + "K-blocks"
	}
	return strconv.FormatInt(block, 10) + "B-blocks"
}

func row(source string, size, used, avail uint64, inodes bool, human int, block int64, printType bool) []string {
	r := []string{source}
	if printType {
		r = append(r, Type)
	}
	pct := "-"
	if used+avail > 0 {
		pct = strconv.FormatUint((used*100+used+avail-1)/(used+avail), 10) + "%"
	}
	f := func(v uint64) string {
		switch {
		case inodes:
			if human != 0 {
				return du.Human(int64(v), human)
			}
			return strconv.FormatUint(v, 10)
		case human != 0:
			return du.Human(int64(v), human)
		}
		return strconv.FormatUint((v+uint64(block)-1)/uint64(block), 10)
	}
	return append(r, f(size), f(used), f(avail), pct, Mount)
}

// write prints rows in columns as df does: text columns left-aligned,
// numbers right-aligned, one space between.
func write(env *tool.Env, rows [][]string, printType bool) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len(c))
		}
	}
	widths[0] = max(widths[0], 14)
	w := env.Out()
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			left := i == 0 || i == len(r)-1 || printType && i == 1
			if i > 0 {
				b.WriteByte(' ')
			}
			if i == len(r)-1 {
				b.WriteString(c)
				continue
			}
			gap := strings.Repeat(" ", widths[i]-len(c))
			if left {
				b.WriteString(c + gap)
			} else {
				b.WriteString(gap + c)
			}
		}
		w.WriteString(b.String())
		w.WriteByte('\n')
	}
}
