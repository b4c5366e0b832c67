package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The repairs of arithmetic (repair_arith.go), numbered apart from
// repair.go's.
const (
	fixArithSpan     fixKind = iota + 64 // the literal 0 stands for the arithmetic text name
	fixDparenSub                         // the subshell's commands are those of the text name
	fixEmptyArith                        // $[00] is $(())
	fixEmptyArithCmd                     // the command : is (())
)

// bash reads "((" at the start of a command as an arithmetic command only
// when the parenthesis matching the second "(" is followed by ")":
// ((echo a; echo b;); echo c) is a subshell holding a subshell (parse.y's
// parse_dparen). mvdan's parser always reads an arithmetic command.
// repairDparen rewrites such a command to "(:" + blanks + ")", a subshell
// of the same length and lines, and records its text; apply puts back the
// commands parsed from that text with every offset kept.

// dparenSubshell reports whether the "((" at src[i] is, for bash, a
// subshell whose first command is a subshell, and where the outer one
// closes.
func dparenSubshell(src string, i int) (int, bool) {
	inner := matchParen(src, i+2)
	if inner < 0 || inner+1 < len(src) && src[inner+1] == ')' {
		return 0, false
	}
	end := matchParen(src, inner+1)
	if end < 0 {
		return 0, false
	}
	return end, true
}

// matchParen is the index of the ")" closing a "(" whose content starts
// at i, skipping quoted text as bash's parse_matched_pair does, or -1.
func matchParen(src string, i int) int {
	depth := 1
	for ; i < len(src); i++ {
		switch c := src[i]; c {
		case '\\':
			i++
		case '\'':
			j := strings.IndexByte(src[i+1:], '\'')
			if j < 0 {
				return -1
			}
			i += j + 1
		case '"', '`':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return -1
			}
			i = j
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// repairDparen rewrites the subshell src[i:end+1] in b (see above) when
// its content parses, and records it in rep.
func repairDparen(src string, b []byte, i, end int, rep *repairs) bool {
	inner := blankOutside(src, i+1, end)
	if _, err := parseBash(inner, ""); err != nil {
		return false
	}
	b[i], b[i+1] = '(', ':'
	for k := i + 2; k < end; k++ {
		if b[k] != '\n' {
			b[k] = ' '
		}
	}
	b[end] = ')'
	rep.fix(i, astFix{kind: fixDparenSub, name: inner})
	return true
}

// blankOutside is src with every byte outside [s, e) but newlines made a
// blank, so that what is parsed from it keeps its offsets and lines.
func blankOutside(src string, s, e int) string {
	b := []byte(src)
	for k := range b {
		if (k < s || k >= e) && b[k] != '\n' {
			b[k] = ' '
		}
	}
	return string(b)
}

// applyDparen puts back the commands of a subshell repairDparen rewrote.
func applyDparen(n *syntax.Subshell, f astFix) {
	file, err := parseBash(f.name, "")
	if err != nil {
		return
	}
	n.Stmts, n.Last = file.Stmts, file.Last
}

// emptyArith rewrites the $(()) at b[i], which mvdan's parser rejects, to
// $[00], made $(()) again by apply.
func emptyArith(b []byte, i int, rep *repairs) {
	copy(b[i:], "$[00]")
	rep.fix(i, astFix{kind: fixEmptyArith})
}

// emptyArithCmd rewrites the command (()) at b[i] to ":   ", made (())
// again by apply.
func emptyArithCmd(b []byte, i int, rep *repairs) {
	copy(b[i:], ":   ")
	rep.fix(i, astFix{kind: fixEmptyArithCmd})
}

// shiftPos is p moved n bytes along its line.
func shiftPos(p syntax.Pos, n uint) syntax.Pos {
	return syntax.NewPos(p.Offset()+n, p.Line(), p.Col()+n)
}

// emptyArithWord is the empty expression of (()) and $(()) at p.
func emptyArithWord(p syntax.Pos) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{ValuePos: p, ValueEnd: p}}}
}

