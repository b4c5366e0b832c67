package cguest_test

import (
	"testing"

	"github.com/wasmsand/wasmsand/sandbox"
)

// TestSQLiteCLI compares sqlite3 command lines (flags, databases on disk,
// exit codes) with the machine's sqlite3. Each line runs in a fresh
// directory under bash on the host and under the sandbox's shell.
func TestSQLiteCLI(t *testing.T) {
	sb := newSandbox(t, sandbox.Options{})
	needOracle(t, "/usr/bin/sqlite3")
	needOracle(t, "/bin/bash")
	lines := []string{
		`sqlite3 :memory: 'select 1, 2'`,
		`sqlite3 -header -csv :memory: "select 1 as a, 'x,y' as b"`,
		`sqlite3 -json :memory: "select 1 as a, 'q' as b"`,
		`sqlite3 -line :memory: 'select 1 as a, 2 as b'`,
		`sqlite3 -box :memory: "select 'é' as name, 12 as n"`,
		`sqlite3 -cmd '.mode csv' :memory: 'select 1, 2'`,
		`sqlite3 -separator ';' -list :memory: 'select 1, 2'`,
		`sqlite3 -bail :memory: 'select 1; select * from nope; select 2'; echo "exit $?"`,
		`sqlite3 :memory: 'select * from nope'; echo "exit $?"`,
		`sqlite3 t.db 'create table t(x); insert into t values (1), (2)' && sqlite3 t.db 'select sum(x) from t' && sqlite3 t.db .tables .schema`,
		`printf 'a,b\n1,2\n3,4\n' > in.csv && sqlite3 d.db '.import --csv in.csv t' 'select b, a from t order by a desc'`,
		`echo 'select 6 * 7;' | sqlite3`,
		`sqlite3 -batch -noheader :memory: '.mode column' 'select 1 as x'`,
		`sqlite3 :memory: '.system echo from-system'`,
		`sqlite3 :memory: '.shell echo from-shell; exit 3'; echo "exit $?"`,
		`sqlite3 -readonly nothere.db 'select 1'; echo "exit $?"`,
		`sqlite3 :memory: .nosuch; echo "exit $?"`,
		`sqlite3 -version | cut -c1-6`,
		`sqlite3 t.db 'create table t(a, b); insert into t values (1, "x")' && sqlite3 t.db '.mode json' 'select * from t' && sqlite3 t.db '.mode box' 'select * from t' && sqlite3 t.db '.mode csv' '.headers on' 'select * from t'`,
		`sqlite3 t.db 'create table t(a); insert into t values (1)' && sqlite3 -csv -header t.db 'select a, a*2 as b from t' && sqlite3 t.db '.schema t' && sqlite3 t.db '.tables nope'`,
		`printf 'x,y
1,"a,b"
' > q.csv && sqlite3 d.db '.mode csv' '.import q.csv q' '.mode json' 'select * from q' '.schema q'`,
		`sqlite3 :memory: '.import missing.csv t'; echo "exit $?"`,
		`sqlite3 :memory: 'selec 1'; echo "exit $?"`,
		`echo 'select 1; select * from nope; select 2;' | sqlite3; echo "exit $?"`,
		`sqlite3 no/such/dir.db 'select 1'; echo "exit $?"`,
		`sqlite3 -nosuchflag; echo "exit $?"`,
		`sqlite3 -cmd 'create table c(v)' -cmd 'insert into c values (9)' :memory: 'select v from c'`,
	}
	for i, line := range lines {
		t.Run(line, func(t *testing.T) {
			want := oracle(t, "", nil, "/bin/bash", "-c", line)
			got := inSandbox(t, sb, 2000+i, "", line, nil, nil)
			if got != want {
				t.Errorf("%s\n=== host:\n%v\n=== sandbox:\n%v", line, want, got)
			}
		})
	}
}
