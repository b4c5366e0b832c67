package sort

// versionCompare orders strings as GNU's filevercmp does: file-name
// suffixes aside, runs of digits compare numerically and other characters
// in Debian version order (~ before everything, letters before others).
func versionCompare(a, b []byte) int {
	if c := compareSpecial(a, b); c != 2 {
		return c
	}
	ap, bp := len(a)-suffixLen(a), len(b)-suffixLen(b)
	if ap == bp && string(a[:ap]) == string(b[:bp]) {
		ap, bp = len(a), len(b)
	}
	if c := verrevcmp(a[:ap], b[:bp]); c != 0 {
		return c
	}
	if c := verrevcmp(a, b); c != 0 {
		return c
	}
	return compareBytes(a, b)
}

func compareBytes(a, b []byte) int {
	switch s, t := string(a), string(b); {
	case s < t:
		return -1
	case s > t:
		return 1
	}
	return 0
}

// compareSpecial puts "", ".", ".." and hidden files first; 2 means
// no decision.
func compareSpecial(a, b []byte) int {
	rank := func(s []byte) int {
		switch string(s) {
		case "":
			return 0
		case ".":
			return 1
		case "..":
			return 2
		}
		if s[0] == '.' {
			return 3
		}
		return 4
	}
	ra, rb := rank(a), rank(b)
	if ra != rb {
		return sgn(ra - rb)
	}
	if ra < 3 {
		return 0
	}
	if ra == 3 {
		if c := versionCompare(a[1:], b[1:]); c != 0 {
			return c
		}
		return compareBytes(a, b)
	}
	return 2
}

func sgn(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// suffixLen is the length of a trailing (\.[A-Za-z~][A-Za-z0-9~]*)* run.
func suffixLen(s []byte) int {
	n := 0
	for i := len(s) - 1; i > 0; {
		j := i
		for j >= 0 && (isAlpha(s[j]) || isDigit(s[j]) || s[j] == '~') {
			j--
		}
		if j < 0 || j == i || s[j] != '.' || !(isAlpha(s[j+1]) || s[j+1] == '~') || j == 0 {
			break
		}
		n = len(s) - j
		i = j - 1
	}
	return n
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func order(s []byte, i int) int {
	if i >= len(s) {
		return 0
	}
	c := s[i]
	switch {
	case isDigit(c):
		return 0
	case isAlpha(c):
		return int(c)
	case c == '~':
		return -1
	}
	return int(c) + 256
}

func verrevcmp(a, b []byte) int {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		first := 0
		for i < len(a) && !isDigit(a[i]) || j < len(b) && !isDigit(b[j]) {
			ac, bc := order(a, i), order(b, j)
			if ac != bc {
				return sgn(ac - bc)
			}
			i++
			j++
		}
		for i < len(a) && a[i] == '0' {
			i++
		}
		for j < len(b) && b[j] == '0' {
			j++
		}
		for i < len(a) && isDigit(a[i]) && j < len(b) && isDigit(b[j]) {
			if first == 0 {
				first = int(a[i]) - int(b[j])
			}
			i++
			j++
		}
		if i < len(a) && isDigit(a[i]) {
			return 1
		}
		if j < len(b) && isDigit(b[j]) {
			return -1
		}
		if first != 0 {
			return sgn(first)
		}
	}
	return 0
}
