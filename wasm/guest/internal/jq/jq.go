// Package jq is the jq command: gojq's query language behind jq's command
// line, with jq's output format, messages and exit codes.
package jq

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/itchyny/gojq"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// GojqVersion is the gojq release the command is built on.
const GojqVersion = "v0.12.20"

// Exit statuses, as jq's.
const (
	exitFalsy   = 1
	exitUsage   = 2
	exitCompile = 3
	exitNoValue = 4
	exitError   = 5
)

const usage = `Usage:	jq [OPTIONS] FILTER [FILES...]
	jq [OPTIONS] --args FILTER [STRINGS...]
	jq [OPTIONS] --jsonargs FILTER [JSON_TEXTS...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output. This jq is gojq ` + GojqVersion + `; object keys are
always printed sorted.

Example:

	$ echo '{"foo": 0}' | jq .
	{
	  "foo": 0
	}

Some of the options include:
  -c, --compact-output      compact instead of pretty-printed output;
  -n, --null-input          use ` + "`null`" + ` as the single input value;
  -e, --exit-status         set the exit status code based on the output;
  -s, --slurp               read (slurp) all inputs into an array; apply filter to it;
  -r, --raw-output          output strings without escapes and quotes;
      --raw-output0         like -r, each output followed by NUL;
  -j, --join-output         like -r, without a newline after each output;
  -a, --ascii-output        output non-ASCII characters as \uXXXX escapes;
  -S, --sort-keys           sort keys of each object on output (always on);
  -C, --color-output        accepted; output is never colored;
  -M, --monochrome-output   monochrome output (the default);
  -R, --raw-input           read each line as a string instead of JSON;
      --tab                 use tabs for indentation;
      --indent n            use n spaces for indentation (max 7 spaces);
  -f, --from-file file      load the filter from a file;
      --arg name value      set $name to the string value;
      --argjson name value  set $name to the JSON value;
      --slurpfile name file set $name to an array of JSON values read from the file;
      --rawfile name file   set $name to the file's contents;
      --args                remaining arguments are string arguments, not files;
      --jsonargs            remaining arguments are JSON arguments, not files;
  -h, --help                show this help and exit;
  -V, --version             show the version and exit.
`

type options struct {
	raw, raw0, join, ascii, compact, tab bool
	nullInput, rawInput, slurp, exit     bool
	indent                               int
	fromFile                             string
	names                                []string // "$name" for each variable
	values                               []any
	named                                map[string]any
	positional                           []any
	filter                               string
	hasFilter                            bool
	files                                []string
}

// Main runs jq.
func Main(env *tool.Env) int {
	o, code, done := parseArgs(env)
	if done {
		return code
	}
	j := &jq{env: env, o: o, out: env.Out()}
	return j.run()
}

