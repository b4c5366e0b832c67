package sandbox

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/wasmsand/wasmsand/sandbox/bashprintf"
)

// The interpreter's printf builtin lacks much of bash's (%e, %q, %'c,
// precision on floats, %(fmt)T...). The call handler hands every printf
// call to bashprintf instead, which matches bash 5.2, and turns the result
// into a call the shell can finish: printfCommand writes the output and
// returns the status; `printf -v` becomes an assignment through eval.
const printfCommand = "__wasmsand_printf"

// rewritePrintf formats a printf call and returns the call that delivers
// its result.
func (s *Sandbox) rewritePrintf(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	loc := time.UTC
	if tz := hc.Env.Get("TZ").String(); tz != "" {
		if l, err := time.LoadLocation(tz); err == nil {
			loc = l
		}
	}
	lang := hc.Env.Get("LC_ALL").String()
	if lang == "" {
		lang = hc.Env.Get("LANG").String()
	}
	opts := bashprintf.Options{
		Now:       s.now,
		Start:     s.started,
		Location:  loc,
		UTF8:      strings.Contains(strings.ToLower(lang), "utf"),
		MaxOutput: int(s.opts.OutputLimit),
	}
	out, errs, status, varName := opts.Command(args[1:])
	line := int(hc.Pos.Line())
	var msgs []string
	for _, e := range errs {
		if strings.HasPrefix(e, "printf: usage:") {
			msgs = append(msgs, e)
		} else {
			msgs = append(msgs, fmt.Sprintf("bash: line %d: %s", max(line, 1), e))
		}
	}
	if varName != "" {
		for _, m := range msgs {
			fmt.Fprintln(hc.Stderr, m)
		}
		return []string{"eval", varName + "=" + quote(out) + "; (exit " + strconv.Itoa(status) + ")"}
	}
	return append([]string{printfCommand, strconv.Itoa(status), out}, msgs...)
}

// runPrintf implements printfCommand: args are the status, the output and
// the diagnostics.
func runPrintf(ctx context.Context, args []string) error {
	hc := interp.HandlerCtx(ctx)
	if _, err := io.WriteString(hc.Stdout, args[2]); err != nil {
		return interp.ExitStatus(1)
	}
	for _, m := range args[3:] {
		fmt.Fprintln(hc.Stderr, m)
	}
	if status, _ := strconv.Atoi(args[1]); status != 0 {
		return interp.ExitStatus(uint8(status))
	}
	return nil
}
