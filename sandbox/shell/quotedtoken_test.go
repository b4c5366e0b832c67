package shell

import (
	"regexp"
	"testing"
)

// TestQuotedToken checks quotedToken against the regexps it replaced.
func TestQuotedToken(t *testing.T) {
	reFollowed := regexp.MustCompile("^`([^`]+)` must be followed by")
	reAtToken := regexp.MustCompile("^`([^`]+)` (can only|is not a valid|must)")
	for _, msg := range []string{
		"`&&` must be followed by a statement",
		"`case x` must be followed by `in`",
		"`for` must be followed by a literal",
		"`}` can only be used to close a block",
		"`;;` can only be used in a case clause",
		"`0a` is not a valid function name",
		"`)` must follow `(`",
		"`` must be followed by",
		"`x`must be followed by",
		"`x",
		"x` must be followed by",
		"reached EOF without closing quote `",
		"`a` `b` must be followed by",
		"`a` mustard",
		"",
	} {
		m := reFollowed.FindStringSubmatch(msg)
		tok, ok := quotedToken(msg, "must be followed by")
		if ok != (m != nil) || ok && tok != m[1] {
			t.Errorf("followed %q: got %q %v, regexp %q", msg, tok, ok, m)
		}
		m = reAtToken.FindStringSubmatch(msg)
		tok, ok = quotedToken(msg, "can only", "is not a valid", "must")
		if ok != (m != nil) || ok && tok != m[1] {
			t.Errorf("at token %q: got %q %v, regexp %q", msg, tok, ok, m)
		}
	}
}