// arithExpansions finds the end of an arithmetic expression whose content
// starts at i and holds parameter expansions or command substitutions
// ($x, ${..}, $(..), $((..))), which arithEnd leaves to the parser: the
// index of the second ) of the closing )), and the spans of the
// expansions. It reports false for text it does not know.
func arithExpansions(src string, i int) (int, [][2]int, bool) {
	var spans [][2]int
	depth := 2
	for ; i < len(src); i++ {
		switch c := src[i]; c {
		case '\\', '`', '\'', '"', '\n':
			return 0, nil, false
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				if src[i-1] == ')' {
					return i, spans, true
				}
				return 0, nil, false
			}
		case '$':
			e := -1
			switch {
			case strings.HasPrefix(src[i:], "$(("):
				e = arithEnd(src, i+3)
				if e < 0 {
					if x, _, ok := arithExpansions(src, i+3); ok {
						e = x
					}
				}
			case strings.HasPrefix(src[i:], "$("):
				e = matchParen(src, i+2)
			case strings.HasPrefix(src[i:], "${"):
				e = braceEnd(src, i+2)
			case i+1 < len(src) && strings.IndexByte("@*#?-$!0123456789", src[i+1]) >= 0:
				e = i + 1
			default:
				e = i + paramNameLen(src[i+1:])
				if e == i {
					return 0, nil, false
				}
			}
			if e < 0 {
				return 0, nil, false
			}
			spans = append(spans, [2]int{i, e + 1})
			i = e
		}
	}
	return 0, nil, false
}

// blankArithExpansions is blankArith for text [s, e) holding expansions:
// they stay where they are, joined by + operators, so that the parsed
// expression still holds them and arithmetic (read from the original
// text) has them expanded.
func blankArithExpansions(b []byte, s, e int, spans [][2]int) {
	pos := s
	for _, sp := range spans {
		for k := pos; k < sp[0]; k++ {
			b[k] = ' '
		}
		if sp[0] > pos {
			b[sp[0]-1] = '+'
		}
		pos = sp[1]
	}
	for k := pos; k < e; k++ {
		b[k] = ' '
	}
}

// repairSlice blanks, in fixed (the text of a ${..} at offset off of
// the source), the offset and length of a substring expansion ${x:o:l}
// starting at p that the parser rejects as arithmetic (${x:%}, ${#:1+}):
// bash reports them when it evaluates them. Each becomes a literal 0
// that fixArithSpan stretches back over the original text.
func repairSlice(fixed []byte, p, off int, rep *repairs) bool {
	if p >= len(fixed)-1 || fixed[p] != ':' || p+1 < len(fixed)-1 && strings.IndexByte("-=?+", fixed[p+1]) >= 0 {
		return false
	}
	body := string(fixed[p+1 : len(fixed)-1])
	if strings.ContainsAny(body, "$`'\"\\{}()\n") {
		return false
	}
	parts := strings.SplitN(body, ":", 2)
	s := p + 1
	done := false
	for _, part := range parts {
		if strings.TrimSpace(part) != "" && !parsesOK("echo $(("+part+"))") {
			blankArith(string(fixed), fixed, s, s+len(part))
			rep.fix(off+s, astFix{kind: fixArithSpan, name: part})
			done = true
		}
		s += len(part) + 1
	}
	return done
}

// repairAssignSub blanks the subscript of an assignment NAME[sub]=... when
// the parse error at off is inside it (a[b[c]d]=e): bash reports it when
// the assignment runs, evaluating the text fixArithSpan gives back.
func repairAssignSub(text string, b []byte, off int, rep *repairs) bool {
	open, depth := -1, 0
	for k := min(off, len(text)-1); k >= 0 && text[k] != '\n'; k-- {
		if k < off && text[k] == ']' {
			depth++
		} else if text[k] == '[' {
			if depth == 0 {
				open = k
				break
			}
			depth--
		}
	}
	if open < 1 {
		return false
	}
	start := open
	for start > 0 && isNameByte(text[start-1]) {
		start--
	}
	if !validName(text[start:open]) || start > 0 && strings.IndexByte(" \t\n;&|(", text[start-1]) < 0 {
		return false
	}
	close := matchBracket(text, open+1)
	if close < 0 || close <= off && text[off] != ']' {
		return false
	}
	if after := text[close+1:]; !strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "+=") {
		return false
	}
	sub := text[open+1 : close]
	if strings.TrimSpace(sub) == "" || strings.ContainsAny(sub, "$`'\"\\\n") {
		return false
	}
	blankArith(text, b, open+1, close)
	rep.fix(open+1, astFix{kind: fixArithSpan, name: sub})
	return true
}

// matchBracket is the index of the "]" closing a "[" whose content starts
// at i, on the same line, or -1.
func matchBracket(text string, i int) int {
	depth := 1
	for ; i < len(text) && text[i] != '\n'; i++ {
		switch text[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
