package git

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/config"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// overrides are -c name=value settings.
var overrides = map[string]string{}

// configFiles lists the config files git reads, lowest precedence first:
// the global ~/.gitconfig (or $GIT_CONFIG_GLOBAL) and the repository's.
func (c *cmd) configFiles() []string {
	var files []string
	if g := c.globalConfig(); g != "" {
		files = append(files, g)
	}
	if c.repo != nil {
		files = append(files, filepath.Join(c.gitDir(), "config"))
	}
	return files
}

func (c *cmd) globalConfig() string {
	if g := c.env.Env("GIT_CONFIG_GLOBAL"); g != "" {
		return g
	}
	if h := c.env.Env("HOME"); h != "" {
		return filepath.Join(h, ".gitconfig")
	}
	return ""
}

// gitDir is the repository's .git directory.
func (c *cmd) gitDir() string { return filepath.Join(c.root, ".git") }

func readConfig(file string) (*config.Config, error) {
	cfg := config.New()
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return cfg, nil
	}
	if err != nil {
		return nil, err
	}
	if err := config.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
		return nil, fmt.Errorf("bad config file %s", file)
	}
	return cfg, nil
}

// splitKey splits "section.sub.name" into its parts.
func splitKey(key string) (section, sub, name string, ok bool) {
	i := strings.Index(key, ".")
	j := strings.LastIndex(key, ".")
	if i <= 0 || j == len(key)-1 {
		return "", "", "", false
	}
	section, name = strings.ToLower(key[:i]), strings.ToLower(key[j+1:])
	if i != j {
		sub = key[i+1 : j]
	}
	return section, sub, name, true
}

func lookup(cfg *config.Config, key string) (string, bool) {
	section, sub, name, ok := splitKey(key)
	if !ok || !cfg.HasSection(section) {
		return "", false
	}
	s := cfg.Section(section)
	opts := s.Options
	if sub != "" {
		if !s.HasSubsection(sub) {
			return "", false
		}
		opts = s.Subsection(sub).Options
	}
	val, found := "", false
	for _, o := range opts {
		if strings.EqualFold(o.Key, name) {
			val, found = o.Value, true
		}
	}
	return val, found
}

// getConfig returns the value of key in the effective configuration.
func (c *cmd) getConfig(key string) (string, bool) {
	if v, ok := overrides[strings.ToLower(key)]; ok {
		return v, true
	}
	val, found := "", false
	for _, f := range c.configFiles() {
		cfg, err := readConfig(f)
		if err != nil {
			continue
		}
		if v, ok := lookup(cfg, key); ok {
			val, found = v, true
		}
	}
	return val, found
}

// config is git config: get, set, --unset, --list, --global, --local.
func (c *cmd) config() error {
	_ = c.open()
	file := ""
	list, unset, get := false, false, false
	var rest []string
	for _, a := range c.args {
		switch a {
		case "--global":
			file = c.globalConfig()
		case "--local":
			if c.repo == nil {
				return c.fatal("--local can only be used inside a git repository")
			}
			file = filepath.Join(c.gitDir(), "config")
		case "-l", "--list":
			list = true
		case "--unset":
			unset = true
		case "--get":
			get = true
		default:
			rest = append(rest, a)
		}
	}
	out := c.env.Out()
	if list {
		files := c.configFiles()
		if file != "" {
			files = []string{file}
		}
		for _, f := range files {
			cfg, err := readConfig(f)
			if err != nil {
				return c.fatal("%s", err)
			}
			for _, s := range cfg.Sections {
				for _, o := range s.Options {
					fmt.Fprintf(out, "%s.%s=%s\n", s.Name, strings.ToLower(o.Key), o.Value)
				}
				for _, ss := range s.Subsections {
					for _, o := range ss.Options {
						fmt.Fprintf(out, "%s.%s.%s=%s\n", s.Name, ss.Name, strings.ToLower(o.Key), o.Value)
					}
				}
			}
		}
		return nil
	}
	if len(rest) == 0 {
		fmt.Fprint(c.env.Stderr, "usage: git config [<options>]\n")
		return &exitError{129}
	}
	key := rest[0]
	section, sub, name, ok := splitKey(key)
	if !ok {
		return c.errorf(1, "key does not contain a section: %s", key)
	}
	if len(rest) == 1 && !unset || get {
		var v string
		var found bool
		if file != "" {
			cfg, err := readConfig(file)
			if err != nil {
				return c.fatal("%s", err)
			}
			v, found = lookup(cfg, key)
		} else {
			v, found = c.getConfig(key)
		}
		if !found {
			return &exitError{1}
		}
		fmt.Fprintln(out, v)
		return nil
	}
	if file == "" {
		if c.repo == nil {
			return c.fatal("not in a git directory")
		}
		file = filepath.Join(c.gitDir(), "config")
	}
	cfg, err := readConfig(file)
	if err != nil {
		return c.fatal("%s", err)
	}
	if unset {
		if _, found := lookup(cfg, key); !found {
			return &exitError{5}
		}
		if sub != "" {
			cfg.Section(section).Subsection(sub).RemoveOption(name)
		} else {
			cfg.Section(section).RemoveOption(name)
		}
	} else if sub != "" {
		cfg.Section(section).Subsection(sub).SetOption(name, rest[1])
	} else {
		cfg.Section(section).SetOption(name, rest[1])
	}
	var buf bytes.Buffer
	if err := config.NewEncoder(&buf).Encode(cfg); err != nil {
		return c.fatal("%s", err)
	}
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		return c.errorf(4, "could not write config file %s: %s", file, err)
	}
	return nil
}

