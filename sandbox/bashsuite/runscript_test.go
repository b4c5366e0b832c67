package bashsuite

import (
	"fmt"
	"regexp"
	"strings"
)

// suiteTest is one test of bash's suite: one `${THIS_SH} ...` line of a
// run-* script and the .right file the diff line after it compares with.
type suiteTest struct {
	name        string   // the script without ./ and .tests: "arith", "array-at-star"
	runScript   string   // "run-arith"
	script      string   // "./arith.tests"
	args        []string // words after the script, if any
	stdinScript bool     // `${THIS_SH} < ./input-line.sh`: the script comes on stdin
	stdinNull   bool     // `< /dev/null`
	merged      bool     // stderr is compared too, interleaved with stdout
	filters     []string // "grep -v ^expect", "cat -v", in order
	right       string   // "arith.right"
	pre         []string // shell lines the run-* script runs first: unset X, PATH=...
}

// knownFilters are the pipeline stages run-* scripts put between the test
// and its output file; applyFilters implements them.
var knownFilters = map[string]bool{"grep -v ^expect": true, "cat -v": true}

var assignRE = regexp.MustCompile(`^([A-Z_]+)=['"]?([^'"]*)['"]?$`)

// parseRunScript reads a run-* script. It understands the forms bash 5.2's
// scripts use and reports anything else as an error, so that a new form is
// noticed rather than run wrongly.
func parseRunScript(runName, text string) ([]suiteTest, error) {
	vars := map[string]string{}
	subst := func(s string) string {
		for k, v := range vars {
			s = strings.ReplaceAll(s, "${"+k+"}", v)
			s = strings.ReplaceAll(s, "$"+k, v)
		}
		return s
	}
	var tests []suiteTest
	var pending *suiteTest
	var pre []string
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "echo "):
		case strings.HasPrefix(line, "${THIS_SH}"):
			if pending != nil {
				return nil, fmt.Errorf("%s:%d: a second ${THIS_SH} line before the diff of the first", runName, n+1)
			}
			t, err := parseInvocation(subst(line))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", runName, n+1, err)
			}
			t.runScript = runName
			t.pre = append([]string(nil), pre...)
			pending = &t
		case strings.HasPrefix(line, "diff "):
			if pending == nil {
				return nil, fmt.Errorf("%s:%d: diff without a ${THIS_SH} line before it", runName, n+1)
			}
			for _, f := range strings.Fields(subst(line)) {
				if strings.HasSuffix(f, ".right") {
					pending.right = f
				}
			}
			if pending.right == "" {
				return nil, fmt.Errorf("%s:%d: no .right file in %q", runName, n+1, line)
			}
			tests = append(tests, *pending)
			pending = nil
		case strings.HasPrefix(line, "unset "), strings.HasPrefix(line, "PATH="), line == "export PATH":
			pre = append(pre, line)
		default:
			if m := assignRE.FindStringSubmatch(line); m != nil {
				vars[m[1]] = m[2]
			}
			// Anything else (set -f, exit $?, AFLAG probes) does not
			// change how the test runs.
		}
	}
	if pending != nil {
		return nil, fmt.Errorf("%s: ${THIS_SH} line without a diff after it", runName)
	}
	return tests, nil
}

// parseInvocation parses `${THIS_SH} [<] SCRIPT [ARGS] REDIRS [| FILTER > OUT]`.
func parseInvocation(line string) (suiteTest, error) {
	var t suiteTest
	words, err := shellWords(line)
	if err != nil {
		return t, err
	}
	var segments [][]string
	cur := []string{}
	for _, w := range words {
		if w == "|" {
			segments = append(segments, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, w)
	}
	segments = append(segments, cur)

	first := segments[0][1:] // after ${THIS_SH}
	if len(first) > 0 && first[0] == "<" {
		t.stdinScript = true
		first = first[1:]
	}
	if len(first) == 0 {
		return t, fmt.Errorf("no script in %q", line)
	}
	t.script = first[0]
	t.name = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(t.script, "./"), ".tests"), ".sh")

	// Where fds 1 and 2 end up: the terminal, the output file, or the pipe.
	piped := len(segments) > 1
	fd1, fd2 := "term", "term"
	if piped {
		fd1 = "pipe"
	}
	out := false
	for i := 1; i < len(first); i++ {
		switch w := first[i]; w {
		case ">":
			if i+1 >= len(first) {
				return t, fmt.Errorf("> without a file in %q", line)
			}
			fd1, out = "out", true
			i++
		case "2>&1":
			fd2 = fd1
		case "<":
			if i+1 >= len(first) || first[i+1] != "/dev/null" {
				return t, fmt.Errorf("unexpected input redirection in %q", line)
			}
			t.stdinNull = true
			i++
		default:
			if strings.ContainsAny(w, "<>&") {
				return t, fmt.Errorf("unexpected redirection %q in %q", w, line)
			}
			t.args = append(t.args, w)
		}
	}
	if piped {
		if out {
			return t, fmt.Errorf("output both to a file and a pipe in %q", line)
		}
		t.merged = fd2 == "pipe"
		for _, seg := range segments[1:] {
			if n := len(seg); n >= 2 && seg[n-2] == ">" {
				seg, out = seg[:n-2], true
			}
			f := strings.Join(seg, " ")
			if !knownFilters[f] {
				return t, fmt.Errorf("unknown filter %q in %q", f, line)
			}
			t.filters = append(t.filters, f)
		}
		if !out {
			return t, fmt.Errorf("the pipeline does not end in a file in %q", line)
		}
	} else {
		if !out {
			return t, fmt.Errorf("no output file in %q", line)
		}
		t.merged = fd2 == "out"
	}
	return t, nil
}

// shellWords splits a line into words the way the run-* scripts need:
// blanks separate words, single and double quotes group, "|" stands alone
// and ">file" is two words.
func shellWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated quote in %q", line)
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '|':
			flush()
			words = append(words, "|")
		case c == '>' && !inWord:
			words = append(words, ">")
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words, nil
}
