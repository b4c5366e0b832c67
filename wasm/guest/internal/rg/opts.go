package rg

import (
	"fmt"
	"strconv"
	"strings"
)

// Case modes.
const (
	caseSensitive = iota
	caseInsensitive
	caseSmart
)

// options is the parsed command line.
type options struct {
	patterns     []string
	patternFiles []string
	paths        []string

	fixed, word, lineRegexp, invert bool
	caseMode                        int

	count, countMatches     bool
	filesWith, filesWithout bool
	onlyMatching, quiet     bool
	lineNumber              int // -1 unset, 0 off, 1 on
	withFilename            int // -1 unset, 0 off, 1 on
	heading                 bool
	column, vimgrep, null   bool
	after, before           int
	maxCount                int64 // -1: no limit
	replace                 *string
	contextSep              string

	globs      []globOpt
	types      []string
	notTypes   []string
	hidden     bool
	noIgnore   bool
	noIgnoreVC bool
	noIgnoreDo bool
	noParent   bool
	follow     bool
	maxDepth   int // -1: no limit
	binary     bool
	text       bool
	noMessages bool
	json       bool
	files      bool
	typeList   bool
	sortPath   bool
	sortRev    bool
	noReqGit   bool
}

type globOpt struct {
	glob     string
	foldCase bool
}

// usageError is a command-line mistake.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// longValued lists the long options that take a value, by canonical name;
// shortNames maps short letters to them.
var longValued = map[string]bool{
	"regexp": true, "file": true, "glob": true, "iglob": true, "type": true, "type-not": true,
	"after-context": true, "before-context": true, "context": true, "max-count": true,
	"replace": true, "max-depth": true, "threads": true, "color": true, "sort": true,
	"sortr": true, "context-separator": true, "colors": true, "encoding": true,
	"max-filesize": true, "type-add": true, "type-clear": true, "ignore-file": true,
	"max-columns": true, "path-separator": true, "field-match-separator": true,
	"field-context-separator": true, "dfa-size-limit": true, "regex-size-limit": true,
}

var longFlags = map[string]bool{
	"fixed-strings": true, "word-regexp": true, "line-regexp": true, "invert-match": true,
	"ignore-case": true, "case-sensitive": true, "smart-case": true, "count": true,
	"count-matches": true, "files-with-matches": true, "files-without-match": true,
	"only-matching": true, "quiet": true, "line-number": true, "no-line-number": true,
	"with-filename": true, "no-filename": true, "heading": true, "no-heading": true,
	"column": true, "no-column": true, "vimgrep": true, "null": true, "hidden": true,
	"no-hidden": true, "no-ignore": true, "no-ignore-vcs": true, "no-ignore-dot": true,
	"no-ignore-parent": true, "no-ignore-global": true, "no-ignore-exclude": true,
	"no-ignore-files": true, "ignore": true, "follow": true, "no-follow": true,
	"unrestricted": true, "text": true, "no-text": true, "binary": true, "no-binary": true,
	"no-messages": true, "messages": true, "json": true, "no-json": true, "files": true,
	"type-list": true, "sort-files": true, "no-config": true, "pretty": true, "help": true,
	"version": true, "no-require-git": true, "require-git": true, "one-file-system": true,
	"no-mmap": true, "mmap": true, "crlf": true, "no-crlf": true, "stats": true,
	"no-stats": true, "trim": true, "no-trim": true, "byte-offset": true,
	"no-ignore-messages": true, "ignore-messages": true, "no-unicode": true, "unicode": true,
}

var shortNames = map[byte]string{
	'e': "regexp", 'f': "file", 'g': "glob", 't': "type", 'T': "type-not",
	'A': "after-context", 'B': "before-context", 'C': "context", 'm': "max-count",
	'r': "replace", 'j': "threads", 'M': "max-columns",
	'F': "fixed-strings", 'w': "word-regexp", 'x': "line-regexp", 'v': "invert-match",
	'i': "ignore-case", 's': "case-sensitive", 'S': "smart-case", 'c': "count",
	'l': "files-with-matches", 'o': "only-matching", 'q': "quiet", 'n': "line-number",
	'N': "no-line-number", 'H': "with-filename", 'I': "no-filename", '0': "null",
	'L': "follow", 'u': "unrestricted", 'a': "text", 'p': "pretty", 'h': "help",
	'V': "version", 'b': "byte-offset",
}

// parseArgs parses args (without the command name) as ripgrep does:
// options and operands mix, "--" ends options, short options cluster and
// take their value attached or as the next argument.
func parseArgs(args []string) (*options, error) {
	o := &options{lineNumber: -1, withFilename: -1, maxCount: -1, maxDepth: -1, contextSep: "--"}
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		if a[1] == '-' {
			name, val, hasVal := strings.Cut(a[2:], "=")
			switch {
			case longValued[name]:
				if !hasVal {
					if i+1 >= len(args) {
						return nil, &usageError{fmt.Sprintf("The argument '--%s <%s>' requires a value but none was supplied", name, strings.ToUpper(name))}
					}
					i++
					val = args[i]
				}
				if err := o.set(name, val); err != nil {
					return nil, err
				}
			case longFlags[name] && !hasVal:
				if err := o.set(name, ""); err != nil {
					return nil, err
				}
			default:
				return nil, &usageError{fmt.Sprintf("Found argument '%s' which wasn't expected, or isn't valid in this context", a)}
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			name, ok := shortNames[a[j]]
			if !ok {
				return nil, &usageError{fmt.Sprintf("Found argument '-%c' which wasn't expected, or isn't valid in this context", a[j])}
			}
			if !longValued[name] {
				if err := o.set(name, ""); err != nil {
					return nil, err
				}
				continue
			}
			val := a[j+1:]
			if val == "" {
				if i+1 >= len(args) {
					return nil, &usageError{fmt.Sprintf("The argument '-%c <%s>' requires a value but none was supplied", a[j], strings.ToUpper(name))}
				}
				i++
				val = args[i]
			} else if val[0] == '=' {
				val = val[1:]
			}
			if err := o.set(name, val); err != nil {
				return nil, err
			}
			break
		}
	}
	if o.typeList || o.files || len(o.patterns) > 0 || len(o.patternFiles) > 0 {
		o.paths = operands
	} else {
		if len(operands) == 0 {
			return nil, &usageError{"The following required arguments were not provided:\n    <PATTERN>"}
		}
		o.patterns = append(o.patterns, operands[0])
		o.paths = operands[1:]
	}
	return o, nil
}

