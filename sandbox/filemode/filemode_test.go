package filemode

import (
	"errors"
	"testing"
)

func TestApply(t *testing.T) {
	for _, c := range []struct {
		spec string
		mode uint32
		opt  Options
		want uint32
		err  string
	}{
		{"u+x", 0o644, Options{}, 0o744, ""},
		{"go-w", 0o666, Options{}, 0o644, ""},
		{"a=rX", 0o700, Options{}, 0o555, ""},
		{"a=rX", 0o600, Options{}, 0o444, ""},
		{"a=rX", 0o600, Options{IsDir: true}, 0o555, ""},
		{"+w", 0o444, Options{Umask: 0o022}, 0o644, ""},
		{"=r", 0o777, Options{Umask: 0o022}, 0o444, ""},
		{"u+s,o+t", 0o755, Options{}, 0o5755, ""},
		{"g=u", 0o750, Options{}, 0o770, ""},
		{"u+r-w", 0o600, Options{}, 0o400, ""},
		{"u=rwx,g=rx,o=", 0o000, Options{}, 0o750, ""},
		{"u", 0o644, Options{}, 0, "` ': invalid symbolic mode operator"},
		{"u*r", 0o644, Options{}, 0, "`*': invalid symbolic mode operator"},
		{",u+r", 0o644, Options{}, 0, "`,': invalid symbolic mode operator"},
		{"u+q", 0o644, Options{}, 0, "`q': invalid symbolic mode operator"},
		// bash's umask: rwx only, one operator per clause
		{"ug=rx,o-r", 0o700, Options{Strict: true}, 0o550, ""},
		{"+w", 0o700, Options{Strict: true}, 0o722, ""},
		{"u+X", 0o700, Options{Strict: true}, 0, "`X': invalid symbolic mode character"},
		{"u+r-w", 0o700, Options{Strict: true}, 0, "`-': invalid symbolic mode character"},
		{"a+rw,", 0o700, Options{Strict: true}, 0, "` ': invalid symbolic mode operator"},
	} {
		got, err := Apply(c.spec, c.mode, c.opt)
		var e *Error
		if c.err != "" {
			if !errors.As(err, &e) {
				t.Errorf("%q: got %o, %v; want error %s", c.spec, got, err, c.err)
				continue
			}
			if e.Char == 0 {
				e.Char = ' '
			}
			if e.Error() != c.err {
				t.Errorf("%q: error %s, want %s", c.spec, e.Error(), c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q on %o: got %o, %v; want %o", c.spec, c.mode, got, err, c.want)
		}
	}
}
