package shell

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// patternBash returns the path of GNU bash 5.2, the oracle of the
// differential tests, or skips the test if it is not available.
func patternBash(t *testing.T) string {
	t.Helper()
	const path = "/bin/bash"
	out, err := exec.Command(path, "-c", `echo "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}"`).Output()
	if err != nil || strings.TrimSpace(string(out)) != "5.2" {
		t.Skip("needs GNU bash 5.2 at /bin/bash")
	}
	return path
}

// patternBashRun runs script with bash in dir (if not empty) under the
// C.UTF-8 locale and returns its standard output.
func patternBashRun(t *testing.T, bash, dir, script string) []byte {
	t.Helper()
	cmd := exec.Command(bash, "--norc", "--noprofile")
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin", "HOME=/nonexistent"}
	cmd.Stdin = strings.NewReader(script)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, stderr.String())
	}
	return out
}

// patternQuote quotes s for bash as $'...'.
func patternQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= ' ' && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\x%02x", c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// patternOutcome is what the differential tests compare for one pattern
// and subject: [[ == ]] (where bash 5.2 always enables extglob), case,
// the four removals and the four substitutions.
type patternOutcome struct {
	cond, match                          bool
	shortPre, longPre, shortSuf, longSuf string
	subst, substAll, substPre, substSuf  string
}

// patternCase is one pattern, subject and set of options.
type patternCase struct {
	pat, subj       string
	extglob, nocase bool
}

func (c patternCase) String() string {
	var opts []string
	if c.extglob {
		opts = append(opts, "extglob")
	}
	if c.nocase {
		opts = append(opts, "nocasematch")
	}
	return fmt.Sprintf("pat %q subj %q %v", c.pat, c.subj, opts)
}

// patternMarker stands in for the replacement text; subjects must not
// contain it.
const patternMarker = "\x1e"

// outcome computes the outcome with the Go matcher.
func (c patternCase) outcome(t *testing.T) patternOutcome {
	var mode patternMode
	if c.extglob {
		mode |= patternExtglob
	}
	// Bash applies nocasematch to [[ ]] and to ${s/p/r} but not to ${s#p}.
	plain, err := patternCompile(c.pat, mode)
	if err != nil {
		t.Fatalf("%v: %v", c, err)
	}
	folded := plain
	if c.nocase {
		folded, _ = patternCompile(c.pat, mode|patternNoCase)
	}
	var o patternOutcome
	o.match = folded.match(c.subj)
	cond, _ := patternCompile(c.pat, mode|patternExtglob|folded.mode)
	o.cond = cond.match(c.subj)
	remove := func(i int, prefix bool) string {
		if i < 0 {
			return c.subj
		}
		if prefix {
			return c.subj[i:]
		}
		return c.subj[:i]
	}
	o.shortPre = remove(plain.matchPrefix(c.subj, false), true)
	o.longPre = remove(plain.matchPrefix(c.subj, true), true)
	o.shortSuf = remove(plain.matchSuffix(c.subj, false), false)
	o.longSuf = remove(plain.matchSuffix(c.subj, true), false)
	marker := func(string) string { return patternMarker }
	o.subst = folded.replace(c.subj, patternSubstFirst, marker)
	o.substAll = folded.replace(c.subj, patternSubstAll, marker)
	o.substPre = folded.replace(c.subj, patternSubstPrefix, marker)
	o.substSuf = folded.replace(c.subj, patternSubstSuffix, marker)
	return o
}

