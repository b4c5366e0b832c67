package jq

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

// inputs is the stream of input values: JSON texts, or lines with -R,
// from standard input or the files in turn. It is also the iterator
// behind jq's input and inputs builtins, so they share one stream.
type inputs struct {
	env     *tool.Env
	files   []string
	raw     bool
	slurp   bool
	slurped bool

	name       string // current file name, "" for standard input
	cur        io.ReadCloser
	dec        *decoder
	br         *bufio.Reader
	started    bool
	done       bool
	fatal      bool // the last error ends the input (a JSON syntax error)
	openFailed bool

	// recycle says that nothing holds on to an input value once the next
	// is asked for, so the decoder may remake it (see decoder.setRecycle).
	recycle bool
}

func newInputs(env *tool.Env, files []string, raw, slurp bool) *inputs {
	return &inputs{env: env, files: files, raw: raw, slurp: slurp}
}

// where names the current input for messages.
func (in *inputs) where() string {
	if in.name == "" {
		return "<stdin>:0"
	}
	return in.name + ":0"
}

// open moves to the next source; it returns false at the end.
func (in *inputs) open() (bool, error) {
	if in.cur != nil {
		in.cur.Close()
		in.cur = nil
	}
	if !in.started && len(in.files) == 0 {
		in.started = true
		in.setReader(io.NopCloser(in.env.Stdin), "")
		return true, nil
	}
	in.started = true
	if len(in.files) == 0 {
		return false, nil
	}
	name := in.files[0]
	in.files = in.files[1:]
	if name == "-" {
		in.setReader(io.NopCloser(in.env.Stdin), "")
		return true, nil
	}
	f, err := os.Open(name)
	if err != nil {
		in.openFailed = true
		return true, fmt.Errorf("Could not open file %s: %s", name, tool.Strerror(err))
	}
	in.setReader(f, name)
	return true, nil
}

func (in *inputs) setReader(r io.ReadCloser, name string) {
	in.cur, in.name = r, name
	switch {
	case !in.raw && in.dec == nil:
		in.dec = newDecoder(r)
		if in.recycle {
			in.dec.setRecycle()
		}
	case !in.raw:
		in.dec.reset(r)
	case in.br == nil:
		in.br = bufio.NewReaderSize(r, 64<<10)
	default:
		in.br.Reset(r)
	}
}

// Next returns the next input value, an error, or false at the end: the
// iterator behind gojq's input and inputs.
func (in *inputs) Next() (any, bool) {
	v, err, ok := in.read()
	if err != nil {
		return err, true
	}
	return v, ok
}

// read returns the next input value or an error, or false at the end.
func (in *inputs) read() (any, error, bool) {
	if in.done {
		return nil, nil, false
	}
	if in.slurp {
		if in.slurped {
			return nil, nil, false
		}
		in.slurped = true
		v, err := in.slurpAll()
		return v, err, true
	}
	return in.next()
}

func (in *inputs) next() (any, error, bool) {
	for {
		if in.cur == nil {
			more, err := in.open()
			if !more {
				in.done = true
				return nil, nil, false
			}
			if err != nil {
				return nil, err, true
			}
		}
		if in.raw {
			line, err := in.br.ReadString('\n')
			if len(line) > 0 {
				return strings.TrimSuffix(line, "\n"), nil, true
			}
			if err != nil && err != io.EOF {
				return nil, err, true
			}
			in.cur.Close()
			in.cur = nil
			continue
		}
		v, err := in.dec.Decode()
		if err == nil {
			return v, nil, true
		}
		if err == io.EOF {
			in.cur.Close()
			in.cur = nil
			continue
		}
		in.done, in.fatal = true, true
		return nil, jsonError(err), true
	}
}

// slurpAll reads every input into one array (or one string with -R).
func (in *inputs) slurpAll() (any, error) {
	if in.raw {
		var b strings.Builder
		for {
			if in.cur == nil {
				more, err := in.open()
				if !more {
					break
				}
				if err != nil {
					return nil, err
				}
			}
			if _, err := io.Copy(&b, in.br); err != nil {
				return nil, err
			}
			in.cur.Close()
			in.cur = nil
		}
		return b.String(), nil
	}
	vals := []any{}
	for {
		v, err, ok := in.next()
		if !ok {
			return vals, nil
		}
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
}

func (in *inputs) close() {
	if in.cur != nil {
		in.cur.Close()
	}
}

// jsonError words a JSON syntax error.
func jsonError(err error) error {
	var se *syntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s at offset %d", strings.TrimPrefix(se.Error(), "invalid character "), se.Offset)
	}
	if err == io.ErrUnexpectedEOF {
		return errors.New("Unfinished JSON term at EOF")
	}
	return err
}