func parseArgs(env *tool.Env) (o *options, code int, done bool) {
	o = &options{indent: 2, named: map[string]any{}}
	args := env.Args[1:]
	restKind := "" // "args" or "jsonargs" once --args/--jsonargs is seen
	operand := func(a string) bool {
		if !o.hasFilter && o.fromFile == "" {
			o.filter, o.hasFilter = a, true
			return true
		}
		switch restKind {
		case "args":
			o.positional = append(o.positional, a)
		case "jsonargs":
			v, err := parseJSON(a)
			if err != nil {
				env.Errorf("Invalid JSON text passed to --jsonargs")
				return false
			}
			o.positional = append(o.positional, v)
		default:
			o.files = append(o.files, a)
		}
		return true
	}
	fail := func(format string, a ...any) (*options, int, bool) {
		env.Errorf(format, a...)
		fmt.Fprintf(env.Stderr, "Use jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n")
		return nil, exitUsage, true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			for _, r := range args[i+1:] {
				if !operand(r) {
					return nil, exitUsage, true
				}
			}
			break
		}
		if len(a) < 2 || a[0] != '-' {
			if !operand(a) {
				return nil, exitUsage, true
			}
			continue
		}
		need := func(n int) ([]string, bool) {
			if i+n >= len(args) {
				return nil, false
			}
			v := args[i+1 : i+1+n]
			i += n
			return v, true
		}
		if strings.HasPrefix(a, "--") {
			switch a[2:] {
			case "raw-output":
				o.raw = true
			case "raw-output0":
				o.raw, o.raw0 = true, true
			case "join-output":
				o.raw, o.join = true, true
			case "ascii-output":
				o.ascii = true
			case "compact-output":
				o.compact = true
			case "tab":
				o.tab = true
			case "null-input":
				o.nullInput = true
			case "raw-input":
				o.rawInput = true
			case "slurp":
				o.slurp = true
			case "exit-status":
				o.exit = true
			case "sort-keys", "color-output", "monochrome-output", "unbuffered", "seq":
			case "indent":
				v, ok := need(1)
				if !ok {
					return fail("--indent takes one parameter")
				}
				n, err := strconv.Atoi(v[0])
				if err != nil {
					return fail("--indent takes a number")
				}
				if n > 7 {
					return fail("Cannot indent more than 7 characters")
				}
				if n < 0 {
					return fail("Cannot indent less than 0 characters")
				}
				o.indent = n
			case "from-file":
				v, ok := need(1)
				if !ok {
					return fail("-f takes a parameter")
				}
				o.fromFile = v[0]
			case "arg", "argjson", "slurpfile", "rawfile":
				v, ok := need(2)
				if !ok {
					return fail("%s takes two parameters (e.g. %s varname value)", a, a)
				}
				val, err := argValue(env, a[2:], v[1])
				if err != nil {
					env.Errorf("%v", err)
					return nil, exitUsage, true
				}
				o.names = append(o.names, "$"+v[0])
				o.values = append(o.values, val)
				o.named[v[0]] = val
			case "args":
				restKind = "args"
			case "jsonargs":
				restKind = "jsonargs"
			case "help":
				return nil, env.Help(usage), true
			case "version":
				fmt.Fprintf(env.Out(), "jq-1.7.1 (wasmsand %s, gojq %s)\n", tool.Version, GojqVersion)
				return nil, 0, true
			default:
				return fail("Unknown option: %s", a)
			}
			continue
		}
		for k := 1; k < len(a); k++ {
			switch a[k] {
			case 'r':
				o.raw = true
			case 'j':
				o.raw, o.join = true, true
			case 'a':
				o.ascii = true
			case 'c':
				o.compact = true
			case 'n':
				o.nullInput = true
			case 'R':
				o.rawInput = true
			case 's':
				o.slurp = true
			case 'e':
				o.exit = true
			case 'S', 'C', 'M':
			case 'f':
				v, ok := need(1)
				if !ok {
					return fail("-f takes a parameter")
				}
				o.fromFile = v[0]
			case 'h':
				return nil, env.Help(usage), true
			case 'V':
				fmt.Fprintf(env.Out(), "jq-1.7.1 (wasmsand %s, gojq %s)\n", tool.Version, GojqVersion)
				return nil, 0, true
			default:
				return fail("Unknown option: %s", a)
			}
		}
	}
	if o.fromFile != "" {
		data, err := os.ReadFile(o.fromFile)
		if err != nil {
			env.Errorf("error: Could not open %s: %s", o.fromFile, tool.Strerror(err))
			return nil, exitUsage, true
		}
		if o.hasFilter {
			// The first operand was taken as the filter: it is a file.
			o.files = append([]string{o.filter}, o.files...)
		}
		o.filter, o.hasFilter = string(data), true
	}
	if !o.hasFilter {
		o.filter = "."
	}
	return o, 0, false
}

// argValue is the value of --arg, --argjson, --slurpfile or --rawfile.
func argValue(env *tool.Env, kind, v string) (any, error) {
	switch kind {
	case "arg":
		return v, nil
	case "argjson":
		val, err := parseJSON(v)
		if err != nil {
			return nil, fmt.Errorf("Invalid JSON text passed to --argjson")
		}
		return val, nil
	case "rawfile":
		data, err := os.ReadFile(v)
		if err != nil {
			return nil, fmt.Errorf("Bad JSON in --rawfile %s: Could not open %s: %s", v, v, tool.Strerror(err))
		}
		return string(data), nil
	}
	f, err := os.Open(v)
	if err != nil {
		return nil, fmt.Errorf("Bad JSON in --slurpfile %s: Could not open %s: %s", v, v, tool.Strerror(err))
	}
	defer f.Close()
	dec := newDecoder(f)
	vals := []any{}
	for {
		x, err := dec.Decode()
		if err == io.EOF {
			return vals, nil
		} else if err != nil {
			return nil, fmt.Errorf("Bad JSON in --slurpfile %s: %v", v, err)
		}
		vals = append(vals, x)
	}
}