// patternBashOutcomes computes the outcomes of cases with bash.
func patternBashOutcomes(t *testing.T, cases []patternCase) []patternOutcome {
	bash := patternBash(t)
	var script strings.Builder
	for _, c := range cases {
		if c.extglob {
			script.WriteString("shopt -s extglob\n")
		} else {
			script.WriteString("shopt -u extglob\n")
		}
		if c.nocase {
			script.WriteString("shopt -s nocasematch\n")
		} else {
			script.WriteString("shopt -u nocasematch\n")
		}
		fmt.Fprintf(&script, "p=%s s=%s\n", patternQuote(c.pat), patternQuote(c.subj))
		script.WriteString(`if [[ $s == $p ]]; then printf '1\0'; else printf '0\0'; fi` + "\n")
		script.WriteString(`case $s in $p) printf '1\0';; *) printf '0\0';; esac` + "\n")
		script.WriteString(`printf '%s\0' "${s#$p}" "${s##$p}" "${s%$p}" "${s%%$p}" "${s/$p/$'\x1e'}" "${s//$p/$'\x1e'}" "${s/#$p/$'\x1e'}" "${s/%$p/$'\x1e'}"` + "\n")
	}
	out := patternBashRun(t, bash, "", script.String())
	fields := strings.Split(string(out), "\x00")
	if len(fields) != 10*len(cases)+1 {
		t.Fatalf("bash printed %d fields for %d cases", len(fields), len(cases))
	}
	res := make([]patternOutcome, len(cases))
	for i := range cases {
		f := fields[10*i:]
		res[i] = patternOutcome{
			cond: f[0] == "1", match: f[1] == "1",
			shortPre: f[2], longPre: f[3], shortSuf: f[4], longSuf: f[5],
			subst: f[6], substAll: f[7], substPre: f[8], substSuf: f[9],
		}
	}
	return res
}

