package shell

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// brokenConstructs are texts bash parses and mvdan's parser rejects;
// repairErrors and repairSource mend them.
var brokenConstructs = []string{
	"let",
	"let; echo after",
	"declare 1abc=x",
	"local a-b+=y",
	"declare -A m; m[]=1",
	"m[ ]=1",
	"echo ${}",
	`echo "${}x"`,
	`echo "[${!-none}]"`,
	"! ! true",
	"! ! ! false",
}

// TestRepairKeepsValidPrograms: a program that parses is given to the
// parser as it is, and a broken construct after it changes nothing in it.
func TestRepairKeepsValidPrograms(t *testing.T) {
	files, _ := filepath.Glob("../difftest/testdata/corpus/*.txt")
	if len(files) == 0 {
		t.Skip("no difftest corpus")
	}
	printer := syntax.NewPrinter()
	print := func(stmts []*syntax.Stmt) string {
		var b bytes.Buffer
		for _, st := range stmts {
			printer.Print(&b, st)
			b.WriteByte('\n')
		}
		return b.String()
	}
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range strings.Split(string(data), "\n### ")[1:] {
			_, body, _ := strings.Cut(c, "\n")
			var lines []string
			for _, l := range strings.Split(body, "\n") {
				if !strings.HasPrefix(l, "#@") {
					lines = append(lines, l)
				}
			}
			src := strings.Join(lines, "\n")
			f, err := parseBash(src, "")
			if err != nil {
				continue
			}
			if _, early := earlyHdocEnds(src); early != nil {
				// a here-document bash ends early in a command
				// substitution: mvdan's parser reads it otherwise
				continue
			}
			if text, rep := parseText(src); text != src || rep != nil {
				t.Fatalf("%s: a valid program was rewritten:\n%s", file, src)
			}
			want := print(f.Stmts)
			for _, b := range brokenConstructs[checked%len(brokenConstructs) : checked%len(brokenConstructs)+1] {
				full := src + "\n" + b + "\n"
				g, text, _, err := parseRepaired(full, "")
				if err != nil {
					// the program's end (an open here-document, a
					// trailing backslash) joins the construct: fine if
					// the original text is what failed.
					continue
				}
				if !strings.HasPrefix(text, src) {
					t.Fatalf("repairing %q changed the valid program before it:\n%s", b, src)
				}
				if len(g.Stmts) < len(f.Stmts) {
					continue
				}
				if got := print(g.Stmts[:len(f.Stmts)]); got != want {
					t.Fatalf("repairing %q changed the program before it:\n%s\ngot:\n%s", b, want, got)
				}
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d programs checked", checked)
	}
}

// TestRepairedConstructs runs each repaired construct: it behaves as in
// bash (the difftest corpus compares them with bash itself).
func TestRepairedConstructs(t *testing.T) {
	for _, c := range []struct{ src, stdout, stderr string }{
		{"let; echo $?", "1\n", "let: expression expected"},
		{"declare 1abc=x; echo $?", "1\n", "declare: `1abc=x': not a valid identifier"},
		{"x=v; readonly 2y=$x; echo $?", "1\n", "readonly: `2y=v': not a valid identifier"},
		// an assignment error drops the rest of the line, as in bash
		{"declare -A m; m[]=1; echo no\necho $?; m[ ]=2; echo \"${m[ ]}\"", "1\n2\n", "m[]: bad array subscript"},
		{"a[]=1\necho $? ${#a[@]}", "1 0\n", "a[]: bad array subscript"},
		{"echo ${}x\necho $?", "1\n", "${}x: bad substitution"},
		{`echo "[${!-none}]"; true & echo "[${!+set}]"; wait`, "[none]\n[set]\n", ""},
		{"! ! true; echo $?; ! ! ! true; echo $?", "0\n1\n", ""},
		{"cat <<EOF\nbody", "", "warning: here-document at line 1 delimited by end-of-file (wanted `EOF')"},
		{"echo before\necho $(( $(( ))\necho after", "before\n", "line 2: unexpected EOF while looking for matching `)'"},
		{"eval 'if() { :; }'; echo $?", "2\n", "syntax error near unexpected token `)'"},
	} {
		stdout, stderr, _ := runShell(t, c.src)
		if stdout != c.stdout || !strings.Contains(stderr, c.stderr) || c.stderr == "" && stderr != "" {
			t.Errorf("%q:\nstdout %q, want %q\nstderr %q, want it to hold %q", c.src, stdout, c.stdout, stderr, c.stderr)
		}
	}
}