// parseJSON parses exactly one JSON text.
func parseJSON(s string) (any, error) {
	dec := newDecoder(strings.NewReader(s))
	v, err := dec.Decode()
	if err != nil {
		return nil, err
	}
	if _, err := dec.Decode(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

type jq struct {
	env *tool.Env
	o   *options
	out *bufio.Writer
	in  *inputs
	enc encoder

	status int // the exit status so far: an error does not stop the inputs
	taken  int // inputs the loop took (see inputLoop)
}

func (j *jq) run() int {
	o := j.o
	query, err := gojq.Parse(o.filter)
	if err != nil {
		j.env.Errorf("error: %s", queryError(err))
		fmt.Fprintf(j.env.Stderr, "jq: 1 compile error\n")
		return exitCompile
	}
	query.FuncDefs = append(extraDefs(), query.FuncDefs...)
	j.in = newInputs(j.env, o.files, o.rawInput, o.slurp)
	defer j.in.close()
	names := append(o.names, "$ARGS")
	positional := o.positional
	if positional == nil {
		positional = []any{}
	}
	values := append(o.values, map[string]any{"named": o.named, "positional": positional})
	opts := []gojq.CompilerOption{
		gojq.WithEnvironLoader(os.Environ),
		gojq.WithVariables(names),
		gojq.WithInputIter(j.in),
		gojq.WithFunction("input_filename", 0, 0, func(any, []any) any {
			if j.in.name == "" {
				return nil
			}
			return j.in.name
		}),
		gojq.WithFunction("debug", 0, 0, func(v any, _ []any) any {
			j.out.Flush()
			b, _ := gojq.Marshal([]any{"DEBUG:", v})
			fmt.Fprintf(j.env.Stderr, "%s\n", b)
			return v
		}),
		gojq.WithFunction("stderr", 0, 0, func(v any, _ []any) any {
			j.out.Flush()
			b, _ := gojq.Marshal(v)
			j.env.Stderr.Write(b)
			return v
		}),
	}
	var prog *gojq.Code
	single := !o.nullInput && !o.slurp && loopable(o.filter, query)
	if single {
		prog, err = gojq.Compile(inputLoop(query), append(opts,
			gojq.WithIterFunction(loopInputs, 0, 0, func(any, []any) gojq.Iter { return loopIter{j} }))...)
		// A filter that does not compile is compiled again alone below,
		// so that its message is the one jq gives.
		single = err == nil
	}
	if single {
		// The loop asks for the next input once the results of the one
		// before are printed, and no filter that runs in the loop can keep
		// a value from one input to the next (see loopable): the decoder
		// may make each input of the arrays and objects of the one before.
		j.in.recycle = true
	} else {
		prog, err = gojq.Compile(query, opts...)
	}
	if err != nil {
		j.env.Errorf("error: %s", queryError(err))
		fmt.Fprintf(j.env.Stderr, "jq: 1 compile error\n")
		return exitCompile
	}
	j.enc = encoder{indent: o.indent, tab: o.tab, compact: o.compact || o.indent == 0 && !o.tab, ascii: o.ascii}

	// Whether the last result was null or false, for -e: the result itself
	// is not kept, since the loop may remake an input (see below).
	falsy, produced := false, false
	// runOne runs the program on v, printing its results, until it ends,
	// an error ends it (failed) or the whole command must end (halt).
	runOne := func(v any) (halt bool, code int, failed bool) {
		iter := prog.Run(v, values...)
		for {
			x, ok := iter.Next()
			if !ok {
				return false, 0, false
			}
			if err, ok := asError(x); ok {
				var he *gojq.HaltError
				if errors.As(err, &he) {
					return true, j.halt(he), true
				}
				j.reportError(err)
				j.status = exitError
				return false, 0, true
			}
			if err := j.print(x); err != nil {
				return true, j.env.WriteFailed(err), true
			}
			falsy, produced = x == nil || x == false, true
		}
	}
	switch {
	case single:
		// An error ends the loop's run with the input it came from; the
		// loop runs again over the inputs after it (see inputLoop).
		for {
			taken := j.taken
			halt, c, failed := runOne(nil)
			if halt {
				return c
			}
			if !failed || j.taken == taken {
				break // the end, or an error before any input (none known)
			}
		}
	case o.nullInput:
		if halt, c, _ := runOne(nil); halt {
			return c
		}
	default:
		for {
			v, err, ok := j.in.read()
			if !ok {
				break
			}
			if err != nil {
				if j.inputError(err) {
					continue
				}
				break
			}
			if halt, c, _ := runOne(v); halt {
				return c
			}
		}
	}
	if j.in.openFailed && j.status == 0 {
		j.status = exitUsage
	}
	if j.status != 0 {
		return j.status
	}
	if o.exit {
		switch {
		case !produced:
			return exitNoValue
		case falsy:
			return exitFalsy
		}
	}
	return 0
}

// inputError reports an input that could not be read or parsed, and says
// whether the inputs go on after it.
func (j *jq) inputError(err error) (more bool) {
	j.out.Flush()
	j.status = exitUsage
	if j.in.fatal {
		fmt.Fprintf(j.env.Stderr, "jq: parse error: %v\n", err)
		return false
	}
	fmt.Fprintf(j.env.Stderr, "jq: error: %v\n", err)
	return true
}

// loopInputs names the function inputLoop calls for the inputs. It
// contains "input", so no filter that could call it is run through the
// loop (see loopable), and outside the loop it is not defined: a filter
// does not see it.
const loopInputs = "_wasmsand_inputs"

// loopable says whether filter may run once over all the inputs (see
// inputLoop) rather than once for each: only when nothing in it can tell
// the difference. Running it once saves gojq's set-up of an execution for
// each input (its environment and stacks, grown again every time), a
// quarter of jq's time over many small objects. A filter that mentions
// input anywhere (input, inputs, input_filename, input_line_number)
// reads the input stream itself, and $__loc__ the filter's text, which
// the loop changes; modules need the top level. The test is on the text
// and so errs only on the safe side.
func loopable(filter string, q *gojq.Query) bool {
	return !strings.Contains(filter, "input") && !strings.Contains(filter, "__loc__") &&
		len(q.Imports) == 0 && q.Meta == nil
}

// inputLoop wraps q into the filter that runs it over every input in one
// execution, as jq's own loop does over separate ones:
//
//	_wasmsand_inputs | (q)
//
// An error in q ends the execution, after the outputs the input produced
// before it, as it ends jq's run of the filter on that input, and nothing
// of the input is read after it: jq then runs the loop again, over the
// inputs that follow. This costs nothing per input, where a try around q
// that caught the error cost two forks of gojq's each time.
func inputLoop(q *gojq.Query) *gojq.Query {
	return &gojq.Query{
		Left:  &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeFunc, Func: &gojq.Func{Name: loopInputs}}},
		Op:    gojq.OpPipe,
		Right: &gojq.Query{Term: &gojq.Term{Type: gojq.TermTypeQuery, Query: q}},
	}
}

