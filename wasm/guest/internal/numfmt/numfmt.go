// Package numfmt implements numfmt: convert numbers to and from
// human-readable forms (1.5K, 2.0Mi), as GNU coreutils' numfmt does.
package numfmt

import (
	"bufio"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = &tool.Spec{
	Options: []tool.Option{
		{Long: "from", Arg: tool.RequiredArg},
		{Long: "to", Arg: tool.RequiredArg},
		{Long: "round", Arg: tool.RequiredArg},
		{Long: "suffix", Arg: tool.RequiredArg},
		{Long: "padding", Arg: tool.RequiredArg},
		{Long: "field", Arg: tool.RequiredArg},
		{Long: "format", Arg: tool.RequiredArg},
		{Long: "header", Arg: tool.OptionalArg},
		{Long: "from-unit", Arg: tool.RequiredArg},
		{Long: "to-unit", Arg: tool.RequiredArg},
		{Short: 'd', Long: "delimiter", Arg: tool.RequiredArg},
	},
	UsageExit: 1,
	Help: `Usage: numfmt [OPTION]... [NUMBER]...
Reformat NUMBER(s), or the numbers from standard input if none are specified.

  -d, --delimiter=X    use X instead of whitespace for field delimiter
      --field=N        replace the number in input field N (default is 1)
      --format=FORMAT  use printf style floating-point FORMAT
      --from=UNIT      auto-scale input numbers to UNITs; default is 'none'
      --from-unit=N    specify the input unit size (instead of the default 1)
      --header[=N]     print (without converting) the first N header lines;
                         N defaults to 1 if not specified
      --padding=N      pad the output to N characters; positive N will
                         right-align; negative N will left-align
      --round=METHOD   use METHOD for rounding when scaling; METHOD can be:
                         up, down, from-zero (default), towards-zero, nearest
      --suffix=SUFFIX  add SUFFIX to output numbers, and accept optional
                         SUFFIX in input numbers
      --to=UNIT        auto-scale output numbers to UNITs; see UNIT below
      --to-unit=N      the output unit size (instead of the default 1)
      --help        display this help and exit
      --version     output version information and exit

UNIT options:
  none       no auto-scaling is done; suffixes will trigger an error
  auto       accept optional single/two letter suffix:
               1K = 1000, 1Ki = 1024, 1M = 1000000, 1Mi = 1048576, ...
  si         accept optional single letter suffix:
               1K = 1000, 1M = 1000000, ...
  iec        accept optional single letter suffix:
               1K = 1024, 1M = 1048576, ...
  iec-i      accept optional two-letter suffix:
               1Ki = 1024, 1Mi = 1048576, ...
`,
}

const prefixes = "KMGTPEZY"

type conv struct {
	from, to         string
	round            string
	suffix           string
	padding          int
	field            int
	delim            string
	fromUnit, toUnit float64
	width, prec      int // from --format; prec -1 if none
	leftAlign        bool
	fmtPrefix        string
	fmtSuffix        string
}

type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

// Main is the numfmt command.
func Main(env *tool.Env) int {
	flags, nums, code, done := spec.Parse(env)
	if done {
		return code
	}
	c := &conv{from: "none", to: "none", round: "from-zero", field: 1, fromUnit: 1, toUnit: 1, prec: -1}
	header := 0
	for _, f := range flags {
		switch f.Name {
		case "from", "to":
			valid := []string{"none", "auto", "si", "iec", "iec-i"}
			if f.Name == "to" {
				valid = []string{"none", "si", "iec", "iec-i"}
			}
			if !contains(valid, f.Arg) {
				return badArg(env, f.Arg, "--"+f.Name, valid)
			}
			if f.Name == "from" {
				c.from = f.Arg
			} else {
				c.to = f.Arg
			}
		case "round":
			valid := []string{"up", "down", "from-zero", "towards-zero", "nearest"}
			if !contains(valid, f.Arg) {
				return badArg(env, f.Arg, "--round", valid)
			}
			c.round = f.Arg
		case "suffix":
			c.suffix = f.Arg
		case "padding":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n == 0 {
				env.Errorf("invalid padding value %s", tool.Quote(f.Arg))
				return 1
			}
			c.padding = n
		case "field":
			n, err := strconv.Atoi(f.Arg)
			if err != nil || n < 1 {
				env.Errorf("invalid field value %s", tool.Quote(f.Arg))
				return 1
			}
			c.field = n
		case "d":
			c.delim = f.Arg
		case "header":
			header = 1
			if f.HasArg {
				n, err := strconv.Atoi(f.Arg)
				if err != nil || n < 1 {
					env.Errorf("invalid header value %s", tool.Quote(f.Arg))
					return 1
				}
				header = n
			}
		case "from-unit", "to-unit":
			v, err := strconv.ParseFloat(f.Arg, 64)
			if err != nil || v <= 0 {
				env.Errorf("invalid unit size: %s", tool.Quote(f.Arg))
				return 1
			}
			if f.Name == "from-unit" {
				c.fromUnit = v
			} else {
				c.toUnit = v
			}
		case "format":
			if !c.parseFormat(f.Arg) {
				env.Errorf("invalid format %s", tool.Quote(f.Arg))
				return 1
			}
		}
	}
	out := env.Out()
	if len(nums) > 0 {
		for _, n := range nums {
			s, err := c.number(n)
			if err != nil {
				env.Errorf("%s", err)
				return 2
			}
			fmt.Fprintln(out, s)
		}
		return 0
	}
	sc := bufio.NewScanner(env.Stdin)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 0; sc.Scan(); line++ {
		text := sc.Text()
		if line < header {
			fmt.Fprintln(out, text)
			continue
		}
		s, err := c.line(text)
		if err != nil {
			env.Errorf("%s", err)
			return 2
		}
		fmt.Fprintln(out, s)
	}
	return 0
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// badArg reports an invalid option argument as argmatch does.
func badArg(env *tool.Env, arg, opt string, valid []string) int {
	env.Errorf("invalid argument %s for %s", tool.Quote(arg), tool.Quote(opt))
	var b strings.Builder
	b.WriteString("Valid arguments are:\n")
	for _, v := range valid {
		b.WriteString("  - " + tool.Quote(v) + "\n")
	}
	fmt.Fprint(env.Stderr, b.String())
	return env.Usage(1, "")
}

// parseFormat reads a --format like "%8f", "%-10.2f", "prefix %'f suffix".
func (c *conv) parseFormat(f string) bool {
	i := strings.IndexByte(f, '%')
	if i < 0 {
		return false
	}
	c.fmtPrefix = f[:i]
	j := i + 1
	for j < len(f) && (f[j] == '\'' || f[j] == '-' || f[j] == '0') {
		if f[j] == '-' {
			c.leftAlign = true
		}
		j++
	}
	k := j
	for k < len(f) && f[k] >= '0' && f[k] <= '9' {
		k++
	}
	if k > j {
		c.width, _ = strconv.Atoi(f[j:k])
	}
	if k < len(f) && f[k] == '.' {
		m := k + 1
		for m < len(f) && f[m] >= '0' && f[m] <= '9' {
			m++
		}
		c.prec, _ = strconv.Atoi(f[k+1 : m])
		k = m
	}
	if k >= len(f) || f[k] != 'f' {
		return false
	}
	c.fmtSuffix = f[k+1:]
	return true
}

// line converts the chosen field of a line, keeping the rest as it is.
func (c *conv) line(text string) (string, error) {
	if c.delim != "" {
		fields := strings.Split(text, c.delim)
		if c.field > len(fields) {
			return text, nil
		}
		s, err := c.number(fields[c.field-1])
		if err != nil {
			return "", err
		}
		fields[c.field-1] = s
		return strings.Join(fields, c.delim), nil
	}
	// Whitespace-separated: each run of blanks between fields is printed
	// with its first blank as a space, as GNU numfmt joins fields.
	var b strings.Builder
	n, i := 0, 0
	for i < len(text) {
		j := i
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
		if j >= len(text) {
			b.WriteString(text[i:])
			break
		}
		if n > 0 {
			b.WriteByte(' ')
			b.WriteString(text[i+1 : j])
		} else {
			b.WriteString(text[i:j])
		}
		k := j
		for k < len(text) && text[k] != ' ' && text[k] != '\t' {
			k++
		}
		n++
		if n == c.field {
			s, err := c.number(text[j:k])
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		} else {
			b.WriteString(text[j:k])
		}
		i = k
	}
	return b.String(), nil
}

// number converts one number.
func (c *conv) number(s string) (string, error) {
	s = strings.TrimSpace(s)
	body := strings.TrimSuffix(s, c.suffix)
	v, decimals, scaled, err := c.parse(body, s)
	if err != nil {
		return "", err
	}
	v = v * c.fromUnit / c.toUnit
	return c.format(v, decimals, scaled), nil
}

// parse reads a number with an optional unit suffix.
func (c *conv) parse(s, orig string) (v float64, decimals int, scaled bool, err error) {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		decimals = j - i - 1
		i = j
	}
	if i == start || s[start:i] == "." {
		return 0, 0, false, &inputError{fmt.Sprintf("invalid number: %s", tool.Quote(orig))}
	}
	v, perr := strconv.ParseFloat(s[:i], 64)
	if perr != nil {
		return 0, 0, false, &inputError{fmt.Sprintf("invalid number: %s", tool.Quote(orig))}
	}
	rest := s[i:]
	if rest == "" {
		return v, decimals, false, nil
	}
	p := strings.IndexByte(prefixes, rest[0])
	if p < 0 || c.from == "none" {
		if p >= 0 {
			return 0, 0, false, &inputError{fmt.Sprintf("rejecting suffix in input: %s (consider using --from)", tool.Quote(orig))}
		}
		return 0, 0, false, &inputError{fmt.Sprintf("invalid suffix in input: %s", tool.Quote(orig))}
	}
	base := 1000.0
	rest = rest[1:]
	switch c.from {
	case "iec":
		base = 1024
	case "iec-i":
		if rest != "i" {
			return 0, 0, false, &inputError{fmt.Sprintf("missing 'i' suffix in input: %s (e.g Ki/Mi/Gi)", tool.Quote(orig))}
		}
		base, rest = 1024, ""
	case "auto":
		if rest == "i" {
			base, rest = 1024, ""
		}
	}
	if rest != "" {
		return 0, 0, false, &inputError{fmt.Sprintf("invalid suffix in input: %s", tool.Quote(orig))}
	}
	return v * math.Pow(base, float64(p+1)), decimals, true, nil
}

// roundTo rounds v to an integer as the --round method says.
func (c *conv) roundTo(v float64) float64 {
	switch c.round {
	case "up":
		return math.Ceil(v)
	case "down":
		return math.Floor(v)
	case "towards-zero":
		return math.Trunc(v)
	case "nearest":
		return math.Round(v)
	}
	if v < 0 {
		return -math.Ceil(-v)
	}
	return math.Ceil(v)
}

// format prints v in the output unit with padding and the suffix.
func (c *conv) format(v float64, decimals int, scaled bool) string {
	var num string
	if c.to == "none" {
		switch {
		case c.prec >= 0:
			num = strconv.FormatFloat(v, 'f', c.prec, 64)
		case scaled || c.fromUnit != 1 || c.toUnit != 1:
			num = strconv.FormatFloat(c.roundTo(v), 'f', 0, 64)
		default:
			num = strconv.FormatFloat(v, 'f', decimals, 64)
		}
	} else {
		base := 1000.0
		if c.to != "si" {
			base = 1024
		}
		mag := math.Abs(v)
		p := 0
		for mag >= base && p < len(prefixes) {
			mag /= base
			p++
		}
		sign := 1.0
		if v < 0 {
			sign = -1
		}
		unit := func(p int) string {
			if p == 0 {
				return ""
			}
			u := string(prefixes[p-1])
			if c.to == "iec-i" {
				u += "i"
			}
			return u
		}
		switch {
		case c.prec >= 0 && p > 0:
			scale := math.Pow(10, float64(c.prec))
			r := c.roundTo(sign*mag*scale) / scale
			num = strconv.FormatFloat(r, 'f', c.prec, 64) + unit(p)
		case p == 0:
			num = strconv.FormatFloat(c.roundTo(v), 'f', 0, 64)
		case mag < 10:
			r := math.Abs(c.roundTo(sign*mag*10) / 10)
			if r >= 10 {
				num = strconv.FormatFloat(sign*r, 'f', 0, 64) + unit(p)
			} else {
				num = strconv.FormatFloat(sign*r, 'f', 1, 64) + unit(p)
			}
		default:
			r := math.Abs(c.roundTo(sign * mag))
			if r >= base && p < len(prefixes) {
				num = strconv.FormatFloat(sign*r/base, 'f', 1, 64) + unit(p+1)
			} else {
				num = strconv.FormatFloat(sign*r, 'f', 0, 64) + unit(p)
			}
		}
	}
	num += c.suffix
	if c.width > 0 {
		if c.leftAlign {
			num = fmt.Sprintf("%-*s", c.width, num)
		} else {
			num = fmt.Sprintf("%*s", c.width, num)
		}
	}
	num = c.fmtPrefix + num + c.fmtSuffix
	switch {
	case c.padding > 0:
		num = fmt.Sprintf("%*s", c.padding, num)
	case c.padding < 0:
		num = fmt.Sprintf("%-*s", -c.padding, num)
	}
	return num
}
