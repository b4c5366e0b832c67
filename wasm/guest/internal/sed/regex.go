package sed

import "github.com/wasmsand/wasmsand/wasm/guest/internal/posixre"

// sed's regular expressions are package posixre's, in its Sed dialect:
// POSIX BRE and ERE with the GNU extensions, sed's own escapes (\n, \t,
// \dNNN, \oNNN, \xHH, \cX), capture groups for the s command's
// replacement, and the M flag.

// Regex is one compiled sed regular expression.
type Regex = posixre.Regexp

// backtrackBudget caps the backtracking matcher's steps per search.
const backtrackBudget = 10_000_000

// compileRegex compiles pattern (the text between the delimiters, with
// \delim already turned into delim) as an ERE when ere is set.
func compileRegex(pattern string, ere, icase, multi bool) (*Regex, error) {
	return posixre.Compile([]string{pattern}, posixre.Options{
		Extended: ere, IgnoreCase: icase, Multiline: multi, Sed: true, Budget: backtrackBudget,
	})
}