// loopIter is the stream of inputs of inputLoop: the values jq's loop
// runs the filter on, with read errors reported as that loop does.
type loopIter struct{ j *jq }

func (l loopIter) Next() (any, bool) {
	for {
		v, err, ok := l.j.in.read()
		if !ok {
			return nil, false
		}
		if err == nil {
			l.j.taken++
			return v, true
		}
		if !l.j.inputError(err) {
			return nil, false
		}
	}
}

// asError returns x as an error if it is one. The types of JSON values
// are ruled out first, by comparisons: under WebAssembly, asserting that
// a value of another type is an error looks the pair up in a table.
func asError(x any) (error, bool) {
	switch x.(type) {
	case nil, bool, float64, int, string, []any, map[string]any:
		return nil, false
	}
	err, ok := x.(error)
	return err, ok
}

// halt ends the program for halt and halt_error.
func (j *jq) halt(he *gojq.HaltError) int {
	j.out.Flush()
	switch v := he.Value().(type) {
	case nil:
	case string:
		io.WriteString(j.env.Stderr, v)
	default:
		b, _ := gojq.Marshal(v)
		fmt.Fprintf(j.env.Stderr, "%s\n", b)
	}
	return he.ExitCode()
}

// reportError prints a runtime error as jq does.
func (j *jq) reportError(err error) {
	var ve gojq.ValueError
	if errors.As(err, &ve) {
		j.reportValue(ve.Value())
		return
	}
	j.reportValue(err.Error())
}

// reportValue prints a runtime error whose value is v, as jq does: a
// string is the message; other values are shown as JSON. gojq's try
// catches the same value, a message for an error that has no other.
func (j *jq) reportValue(v any) {
	j.out.Flush()
	switch v := v.(type) {
	case string:
		fmt.Fprintf(j.env.Stderr, "jq: error (at %s): %s\n", j.in.where(), v)
	case nil:
		fmt.Fprintf(j.env.Stderr, "jq: error (at %s) (not a string): null\n", j.in.where())
	default:
		b, _ := gojq.Marshal(v)
		fmt.Fprintf(j.env.Stderr, "jq: error (at %s) (not a string): %s\n", j.in.where(), b)
	}
}

// print writes one result.
func (j *jq) print(v any) error {
	o := j.o
	if s, ok := v.(string); ok && o.raw {
		if o.ascii {
			j.out.WriteString(asciiOnly(s))
		} else {
			j.out.WriteString(s)
		}
	} else {
		j.enc.encode(j.out, v, 0)
	}
	switch {
	case o.raw0:
		j.out.WriteByte(0)
	case !o.join:
		j.out.WriteByte('\n')
	}
	_, err := j.out.Write(nil) // the first write error, kept by bufio
	return err
}

// extraDefs defines jq builtins gojq lacks.
func extraDefs() []*gojq.FuncDef {
	q, err := gojq.Parse(`def keys_unsorted: keys; def leaf_paths: paths(scalars); .`)
	if err != nil {
		panic(err)
	}
	return q.FuncDefs
}

// queryError words a parse or compile error of the filter.
func queryError(err error) string {
	msg := err.Error()
	var pe interface {
		QueryParseError() (string, string, error)
	}
	if errors.As(err, &pe) {
		_, _, e := pe.QueryParseError()
		msg = e.Error()
	}
	return msg
}
