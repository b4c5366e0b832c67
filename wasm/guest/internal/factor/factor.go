// Package factor implements factor: print the prime factors of integers,
// of any size.
package factor

import (
	"bufio"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

var spec = &tool.Spec{
	Help: `Usage: factor [NUMBER]...
  or:  factor OPTION
Print the prime factors of each specified integer NUMBER.  If none
are specified on the command line, read them from standard input.

      --help        display this help and exit
      --version     output version information and exit
`,
}

// Main is the factor command.
func Main(env *tool.Env) int {
	_, nums, code, done := spec.Parse(env)
	if done {
		return code
	}
	status := 0
	out := env.Out()
	do := func(s string) {
		n, ok := parse(s)
		if !ok {
			env.Errorf("%s is not a valid positive integer", tool.Quote(s))
			status = 1
			return
		}
		var b strings.Builder
		b.WriteString(n.String() + ":")
		for _, p := range factorize(n) {
			b.WriteString(" " + p.String())
		}
		fmt.Fprintln(out, b.String())
	}
	if len(nums) > 0 {
		for _, s := range nums {
			do(s)
		}
		return status
	}
	sc := bufio.NewScanner(env.Stdin)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		for _, f := range strings.Fields(sc.Text()) {
			do(f)
		}
	}
	return status
}

// parse reads a non-negative decimal integer, a leading '+' allowed.
func parse(s string) (*big.Int, bool) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(t, "+")
	if t == "" {
		return nil, false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return nil, false
		}
	}
	n, ok := new(big.Int).SetString(t, 10)
	return n, ok
}

var (
	one = big.NewInt(1)
	two = big.NewInt(2)
)

// factorize returns n's prime factors in increasing order (none for 0
// and 1).
func factorize(n *big.Int) []*big.Int {
	var fs []*big.Int
	if n.Cmp(two) < 0 {
		return nil
	}
	n = new(big.Int).Set(n)
	// Small primes by trial division.
	for _, p := range []int64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47} {
		bp := big.NewInt(p)
		m := new(big.Int)
		for {
			q, r := new(big.Int).QuoRem(n, bp, m)
			if r.Sign() != 0 {
				break
			}
			fs = append(fs, bp)
			n = q
		}
	}
	var split func(n *big.Int)
	split = func(n *big.Int) {
		if n.Cmp(one) == 0 {
			return
		}
		if n.ProbablyPrime(32) {
			fs = append(fs, n)
			return
		}
		d := rho(n)
		split(d)
		split(new(big.Int).Quo(n, d))
	}
	split(n)
	sort.Slice(fs, func(i, j int) bool { return fs[i].Cmp(fs[j]) < 0 })
	return fs
}

// rho finds a non-trivial divisor of the composite n (Pollard's rho with
// Brent's cycle detection).
func rho(n *big.Int) *big.Int {
	for c := int64(1); ; c++ {
		bc := big.NewInt(c)
		f := func(x *big.Int) *big.Int {
			y := new(big.Int).Mul(x, x)
			y.Add(y, bc)
			return y.Mod(y, n)
		}
		x, y := big.NewInt(2), big.NewInt(2)
		d := big.NewInt(1)
		diff := new(big.Int)
		for d.Cmp(one) == 0 {
			x = f(x)
			y = f(f(y))
			diff.Sub(x, y)
			diff.Abs(diff)
			d.GCD(nil, nil, diff, n)
		}
		if d.Cmp(n) != 0 {
			return d
		}
	}
}