// help and version are answered before anything else is done.
type helpRequest struct{ version bool }

func (h *helpRequest) Error() string { return "help" }

func number(name, val string) (int64, error) {
	n, err := strconv.ParseInt(val, 10, 64)
	if err != nil || n < 0 {
		return 0, &usageError{fmt.Sprintf("Invalid value for '--%s <NUM>': %s", name, "invalid digit found in string")}
	}
	return n, nil
}

// set applies one option.
func (o *options) set(name, val string) error {
	switch name {
	case "regexp":
		o.patterns = append(o.patterns, val)
	case "file":
		o.patternFiles = append(o.patternFiles, val)
	case "glob":
		o.globs = append(o.globs, globOpt{val, false})
	case "iglob":
		o.globs = append(o.globs, globOpt{val, true})
	case "type":
		o.types = append(o.types, val)
	case "type-not":
		o.notTypes = append(o.notTypes, val)
	case "after-context", "before-context", "context":
		n, err := number(name, val)
		if err != nil {
			return err
		}
		if name != "before-context" {
			o.after = int(n)
		}
		if name != "after-context" {
			o.before = int(n)
		}
	case "max-count":
		n, err := number(name, val)
		if err != nil {
			return err
		}
		o.maxCount = n
	case "max-depth":
		n, err := number(name, val)
		if err != nil {
			return err
		}
		o.maxDepth = int(n)
	case "replace":
		v := val
		o.replace = &v
	case "sort", "sortr":
		switch val {
		case "path":
			o.sortPath, o.sortRev = true, name == "sortr"
		case "none":
			o.sortPath, o.sortRev = false, false
		case "modified", "accessed", "created":
			o.sortPath, o.sortRev = true, name == "sortr"
		default:
			return &usageError{fmt.Sprintf("'%s' isn't a valid value for '--%s <SORTBY>'\n\t[possible values: path, modified, accessed, created, none]", val, name)}
		}
	case "sort-files":
		o.sortPath = true
	case "context-separator":
		o.contextSep = val
	case "threads", "color", "colors", "encoding", "max-filesize", "max-columns",
		"path-separator", "field-match-separator", "field-context-separator",
		"dfa-size-limit", "regex-size-limit", "type-add", "type-clear", "ignore-file":
	case "fixed-strings":
		o.fixed = true
	case "word-regexp":
		o.word, o.lineRegexp = true, false
	case "line-regexp":
		o.lineRegexp, o.word = true, false
	case "invert-match":
		o.invert = true
	case "ignore-case":
		o.caseMode = caseInsensitive
	case "case-sensitive":
		o.caseMode = caseSensitive
	case "smart-case":
		o.caseMode = caseSmart
	case "count":
		o.count, o.countMatches = true, false
	case "count-matches":
		o.countMatches, o.count = true, false
	case "files-with-matches":
		o.filesWith, o.filesWithout = true, false
	case "files-without-match":
		o.filesWithout, o.filesWith = true, false
	case "only-matching":
		o.onlyMatching = true
	case "quiet":
		o.quiet = true
	case "line-number":
		o.lineNumber = 1
	case "no-line-number":
		o.lineNumber = 0
	case "with-filename":
		o.withFilename = 1
	case "no-filename":
		o.withFilename = 0
	case "heading":
		o.heading = true
	case "no-heading":
		o.heading = false
	case "column":
		o.column = true
	case "no-column":
		o.column = false
	case "vimgrep":
		o.vimgrep = true
	case "null":
		o.null = true
	case "hidden":
		o.hidden = true
	case "no-hidden":
		o.hidden = false
	case "no-ignore":
		o.noIgnore = true
	case "ignore":
		o.noIgnore = false
	case "no-ignore-vcs":
		o.noIgnoreVC = true
	case "no-ignore-dot":
		o.noIgnoreDo = true
	case "no-ignore-parent":
		o.noParent = true
	case "follow":
		o.follow = true
	case "no-follow":
		o.follow = false
	case "unrestricted":
		switch {
		case !o.noIgnore:
			o.noIgnore = true
		case !o.hidden:
			o.hidden = true
		default:
			o.binary = true
		}
	case "text":
		o.text = true
	case "no-text":
		o.text = false
	case "binary":
		o.binary = true
	case "no-binary":
		o.binary = false
	case "no-messages":
		o.noMessages = true
	case "messages":
		o.noMessages = false
	case "json":
		o.json = true
	case "no-json":
		o.json = false
	case "files":
		o.files = true
	case "type-list":
		o.typeList = true
	case "no-require-git":
		o.noReqGit = true
	case "require-git":
		o.noReqGit = false
	case "help":
		return &helpRequest{}
	case "version":
		return &helpRequest{version: true}
	}
	return nil
}
