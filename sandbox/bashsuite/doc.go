// Package bashsuite runs GNU bash's own test suite against the sandbox's
// shell. It is a test-only package: the work is in bashsuite_test.go.
//
// Bash 5.2's source holds tests/*.tests with the expected output of each
// in a .right file, and a run-* script per test that says how to run it
// (for example `${THIS_SH} ./arith.tests > ${BASH_TSTOUT} 2>&1` followed by
// `diff ${BASH_TSTOUT} arith.right`, sometimes with a `grep -v '^expect'`
// or `cat -v` filter in between). The test reads those run-* scripts, and
// for each test copies the tests directory into a fresh sandbox as
// /home/user/tests, runs the test there the way its run-* script does
// (THIS_SH=/bin/bash: a path, since some tests copy or link $THIS_SH;
// PATH starting with the tests directory; the same redirections and
// filters), and compares the output with the .right file. bash's support programs recho, zecho, printenv and xcase are built
// for wasip1 from internal/helpers and copied beside the tests.
//
// The suite is data fetched at install time, never committed:
// .ci/bash-tests.sh unpacks the tests/ directory of Debian's bash source
// package into ${XDG_CACHE_HOME:-$HOME/.cache}/wasmsand/bash-5.2-tests.
// Without it the test skips, unless CI=true, where it fails.
//
// Mismatches never fail the test: it logs, per file, how many lines
// differ, and a summary line "bashsuite: N of M test files match".
//
//	go test ./sandbox/bashsuite -v                              every file
//	go test ./sandbox/bashsuite -v -args -bashsuite.only=arith  one file (or a,b,c)
//	go test ./sandbox/bashsuite -v -args -bashsuite.host        the same run with the host's bash (calibration)
//	go test ./sandbox/bashsuite -args -bashsuite.report=/tmp/r.txt -bashsuite.out=/tmp/out
//	                                                            a report file, and each file's output
package bashsuite