// patternCompare runs cases through bash and the Go matcher and reports
// every difference.
func patternCompare(t *testing.T, cases []patternCase) {
	t.Helper()
	want := patternBashOutcomes(t, cases)
	bad := 0
	for i, c := range cases {
		got := c.outcome(t)
		if got != want[i] {
			bad++
			if bad <= 40 {
				t.Errorf("%v:\n got %+v\nwant %+v", c, got, want[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d cases differ from bash", bad, len(cases))
	}
	t.Logf("%d cases compared with bash", len(cases))
}

// patternDiffPatterns returns the patterns of the differential test.
func patternDiffPatterns() []string {
	return []string{
		// Plain wildcards and escapes.
		``, `*`, `**`, `?`, `??`, `*?`, `?*`, `a`, `a*`, `*a`, `*a*`, `a*b`, `a?c`,
		`*.txt`, `*.*`, `.*`, `*/*`, `\*`, `\?`, `\\`, `\`, `a\`, `*\`, `a\*`, `\a`,
		`a\\b`, `*\**`, `[*]`, `*b*c`, `*a*a*b`, `*X*`, `X*`, `*X`, `?X?`,
		`foo.*`, `*.tar.gz`, `*.t*`, `*[.]*`,
		// Brackets.
		`[abc]`, `[!abc]`, `[^abc]`, `[a-c]`, `[!a-c]`, `[]]`, `[]a]`, `[!]]`,
		`[!]a]`, `[a-]`, `[-a]`, `[z-a]`, `[a-c-e]`, `[]-a]`, `[!]`, `[]`, `[\]`,
		`[\]]`, `[a\]b]`, `[a`, `a[`, `[a\`, `[[:alpha:]]`, `[[:alpha:]`,
		`[[:alpha]`, `[[:digit:][:upper:]]`, `[![:alpha:]]`, `[[:foo:]]`,
		`[[:foo:]a]`, `[[:space:]]`, `[[:punct:]]`, `[[:alnum:]_]`, `[[:word:]]`,
		`[[:ascii:]]`, `[[:lower:]]`, `[[:upper:]]`, `[[:xdigit:]]`,
		`[[:blank:]]`, `[[:cntrl:]]`, `[[:print:]]`, `[[:graph:]]`,
		`[[:al\pha:]]`, `[[.a.]]`, `[[.hyphen.]]`, `[[.-.]]`, `[[.ab.]]`,
		`[[=a=]]`, `[[=a=]b]`, `[[.a.]-c]`, `[a-[.c.]]`, `[a[:b]`, `[a[:b:]c]`,
		`[[]`, `[[]]`, `[*?]`, `[/]`, `x[a/]y`, `[a-z]*`, `*[0-9]`,
		`[A-Z]*`, `[é]`, `[a-é]`, `[!é]`, `?é`, `é*`, `[[:alpha:]][[:alpha:]]`,
		`[a-c]*[x-z]`, `[.]*`, `[!.]*`,
		// Extglob.
		`@(a|b)`, `@(a|b)*`, `?(a)`, `?(a)b`, `*(a)`, `*(a|b)`, `+(a)`,
		`+(a|b)c`, `!(a)`, `!(a|b)`, `!(*.txt)`, `!(*.txt)x`, `*!(a)`,
		`*!(*)`, `a*!(b)c`, `*@(|x)`, `*?(x)`, `**(x)`, `**(x)y`, `*+(|x)`,
		`@(a*!(b)c)`, `x@(*!(b))`, `*(a|ab)b`, `+(a|b)*`, `@()`, `@(|a)`,
		`@(a`, `*(a`, `a*(b`, `!(`, `@(a|b))`, `@(a\|b)`, `@([)])`, `@([|]|x)`,
		`@(*.@(c|h))`, `!(!(a))`, `+(+(a)b)`, `*(*(a)|b)`, `?(*)`, `!(?)`,
		`!(??*)`, `@(a)@(b)`, `+([0-9])`, `+([[:digit:]]).+([0-9])`,
		`!([[:alpha:]]*)`, `@(foo|bar).*`, `*.@(jpg|png)`, `!(*.@(jpg|png))`,
		`+( )`, `*( )`, `@(ab|a)*(b)`, `?(a|b)?(b|c)`, `!(a)*`, `*!(a)*`,
		`!(*a)`, `!(a*)`, `@(.*)`, `!(.*)`, `@(*)`, `*(.)`, `+(.)*`, `[a]@(b)`,
		`\@(a)`, `@\(a)`, `@(a\))`, `@(a|)`, `@(|)`, `!()`, `*()`, `+()`,
		`?()`, `!(|)`, `@(a|*)`, `+(a*)`, `*(*)`, `+(*)`, `!(*)`,
		`@(?|??)b`, `!(x)y`, `?(x)!(y)`, `@(a[!b]c)`, `a@(?)c`, `a!(b)c`,
		` `, `é`, `?é`, `[é ]`, `*é`, `é*`, `+(é)`, `日*`, `*.txt`, `[[:alpha:]]`,
	}
}

// patternDiffSubjects returns the subjects of the differential test.
func patternDiffSubjects() []string {
	return []string{
		"", "a", "b", "ab", "ba", "abc", "aab", "aaa", "abab", "abb", "aabab",
		"x", "xy", "axy", "ax", "ay", "axc", "ac", "X", "aXbXc", "AbC", "ABC",
		".a", ".", "..", "a.b", "a.txt", ".txtx", "a.txtx", "foo.tar.gz",
		"pic.jpg", "x/y", "a/b/c", "*", "?", "\\", "a\\", "a\\b", "a*b",
		"[a]", "[", "]", "[]", "[!]", "-", "^", "!", "a(b)c", "(", ")", "|",
		"@(a", "*(a", "12", "3.14", "a1", " ", "a  b", "\t", "_",
		"é", "éa", "aé", "É", "ß", "\xff", "a\xffé", "\xc3", "z",
		"é é", "aé bé", "ééa", "a é\xff é", "日本語.txt", "x日y",
	}
}

func TestPatternDifferential(t *testing.T) {
	var cases []patternCase
	for _, p := range patternDiffPatterns() {
		for _, s := range patternDiffSubjects() {
			for _, extglob := range []bool{false, true} {
				cases = append(cases, patternCase{pat: p, subj: s, extglob: extglob})
			}
		}
	}
	// Case-insensitive matching, on a smaller set.
	for _, p := range []string{`a`, `A*`, `[A-C]`, `[a-c]`, `[[:upper:]]`,
		`[[:lower:]]`, `É`, `ß`, `[!a]`, `@(A|b)`, `*B*`, `\A`, `[[=A=]]`, `x`} {
		for _, s := range []string{"a", "A", "b", "B", "é", "É", "ẞ", "ß", "aB", "AbC", "x", "K", "\u212a"} {
			cases = append(cases, patternCase{pat: p, subj: s, nocase: true, extglob: true})
		}
	}
	patternCompare(t, cases)
}

// patternTableEntry is a hand-checked match result.
type patternTableEntry struct {
	pat, subj       string
	extglob, nocase bool
	want            bool
}

// patternTable lists hand-checked results of case $subj in $pat (verified
// with bash 5.2 by TestPatternTableAgainstBash).
func patternTable() []patternTableEntry {
	return []patternTableEntry{
		{`*`, ``, false, false, true},
		{`*`, `.a`, false, false, true},
		{`a\`, `a\`, false, false, true},
		{`\`, `\`, false, false, true},
		{`*\`, `a\`, false, false, false},
		{`\*x*`, `*xy`, false, false, true},
		{`\*x*`, `axy`, false, false, false},
		{`[a`, `[a`, false, false, true},
		{`[]a]`, `]`, false, false, true},
		{`[!]a]`, `]`, false, false, false},
		{`[a-]`, `-`, false, false, true},
		{`[z-a]`, `z`, false, false, false},
		{`[a-c-e]`, `d`, false, false, false},
		{`[a-c-e]`, `-`, false, false, true},
		{`[[:foo:]]`, `f`, false, false, false},
		{`[[:alpha:]]`, `é`, false, false, true},
		{`[[:alpha:]`, `a`, false, false, false},
		{`[[:alpha]`, `:`, false, false, true},
		{`[[.hyphen.]]`, `-`, false, false, true},
		{`[a-z]`, `é`, false, false, false},
		{`?`, "\xff", false, false, true},
		{`a??`, "a\xffé", false, false, false}, // invalid UTF-8: bytewise
		{`a???`, "a\xffé", false, false, true},
		{`x[a/]y`, `x/y`, false, false, true},
		{`@(a`, `@(a`, true, false, true},
		{`*(a`, `x(a`, true, false, false},
		{`!(*.txt)x`, `a.txtx`, true, false, false},
		{`!(*.txt)x`, `ax`, true, false, true},
		{`*!(*)`, ``, true, false, true},       // bash quirk
		{`a*!(b)c`, `a`, true, false, true},    // bash quirk
		{`*!(a)`, `a`, true, false, false},     // bash quirk
		{`*@(|x)`, `a`, true, false, false},    // bash quirk
		{`x@(*!(b))`, `x`, true, false, false}, // bash quirk
		{`*(a|ab)b`, `aabab`, true, false, true},
		{`+(a|b)*`, ``, true, false, false},
		{`+([0-9])`, `12345`, true, false, true},
		{`+([0-9])`, `12a45`, true, false, false},
		{`@(foo|bar).*`, `bar.c`, true, false, true},
		{`É`, `é`, false, true, true},
		{`[A-C]`, `b`, false, true, true},
		{`[[:upper:]]`, `b`, false, true, false},
		{`k`, "\u212a", false, true, true},
	}
}

func TestPatternTable(t *testing.T) {
	for _, tc := range patternTable() {
		mode := patternMode(0)
		if tc.extglob {
			mode |= patternExtglob
		}
		if tc.nocase {
			mode |= patternNoCase
		}
		m, err := patternCompile(tc.pat, mode)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.match(tc.subj); got != tc.want {
			t.Errorf("[[ %q == %q ]] (extglob %v nocase %v) = %v, want %v",
				tc.subj, tc.pat, tc.extglob, tc.nocase, got, tc.want)
		}
	}
}

func TestPatternTableAgainstBash(t *testing.T) {
	table := patternTable()
	var cases []patternCase
	for _, tc := range table {
		cases = append(cases, patternCase{pat: tc.pat, subj: tc.subj, extglob: tc.extglob, nocase: tc.nocase})
	}
	want := patternBashOutcomes(t, cases)
	for i, tc := range table {
		if want[i].match != tc.want {
			t.Errorf("table entry %v says %v, bash says %v", cases[i], tc.want, want[i].match)
		}
	}
}

func TestPatternOperations(t *testing.T) {
	tests := []struct {
		pat, subj          string
		shortPre, longPre  int
		shortSuf, longSuf  int
		findStart, findEnd int
	}{
		{`*/`, "a/b/c", 2, 4, -1, -1, 0, 4},
		{`/*`, "a/b/c", -1, -1, 3, 1, 1, 5},
		{`.*`, "f.tar.gz", -1, -1, 5, 1, 1, 8},
		{`b`, "abcb", -1, -1, 3, 3, 1, 2},
		{`é?`, "aéxé", -1, -1, -1, -1, 1, 4},
		{``, "abc", 0, 0, 3, 3, -1, -1},
	}
	for _, tc := range tests {
		m, _ := patternCompile(tc.pat, patternExtglob)
		if got := m.matchPrefix(tc.subj, false); got != tc.shortPre {
			t.Errorf("%q matchPrefix(%q, false) = %d, want %d", tc.pat, tc.subj, got, tc.shortPre)
		}
		if got := m.matchPrefix(tc.subj, true); got != tc.longPre {
			t.Errorf("%q matchPrefix(%q, true) = %d, want %d", tc.pat, tc.subj, got, tc.longPre)
		}
		if got := m.matchSuffix(tc.subj, false); got != tc.shortSuf {
			t.Errorf("%q matchSuffix(%q, false) = %d, want %d", tc.pat, tc.subj, got, tc.shortSuf)
		}
		if got := m.matchSuffix(tc.subj, true); got != tc.longSuf {
			t.Errorf("%q matchSuffix(%q, true) = %d, want %d", tc.pat, tc.subj, got, tc.longSuf)
		}
		if s, e := m.find(tc.subj, 0); s != tc.findStart || e != tc.findEnd {
			t.Errorf("%q find(%q, 0) = %d, %d, want %d, %d", tc.pat, tc.subj, s, e, tc.findStart, tc.findEnd)
		}
	}
}

// TestPatternReplace pins bash results of ${s/p/r} and its variants,
// including the corner cases of bash's pat_subst and match_pattern.
func TestPatternReplace(t *testing.T) {
	tests := []struct {
		subj, pat string
		how       patternSubstMode
		mode      patternMode
		want      string
	}{
		{"aXbXc", `X*`, patternSubstFirst, 0, "a_"},
		{"aXbXc", `X?`, patternSubstAll, 0, "a__"},
		{"b", `*(a)`, patternSubstAll, patternExtglob, "_b"},   // empty match, then step
		{"ab", `*(a)`, patternSubstAll, patternExtglob, "__b"}, // "a", then empty before "b"
		{"", `?(a)`, patternSubstPrefix, patternExtglob, ""},   // empty subject: only '*' patterns
		{"", `*`, patternSubstPrefix, 0, "_"},
		{"", `?(a)`, patternSubstFirst, patternExtglob, ""},
		{"", `*`, patternSubstFirst, 0, "_"},
		{"abc", ``, patternSubstPrefix, 0, "_abc"}, // empty pattern anchors
		{"abc", ``, patternSubstSuffix, 0, "abc_"},
		{"abc", ``, patternSubstAll, 0, "abc"},
		{"ABC", `b`, patternSubstFirst, patternNoCase, "A_C"},
		{"a", `[!]]`, patternSubstFirst, 0, "a"}, // bash's matchlen counts 2
		{"x.tar.gz", `.*`, patternSubstSuffix, 0, "x_"},
		{"x.tar.gz", `*.`, patternSubstPrefix, 0, "_gz"},
		{"héhé", `é`, patternSubstAll, 0, "h_h_"},
		{"a  b   c", `+( )`, patternSubstAll, patternExtglob, "a_b_c"},
	}
	for _, tc := range tests {
		m, _ := patternCompile(tc.pat, tc.mode)
		got := m.replace(tc.subj, tc.how, func(string) string { return "_" })
		if got != tc.want {
			t.Errorf("replace(%q, %q, %d) = %q, want %q", tc.subj, tc.pat, tc.how, got, tc.want)
		}
	}
	m, _ := patternCompile(`[0-9]+`, 0)
	got := m.replace("a1+b22+", patternSubstAll, func(s string) string { return "<" + s + ">" })
	if want := "a<1+>b2<2+>"; got != want {
		t.Errorf("replace with match = %q, want %q", got, want)
	}
}

func TestPatternHasMeta(t *testing.T) {
	tests := []struct {
		pat     string
		extglob bool
		want    bool
	}{
		{"abc", false, false},
		{"a*c", false, true},
		{"a?c", false, true},
		{`a\*c`, false, false},
		{"[a", false, false},
		{"[a]", false, true},
		{"a]", false, false},
		{`[a\]`, false, false},
		{"@(a)", false, false},
		{"@(a)", true, true},
		{"!(a)", true, true},
		{`\@(a)`, true, false},
	}
	for _, tc := range tests {
		if got := patternHasMeta(tc.pat, tc.extglob); got != tc.want {
			t.Errorf("patternHasMeta(%q, %v) = %v, want %v", tc.pat, tc.extglob, got, tc.want)
		}
	}
	unescape := map[string]string{`abc`: `abc`, `a\*c`: `a*c`, `\\`: `\`, `a\`: `a\`, `\a\b`: `ab`}
	for in, want := range unescape {
		if got := patternUnescape(in); got != want {
			t.Errorf("patternUnescape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPatternAdversarial checks that patterns which make a naive
// backtracking matcher take exponential time stay fast on a 10k subject.
func TestPatternAdversarial(t *testing.T) {
	subj := strings.Repeat("a", 10000)
	tests := []struct {
		pat  string
		want bool
	}{
		{"*a*a*a*a*a*a*b", false},
		{"*a*a*a*a*a*a*a", true},
		{"*a*a*a*a*a*a*b*", false},
		{"*?*?*?*?*?*?*b", false},
		{"+(a)", true},
		{"+(a|aa)b", false},
		{"*(a|aa)", true},
		{"!(*b*)", true},
		{"@(*a*a*b|*a)", true},
	}
	for _, tc := range tests {
		m, _ := patternCompile(tc.pat, patternExtglob)
		start := time.Now()
		got := m.match(subj)
		d := time.Since(start)
		if got != tc.want {
			t.Errorf("%q: match = %v, want %v", tc.pat, got, tc.want)
		}
		t.Logf("%-22q %v", tc.pat, d)
		if d > 5*time.Second {
			t.Errorf("%q took %v", tc.pat, d)
		}
	}
}

// TestPatternRandom compares random patterns and subjects with bash. The
// generator is seeded, so failures are reproducible.
func TestPatternRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	tokens := []string{"a", "b", ".", "*", "*", "?", "[", "]", "!", "^", "-",
		`\`, "(", ")", "|", "|", "@(", "*(", "+(", "?(", "!(", ")", ")",
		"[:alpha:]", "[!", "[a-b]", "é", "/", "x"}
	letters := []string{"a", "b", ".", "-", "]", "(", "|", "é", "/", `\`, "x", "*", "["}
	seed := uint64(1)
	if v := os.Getenv("PATTERN_SEED"); v != "" {
		fmt.Sscan(v, &seed)
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	var cases []patternCase
	for range 4000 {
		var p strings.Builder
		for range 1 + rng.IntN(9) {
			p.WriteString(tokens[rng.IntN(len(tokens))])
		}
		for range 3 {
			var s strings.Builder
			for range rng.IntN(6) {
				s.WriteString(letters[rng.IntN(len(letters))])
			}
			cases = append(cases, patternCase{pat: p.String(), subj: s.String(), extglob: rng.IntN(4) != 0, nocase: rng.IntN(8) == 0})
		}
	}
	patternCompare(t, cases)
}

// TestPatternConcurrent uses one compiled pattern from several goroutines
// (run with -race).
func TestPatternConcurrent(t *testing.T) {
	m, _ := patternCompile(`[[:alpha:]]*.@(txt|md)`, patternExtglob)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				s := fmt.Sprintf("f%d-%d.txt", g, i)
				if start, _ := m.find(s, 0); !m.match(s) || start != 0 {
					t.Errorf("no match for %q", s)
				}
			}
		}()
	}
	wg.Wait()
}

func BenchmarkPatternMatch(b *testing.B) {
	m, _ := patternCompile(`*.@(jpg|png)`, patternExtglob)
	for b.Loop() {
		m.match("holiday-2024/IMG_0001.png")
	}
}

func BenchmarkPatternLongSubject(b *testing.B) {
	subj := strings.Repeat("a", 10000)
	m, _ := patternCompile(`*a*a*a*a*a*a*b`, 0)
	for b.Loop() {
		m.match(subj)
	}
}

func BenchmarkPatternReplaceAll(b *testing.B) {
	subj := strings.Repeat("ab  cd ", 200)
	m, _ := patternCompile(`+( )`, patternExtglob)
	space := func(string) string { return " " }
	for b.Loop() {
		m.replace(subj, patternSubstAll, space)
	}
}