// identity returns the author or committer ("AUTHOR", "COMMITTER") from
// the environment and the configuration, as git's ident.c looks them up.
func (c *cmd) identity(kind string) (*object.Signature, error) {
	name, explicit := os.LookupEnv("GIT_" + kind + "_NAME")
	if !explicit {
		name, _ = c.getConfig("user.name")
	}
	email := c.env.Env("GIT_" + kind + "_EMAIL")
	if email == "" {
		email, _ = c.getConfig("user.email")
	}
	if email == "" {
		email = c.env.Env("EMAIL")
	}
	if explicit && name == "" && email != "" {
		return nil, c.fatal("empty ident name (for <%s>) not allowed", email)
	}
	if name == "" || email == "" {
		c.env.Out().Flush()
		fmt.Fprint(c.env.Stderr, `Author identity unknown

*** Please tell me who you are.

Run

  git config --global user.email "you@example.com"
  git config --global user.name "Your Name"

to set your account's default identity.
Omit --global to set the identity only in this repository.

`)
		if name == "" && email != "" {
			return nil, c.fatal("empty ident name (for <%s>) not allowed", email)
		}
		return nil, c.fatal("unable to auto-detect email address (got 'user@sandbox.(none)')")
	}
	when := time.Now()
	if d := c.env.Env("GIT_" + kind + "_DATE"); d != "" {
		t, err := parseDate(d)
		if err != nil {
			return nil, c.fatal("invalid date format: %s", d)
		}
		when = t
	}
	return &object.Signature{Name: name, Email: email, When: when}, nil
}

var (
	rawDate  = regexp.MustCompile(`^@?(\d+)(?: ([+-]\d{4}))?$`)
	isoDate  = regexp.MustCompile(`^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d))?(?: ?([+-]\d\d:?\d\d|Z))?$`)
	rfc2822  = "Mon, _2 Jan 2006 15:04:05 -0700"
	rfc2822b = "Mon, 2 Jan 2006 15:04:05 -0700"
)

// parseDate parses the date formats git accepts in GIT_*_DATE: raw
// ("1234567890 +0100", "@1234567890"), ISO 8601 and RFC 2822.
func parseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if m := rawDate.FindStringSubmatch(s); m != nil {
		sec, _ := strconv.ParseInt(m[1], 10, 64)
		return time.Unix(sec, 0).In(zone(m[2])), nil
	}
	if m := isoDate.FindStringSubmatch(s); m != nil {
		n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
		loc := time.Local
		if m[7] != "" {
			loc = zone(strings.Replace(m[7], ":", "", 1))
		}
		return time.Date(n(1), time.Month(n(2)), n(3), n(4), n(5), n(6), 0, loc), nil
	}
	for _, layout := range []string{rfc2822, rfc2822b} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("invalid date")
}

// zone is the fixed zone of a "+hhmm" offset ("Z" or "" is UTC).
func zone(s string) *time.Location {
	if len(s) != 5 {
		return time.FixedZone("", 0)
	}
	h, _ := strconv.Atoi(s[1:3])
	m, _ := strconv.Atoi(s[3:5])
	off := h*3600 + m*60
	if s[0] == '-' {
		off = -off
	}
	return time.FixedZone("", off)
}
