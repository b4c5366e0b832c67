package tool

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ArgKind says whether an option takes an argument.
type ArgKind uint8

// The kinds of option arguments, as in getopt_long.
const (
	NoArg ArgKind = iota
	RequiredArg
	OptionalArg // only as --name=value or attached to a short option
)

// Option describes one option a command accepts.
type Option struct {
	Short rune   // 0 if the option has no one-letter form
	Long  string // "" if the option has no long form
	Arg   ArgKind
}

// Flag is one option found on the command line, in order.
type Flag struct {
	// Name is the option's short letter as a string if it has one,
	// otherwise its long name.
	Name   string
	Arg    string
	HasArg bool
}

// Spec is a command's option table and usage conventions.
type Spec struct {
	Options []Option
	// Help is the --help text.
	Help string
	// UsageExit is the status for command-line mistakes (1 if zero).
	UsageExit int
	// StopAtOperand stops option parsing at the first operand, as with a
	// leading '+' in a getopt option string.
	StopAtOperand bool
	// IsOperand, if set, treats matching arguments that start with '-'
	// (such as negative numbers) as operands.
	IsOperand func(arg string) bool
}

// ParseError is a command-line mistake, worded as getopt_long words it.
type ParseError struct{ Msg string }

func (e *ParseError) Error() string { return e.Msg }

func (o *Option) name() string {
	if o.Short != 0 {
		return string(o.Short)
	}
	return o.Long
}

// Parse parses env.Args GNU-style: options may follow operands, "--" ends
// them, short options cluster, long options may be abbreviated. --help and
// --version are answered here. If done is true the command should return
// code at once.
func (s *Spec) Parse(env *Env) (flags []Flag, operands []string, code int, done bool) {
	flags, operands, err := s.parse(env.Args)
	if err != nil {
		ue := s.UsageExit
		if ue == 0 {
			ue = 1
		}
		return nil, nil, env.Usage(ue, "%s", err.Error()), true
	}
	for _, f := range flags {
		switch f.Name {
		case "help":
			return nil, nil, env.Help(s.Help), true
		case "version":
			return nil, nil, env.PrintVersion(), true
		}
	}
	return flags, operands, 0, false
}

func (s *Spec) parse(args []string) (flags []Flag, operands []string, err error) {
	if len(args) > 0 {
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' || (s.IsOperand != nil && s.IsOperand(a)) {
			if s.StopAtOperand {
				operands = append(operands, args[i:]...)
				break
			}
			operands = append(operands, a)
			continue
		}
		if a[1] == '-' {
			f, used, err := s.long(a[2:], args[i+1:])
			if err != nil {
				return nil, nil, err
			}
			i += used
			flags = append(flags, f)
			continue
		}
		for j := 1; j < len(a); {
			r, size := rune(a[j]), 1
			if r >= 0x80 {
				r, size = utf8.DecodeRuneInString(a[j:])
			}
			j += size
			o := s.short(r)
			if o == nil {
				return nil, nil, &ParseError{fmt.Sprintf("invalid option -- '%c'", r)}
			}
			f := Flag{Name: o.name()}
			switch o.Arg {
			case RequiredArg:
				if j < len(a) {
					f.Arg, f.HasArg = a[j:], true
				} else if i+1 < len(args) {
					i++
					f.Arg, f.HasArg = args[i], true
				} else {
					return nil, nil, &ParseError{fmt.Sprintf("option requires an argument -- '%c'", r)}
				}
				j = len(a)
			case OptionalArg:
				if j < len(a) {
					f.Arg, f.HasArg = a[j:], true
				}
				j = len(a)
			}
			flags = append(flags, f)
		}
	}
	return flags, operands, nil
}

var standardOptions = []Option{{Long: "help"}, {Long: "version"}}

func (s *Spec) short(r rune) *Option {
	for i := range s.Options {
		if s.Options[i].Short == r {
			return &s.Options[i]
		}
	}
	return nil
}

// long parses the body of a "--name[=value]" argument; rest are the
// arguments after it. It returns how many of rest it consumed.
func (s *Spec) long(body string, rest []string) (Flag, int, error) {
	name, val, hasVal := strings.Cut(body, "=")
	var match *Option
	var candidates []*Option
	ambiguous := false
	for _, table := range [][]Option{s.Options, standardOptions} {
		for i := range table {
			o := &table[i]
			if o.Long == "" || !strings.HasPrefix(o.Long, name) {
				continue
			}
			if o.Long == name {
				match, candidates, ambiguous = o, nil, false
				goto found
			}
			if match != nil && (match.name() != o.name() || match.Arg != o.Arg) {
				ambiguous = true
			}
			if match == nil {
				match = o
			}
			candidates = append(candidates, o)
		}
	}
found:
	if ambiguous {
		var b strings.Builder
		fmt.Fprintf(&b, "option '--%s' is ambiguous; possibilities:", name)
		for _, c := range candidates {
			fmt.Fprintf(&b, " '--%s'", c.Long)
		}
		return Flag{}, 0, &ParseError{b.String()}
	}
	if match == nil || name == "" {
		return Flag{}, 0, &ParseError{fmt.Sprintf("unrecognized option '--%s'", body)}
	}
	f := Flag{Name: match.name()}
	switch match.Arg {
	case NoArg:
		if hasVal {
			return Flag{}, 0, &ParseError{fmt.Sprintf("option '--%s' doesn't allow an argument", match.Long)}
		}
	case RequiredArg:
		if hasVal {
			f.Arg, f.HasArg = val, true
		} else if len(rest) > 0 {
			f.Arg, f.HasArg = rest[0], true
			return f, 1, nil
		} else {
			return Flag{}, 0, &ParseError{fmt.Sprintf("option '--%s' requires an argument", match.Long)}
		}
	case OptionalArg:
		f.Arg, f.HasArg = val, hasVal
	}
	return f, 0, nil
}
