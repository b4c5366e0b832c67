// Package seq implements seq: print a sequence of numbers.
package seq

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = tool.Spec{
	Options: []tool.Option{
		{Short: 'f', Long: "format", Arg: tool.RequiredArg},
		{Short: 's', Long: "separator", Arg: tool.RequiredArg},
		{Short: 'w', Long: "equal-width"},
	},
	StopAtOperand: true,
	IsOperand:     isNumber,
	Help: `Usage: seq [OPTION]... LAST
  or:  seq [OPTION]... FIRST LAST
  or:  seq [OPTION]... FIRST INCREMENT LAST
Print numbers from FIRST to LAST, in steps of INCREMENT.

  -f, --format=FORMAT      use printf style floating-point FORMAT
  -s, --separator=STRING   use STRING to separate numbers (default: \n)
  -w, --equal-width        equalize width by padding with leading zeroes
      --help        display this help and exit
      --version     output version information and exit
`}

// isNumber reports whether a '-' argument is a negative number operand.
func isNumber(a string) bool {
	return len(a) > 1 && (a[1] == '.' || a[1] >= '0' && a[1] <= '9')
}

// operand is a parsed number with the precision and width it was written in.
type operand struct {
	v         float64
	prec      int // digits after the decimal point
	width     int
	integral  bool // written without '.' or exponent
	hasExpo   bool
	hasPeriod bool
}

