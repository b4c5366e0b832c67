package agent

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Clip shortens s to about max bytes for a model: it keeps the head and
// the tail, cut at line breaks when one is near, and puts between them a
// note of how many bytes and lines were left out. It reports whether it
// cut anything. Invalid UTF-8 is replaced with U+FFFD first.
func Clip(s string, max int) (string, bool) {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if max <= 0 || len(s) <= max {
		return s, false
	}
	half := max / 2
	head := s[:runeStart(s, half)]
	if i := strings.LastIndexByte(head, '\n'); i >= len(head)*3/4 {
		head = head[:i+1]
	}
	tail := s[runeStart(s, len(s)-half):]
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i < len(tail)/4 {
		tail = tail[i+1:]
	}
	cut := s[len(head) : len(s)-len(tail)]
	lines := strings.Count(cut, "\n")
	note := fmt.Sprintf("\n[... %d bytes (%d lines) cut from the middle; %d bytes in all. Use head, tail, grep or sed -n on the full output ...]\n", len(cut), lines, len(s))
	return head + note + tail, true
}

// runeStart moves i back to the start of the rune that holds it.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
