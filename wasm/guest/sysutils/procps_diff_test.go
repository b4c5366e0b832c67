package main

import (
	"os/exec"
	"testing"

	"github.com/wasmsand/wasmsand/wasm/guest/internal/difftest"
)

// procpsCases compare ps, kill, pgrep, pkill, pidof, free, uptime and
// time, built natively (reading the machine's /proc), with procps-ng and
// GNU time on the same machine. Processes are made with unique names
// (zz$$, a copy of sleep) so that other programs on the machine never
// match; pids are rewritten to P and S ($$). Values that differ from run
// to run (times, memory) are masked. kill is a builtin and time a keyword
// of bash: env reaches the programs. w waits until a background copy has
// exec'd (its /proc comm names it), so no case races its start.
var procpsCases = []difftest.Case{
	// ps
	{Script: `ps | head -1`},
	{Script: `ps -f | head -1`},
	{Script: `ps aux | head -1`},
	{Script: `ps -e | head -1`},
	{Script: `ps -ef | head -1`},
	{Script: `ps -eo pid,ppid,comm,etime,time,rss,vsz,stat,tty,args | head -1`},
	{Script: `ps -o pid,tty,time,cmd -p 1 | head -1`},
	{Script: `ps -p 1 -o pid,comm`},
	{Script: `ps -p 1 -o pid=,comm=`},
	{Script: `ps -o pid= -p $$ | sed "s/$$/S/"`},
	{Script: `ps -o comm= -p $$`},
	{Script: `ps -o args= -p $$ | sed "s/$$/S/"`},
	{Script: `ps -q $$ -o comm=`},
	{Script: `ps --pid $$ -o pid=,comm= | sed "s/$$/S/"`},
	{Script: `ps -p $$,1 -o pid= | wc -l`},
	{Script: `ps --ppid $$ -o comm=`},
	{Script: `ps -p 999999; echo $?`},
	{Script: `ps -p 999999 -o pid=; echo $?`},
	{Script: `ps -o bogus >/dev/null 2>&1; echo $?`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; ps -o pid=,ppid=,comm= -p $p | sed "s/$p/P/; s/$$/S/; s/$n/N/"; kill $p`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; ps -o args -p $p | sed "s/$n/N/"; kill $p`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; ps -C $n -o pid= | sed "s/$p/P/"; kill $p`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & w $!; ./$n 31 & w $!; ps --ppid $$ -o args= --sort=-pid | sed "s/$n/N/g; s/$$/S/"; kill %1 %2`},
	{Script: `ps --no-headers -p 1 -o comm`},
	{Script: `ps -o pid=X -p 1`},
	{Script: `ps -o pid,ppid -p 1 --no-headers`},
	// kill
	{Script: `env kill -l`},
	{Script: `env kill -L`},
	{Script: `env kill -l 9; env kill -l KILL; env kill -l SIGTERM; env kill -l term`},
	{Script: `env kill -l 64; echo $?`, Stderr: true, StderrLines: 1},
	{Script: `env kill 999999; echo $?`, Stderr: true},
	{Script: `env kill abc; echo $?`, Stderr: true},
	{Script: `env kill; echo $?`, Stderr: true},
	{Script: `env kill -FOO 1; echo $?`, Stderr: true},
	{Script: `env kill -s FOO 1; echo $?`},
	{Script: `env kill -0 $$; echo $?`},
	{Script: `sleep 30 & env kill $!; wait $!; echo $?`},
	{Script: `sleep 30 & env kill -9 $!; wait $!; echo $?`},
	{Script: `sleep 30 & env kill -s HUP $!; wait $!; echo $?`},
	{Script: `sleep 30 & env kill -SIGUSR1 $!; wait $!; echo $?`},
	{Script: `sleep 30 & env kill -KILL -- $!; wait $!; echo $?`},
	{Script: `sleep 30 & env kill --signal 15 $!; wait $!; echo $?`},
	{Script: `sleep 30 & p=$!; env kill -0 $p; echo $?; kill $p`},
	{Script: `sleep 30 & p=$!; env kill -CHLD $p; echo $?; kill $p; wait $p; echo $?`},
	{Script: `env kill -h | head -3`},
	// pgrep, pkill, pidof
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pgrep $n | sed "s/$p/P/"; kill $p`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pgrep -l $n | sed "s/$p/P/; s/$n/N/"; kill $p`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pgrep -a $n | sed "s/$p/P/; s/$n/N/"; kill $p`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & w $!; ./$n 31 & w $!; pgrep -c $n; kill %1 %2`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pgrep -x $n | sed "s/$p/P/"; pgrep -x zz; echo $?; kill $p`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pgrep -f "$n 30" | sed "s/$p/P/"; kill $p`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & w $!; ./$n 31 & w $!; q=$!; w $q; pgrep -n $n | sed "s/$q/Q/"; kill %1 %2`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; ./$n 31 & w $!; pgrep -o $n | sed "s/$p/P/"; kill %1 %2`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & w $!; ./$n 31 & w $!; pgrep -d, $n | tr -cd ,; echo; kill %1 %2`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pgrep -P $$ $n | sed "s/$p/P/"; kill $p`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pgrep -i $(echo $n | tr z Z) | sed "s/$p/P/"; kill $p`},
	{Script: `pgrep zzzz$$; echo $?`},
	{Script: `pgrep; echo $?`, Stderr: true},
	{Script: `pgrep -n -o x; echo $?`, Stderr: true, StderrLines: 3},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pkill $n; wait $p; echo $?`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pkill -9 $n; wait $p; echo $?`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pkill -HUP $n; wait $p; echo $?`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pkill --signal USR1 $n; wait $p; echo $?`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pkill -e $n | sed "s/$p/P/; s/$n/N/"; wait $p; echo $?`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & w $!; ./$n 31 & w $!; pkill -c $n; wait`},
	{Script: `pkill zzzz$$; echo $?`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pidof $n | sed "s/$p/P/"; kill $p`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; ./$n 31 & q=$!; w $q; pidof $n | sed "s/$p/P/; s/$q/Q/"; kill %1 %2`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; ./$n 31 & q=$!; w $q; pidof -s $n | sed "s/$p/P/; s/$q/Q/"; kill %1 %2`},
	{Script: `n=zz$$; w(){ until grep -qs "$n" /proc/$1/comm; do :; done; }; cp /bin/sleep $n; ./$n 30 & p=$!; w $p; pidof -o $p $n; echo $?; kill $p`},
	{Script: `pidof zzzz$$; echo $?`},
	{Script: `pidof; echo $?`},
	// free
	{Script: `free | head -1`},
	{Script: `free -w | head -1`},
	{Script: `free | sed -E 's/[0-9]+/N/g' | tr -s ' '`},
	{Script: `free -m | awk '{print $1, NF}'`},
	{Script: `free -t | awk '{print $1}'`},
	{Script: `free -h | awk 'NR>1{print $1}'`},
	{Script: `free -h | sed -n 3p`},
	{Script: `free -b -l | awk '{print $1}'`},
	{Script: `free -s 0.01 -c 2 | awk '{print $1}'`},
	{Script: `free --bogus; echo $?`, Stderr: true, StderrLines: 1},
	{Script: `free -c x; echo $?`, Stderr: true, StderrLines: 1},
	// uptime
	// (the uptime's units are normalised too: between the two runs a
	// minute may tick, turning "up 59 min" into "up 1:00")
	{Script: `uptime | sed -E 's/[0-9]+/N/g; s/ +/ /g; s/N users?/N U/; s/up (N days?, )?(N:N|N min),/up T,/'`},
	{Script: `uptime -p | sed -E 's/([0-9]+ (week|day|hour|minute)s?(, )?)+/N/'`},
	{Script: `uptime -s | sed -E 's/[0-9]/N/g'`},
	{Script: `uptime x; echo $?`, Stderr: true, StderrLines: 1},
	{Script: `uptime --bogus; echo $?`, Stderr: true, StderrLines: 1},
	{Script: `uptime -h | head -3`},
	// time
	{Script: `env time -p true 2>&1 | sed -E 's/[0-9]+\.[0-9]+/N/'`},
	{Script: `env time -f '%C %x' sh -c 'exit 3'; echo $?`, Stderr: true},
	{Script: `env time -f %x true`, Stderr: true},
	{Script: `env time -f '%%|%Z|%F|%W|%I|%O' true`, Stderr: true},
	{Script: `env time -f '\t%x\\' true 2>&1 | od -c`},
	{Script: `env time sh -c 'exit 3' 2>&1 | head -1`},
	{Script: `env time -p sh -c 'exit 3' 2>&1 | sed -E 's/[0-9]+\.[0-9]+/N/'`},
	{Script: `env time -q sh -c 'exit 3' 2>&1 | wc -l`},
	{Script: `env time sh -c 'kill -9 $$' 2>err; echo $?; head -1 err`},
	{Script: `env time nosuch 2>err; echo $?; head -2 err`},
	{Script: `env time -o out -f '%C' echo hi; cat out`},
	{Script: `env time -o out -f 1 true; env time -a -o out -f 2 true; cat out`},
	{Script: `env time; echo $?`, Stderr: true},
	{Script: `env time -f '%e' sleep 0.2 2>&1 | sed -E 's/0\.2[0-9]/OK/'`},
	{Script: `env time true 2>&1 | sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/\?/N/'`},
	{Script: `env time -v true 2>&1 | sed -E 's/: .*/:/'`},
	{Script: `TIME='%C' env time echo x`, Stderr: true},
	{Script: `env time -f '%U %S' true 2>&1 | sed -E 's/[0-9]\.[0-9]{2}/N/g'`},
	{Script: `env time -x true; echo $?`, Stderr: true, StderrLines: 1},
	{Script: `env time echo hi 2>/dev/null`},
}

func TestDifferentialProcps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs procps-ng and GNU time")
	}
	for _, p := range []string{"/usr/bin/ps", "/usr/bin/pgrep", "/usr/bin/pkill", "/usr/bin/free", "/usr/bin/uptime", "/usr/bin/time", "/bin/kill"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not installed (Debian packages procps and time)", p)
		}
	}
	h := &difftest.Harness{
		Module:    "sysutils",
		Commands:  Names(),
		Reference: "procps",
		Setup:     setupFixture,
		SetPWD:    true,
	}
	h.Run(t, procpsCases)
}