func parse(s string) (operand, bool) {
	t := strings.TrimLeft(s, " \t")
	v, err := strconv.ParseFloat(t, 64)
	if err != nil && !isRange(err) || math.IsNaN(v) || strings.ContainsAny(t, "_xXpP") {
		return operand{}, false
	}
	o := operand{v: v, width: len(t), integral: true}
	mant, exp, hasExp := strings.Cut(strings.ToLower(t), "e")
	if strings.Contains(mant, "inf") {
		return o, true
	}
	if _, frac, ok := strings.Cut(mant, "."); ok {
		o.prec = len(frac)
		o.integral = false
		o.hasPeriod = true
	}
	if hasExp {
		o.integral = false
		o.hasExpo = true
		e, _ := strconv.Atoi(exp)
		if o.prec > e {
			o.prec -= e
		} else {
			o.prec = 0
		}
		o.width = len(mant) // approximate, as GNU does for exponents
	}
	return o, true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// Main runs seq.
func Main(env *tool.Env) int {
	flags, args, code, done := spec.Parse(env)
	if done {
		return code
	}
	sep, format, equal := "\n", "", false
	for _, f := range flags {
		switch f.Name {
		case "f":
			format = f.Arg
		case "s":
			sep = f.Arg
		case "w":
			equal = true
		}
	}
	switch {
	case len(args) == 0:
		return env.Usage(1, "missing operand")
	case len(args) > 3:
		return env.Usage(1, "extra operand %s", tool.Quote(args[3]))
	}
	var ops [3]operand
	first, step, last := &ops[0], &ops[1], &ops[2]
	*first = operand{v: 1, width: 1, integral: true}
	*step = operand{v: 1, width: 1, integral: true}
	var targets []*operand
	switch len(args) {
	case 1:
		targets = []*operand{last}
	case 2:
		targets = []*operand{first, last}
	case 3:
		targets = []*operand{first, step, last}
	}
	for i, a := range args {
		o, ok := parse(a)
		if !ok {
			return env.Usage(1, "invalid floating point argument: %s", tool.Quote(a))
		}
		*targets[i] = o
	}
	if step.v == 0 {
		return env.Usage(1, "invalid Zero increment value: %s", tool.Quote(args[1]))
	}
	if format != "" && equal {
		env.Errorf("format string may not be specified when printing equal width strings")
		return env.Usage(1, "")
	}
	out := env.Out()
	if format == "" && first.integral && step.integral && last.integral && !equal &&
		math.Abs(first.v) < 1<<53 && math.Abs(step.v) < 1<<53 && math.Abs(last.v) < 1<<53 {
		return ints(env, int64(first.v), int64(step.v), int64(last.v), sep)
	}
	if format != "" {
		f, err := goFormat(format)
		if err != "" {
			env.Errorf("%s", err)
			return 1
		}
		format = f
	} else {
		prec := max(first.prec, step.prec)
		if equal {
			width := max(padWidth(first, prec), padWidth(last, prec))
			format = fmt.Sprintf("%%0%d.%df", width, prec)
		} else {
			format = fmt.Sprintf("%%.%df", prec)
		}
	}
	lastStr := fmt.Sprintf(format, last.v)
	n := 0
	for i := 0; ; i++ {
		x := first.v + float64(i)*step.v
		s := fmt.Sprintf(format, x)
		// Past LAST by rounding error only: print it anyway, as GNU does.
		past := step.v > 0 && x > last.v || step.v < 0 && x < last.v
		if past && s != lastStr {
			break
		}
		if n > 0 {
			out.WriteString(sep)
		}
		if _, err := out.WriteString(s); err != nil {
			return env.WriteFailed(err)
		}
		n++
		if past {
			break
		}
	}
	if n > 0 {
		out.WriteByte('\n')
	}
	return 0
}

// padWidth is an operand's printed width when shown with prec decimals.
func padWidth(o *operand, prec int) int {
	w := o.width
	if o.hasExpo {
		w = len(fmt.Sprintf("%.*f", prec, o.v))
		return w
	}
	if o.prec < prec {
		w += prec - o.prec
		if !o.hasPeriod {
			w++
		}
	}
	return w
}

func ints(env *tool.Env, first, step, last int64, sep string) int {
	out := env.Out()
	var buf [24]byte
	n := 0
	for x := first; step > 0 && x <= last || step < 0 && x >= last; x += step {
		if n > 0 {
			out.WriteString(sep)
		}
		if _, err := out.Write(strconv.AppendInt(buf[:0], x, 10)); err != nil {
			return env.WriteFailed(err)
		}
		n++
	}
	if n > 0 {
		out.WriteByte('\n')
	}
	return 0
}

// goFormat checks a printf FORMAT for exactly one floating-point directive
// and rewrites it for package fmt, whose %g lacks C's default precision.
func goFormat(f string) (string, string) {
	var b strings.Builder
	directives := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			b.WriteString("%%")
			i++
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("-+ #0'", f[j]) >= 0 {
			j++
		}
		flags := strings.ReplaceAll(f[i+1:j], "'", "")
		k := j
		for k < len(f) && f[k] >= '0' && f[k] <= '9' {
			k++
		}
		width := f[j:k]
		prec := ""
		if k < len(f) && f[k] == '.' {
			p := k + 1
			for p < len(f) && f[p] >= '0' && f[p] <= '9' {
				p++
			}
			prec = "." + f[k+1:p]
			if prec == "." {
				prec = ".0"
			}
			k = p
		}
		if k < len(f) && f[k] == 'L' {
			k++
		}
		if k >= len(f) {
			return "", fmt.Sprintf("format %s ends in %%", tool.Quote(f))
		}
		verb := f[k]
		switch verb {
		case 'e', 'E', 'f', 'F', 'g', 'G':
		case 'a', 'A':
			verb = 'x' + (verb - 'a')
		default:
			return "", fmt.Sprintf("format %s has unknown %%%c directive", tool.Quote(f), verb)
		}
		if verb == 'F' {
			verb = 'f'
		}
		if prec == "" && (verb == 'g' || verb == 'G' || verb == 'e' || verb == 'E' || verb == 'f') {
			prec = ".6"
		}
		directives++
		b.WriteString("%" + flags + width + prec + string(verb))
		i = k
	}
	switch {
	case directives == 0:
		return "", fmt.Sprintf("format %s has no %% directive", tool.Quote(f))
	case directives > 1:
		return "", fmt.Sprintf("format %s has too many %% directives", tool.Quote(f))
	}
	return b.String(), ""
}
