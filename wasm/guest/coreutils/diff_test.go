package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixture is the tree every differential case starts from.
var fixture = map[string]string{
	"f3":            "a\nb\nc\n",
	"nums":          "10\n9\n2\n-1\n3.5\n010\n1e2\n\nabc\n-0\n",
	"words":         "the quick brown fox\njumps over\n\nthe lazy dog\n\tindented line\ntrailing space \nThe End\n",
	"table":         "b 2 x\na 10 y\nc 1 z\na 2 w\nb 10 v\n",
	"csv":           "name,age,city\nbob,25,paris\nalice,30,berlin\ncarol,25,rome\ndave,4,oslo\n",
	"human":         "1K\n2M\n512\n1G\n3K\n1.5M\n",
	"versions":      "v1.10\nv1.2\nv1.9\nv2.0\nv1.2.1\nfile10.txt\nfile9.txt\n",
	"dups":          "a\na\nb\nA\nb\nc\na\n",
	"blanks":        "x\n\n\n\ny\n\n",
	"ctrl":          "tab\there\x01\x7f\xc3\xa9\n",
	"nonl":          "no newline",
	"code.go":       "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
	"dir/a.txt":     "alpha\nbeta\n",
	"dir/b.log":     "beta\ngamma\n",
	"dir/sub/c.txt": "gamma alpha\n",
	"empty":         "",
	"repeat":        "abcabc\nabab\nxyzxyz\naa\nabcab\n",
	"bin.dat":       "text\x00more\nalpha\n",
}

func setupFixture(t *testing.T, dir string) {
	t.Helper()
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	for name, data := range fixture {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old.Add(time.Duration(len(data))*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
}

// diffCases are shell snippets run once with our commands first on PATH
// and once with the system's GNU tools; stdout and exit status must agree
// (and stderr too where stderr is set).
var diffCases = []struct {
	script string
	stderr bool
}{
	// cat
	{script: "cat f3 f3"},
	{script: "cat -n words"},
	{script: "cat -b words"},
	{script: "cat -s blanks"},
	{script: "cat -E f3"},
	{script: "cat -T code.go"},
	{script: "cat -A ctrl"},
	{script: "cat -v ctrl"},
	{script: "cat -ns blanks nonl f3"},
	{script: "printf 'in\\n' | cat f3 - nonl"},
	{script: "cat nope f3", stderr: true},
	{script: "cat dir", stderr: true},
	{script: "cat -z", stderr: true},
	{script: "cat --nope", stderr: true},
	// echo (through env: echo is also a shell builtin)
	{script: "env echo hello world"},
	{script: "env echo -n no newline"},
	{script: "env echo -e 'a\\tb\\nc\\x41\\0101\\\\'"},
	{script: "env echo -e 'stop\\chere'"},
	{script: "env echo -E 'a\\tb'"},
	{script: "env echo -ne 'x' -n"},
	{script: "env echo -- -n"},
	// ls
	{script: "ls"},
	{script: "ls -a dir"},
	{script: "ls -A dir"},
	{script: "ls -R dir"},
	{script: "ls -d dir f3"},
	{script: "ls -F dir"},
	{script: "ls -r"},
	{script: "ls -S"},
	{script: "ls -t"},
	{script: "ls -1 dir/sub f3 dir"},
	{script: "ls nope f3", stderr: true},
	{script: "ls -z", stderr: true},
	{script: "ls -l f3 nums | awk '{$3=$4=\"\"; print}'"},
	{script: "ls -l dir | awk '{$3=$4=\"\"; print}'"},
	{script: "ls -lh dir | awk '{$3=$4=\"\"; print}'"},
	{script: "mkdir big && head -c 5000 /dev/zero > big/x && ls -lhS big | awk '{$3=$4=\"\"; print}'"},
	{script: "ln -s f3 link && ls -l link | awk '{$3=$4=\"\"; print}' && ls -F link"},
	// wc
	{script: "wc words"},
	{script: "wc -l words"},
	{script: "wc -w words f3"},
	{script: "wc -c nonl"},
	{script: "wc -L words"},
	{script: "wc -lwc words f3 empty"},
	{script: "cat words | wc"},
	{script: "cat words | wc -l"},
	{script: "wc -m ctrl"},
	{script: "wc nope f3", stderr: true},
	// head
	{script: "head -n 2 words"},
	{script: "head -3 words"},
	{script: "head -c 10 words"},
	{script: "head -n -2 words"},
	{script: "head -c -5 words"},
	{script: "head f3 nums"},
	{script: "head -q -n1 f3 nums"},
	{script: "head -v -n1 f3"},
	{script: "seq 100 | head -n 3"},
	{script: "head -n x f3", stderr: true},
	{script: "head nope f3", stderr: true},
	// grep
	{script: "grep the words"},
	{script: "grep -i the words"},
	{script: "grep -v the words"},
	{script: "grep -c the words"},
	{script: "grep -n o words"},
	{script: "grep -w the words"},
	{script: "grep -x 'jumps over' words"},
	{script: "grep -o 'o[a-z]' words"},
	{script: "grep -E 'qu|la' words"},
	{script: "grep 'q.*k' words"},
	{script: "grep -F 'a.' csv; echo; grep 'a.' csv"},
	{script: "grep -e fox -e dog words"},
	{script: "grep -l alpha dir/a.txt dir/b.log"},
	{script: "grep -L alpha dir/a.txt dir/b.log"},
	{script: "grep -r alpha dir | sort"},
	{script: "cd dir && grep -r gamma"},
	{script: "grep -rh beta dir"},
	{script: "grep -H beta dir/a.txt"},
	{script: "grep -q fox words"},
	{script: "grep -q nothing words"},
	{script: "grep nothing words"},
	{script: "grep -s x nope"},
	{script: "grep x nope", stderr: true},
	{script: "grep -A1 jumps words"},
	{script: "grep -B2 lazy words"},
	{script: "grep -C1 -n lazy words"},
	{script: "grep -m1 the words"},
	{script: "grep -c -m1 the words"},
	{script: "grep '\\(abc\\)\\1' repeat"},
	{script: "grep -E '(ab)\\1' repeat"},
	{script: "grep -o '\\(ab\\)\\1' repeat"},
	{script: "grep -E '^(a|b)+$' repeat"},
	{script: "grep '^[[:upper:]]' words"},
	{script: "grep '[[:space:]]$' words"},
	{script: "grep 'a\\{2\\}' repeat"},
	{script: "grep -E 'x{2,}|c{1}a' repeat"},
	{script: "grep '\\<over\\>' words"},
	{script: "grep -w 'ab.*' repeat"},
	{script: "grep -ow 'the' words"},
	{script: "grep -b -o ab repeat"},
	{script: "grep '' empty; echo $?"},
	{script: "grep -e '' f3"},
	{script: "grep alpha bin.dat"},
	{script: "grep -a text bin.dat"},
	{script: "grep -c text bin.dat"},
	{script: "grep 'a\\|z' f3 repeat"},
	{script: "grep '[' f3", stderr: true},
	{script: "grep '\\(' f3", stderr: true},
	{script: "grep -E 'a{1' f3; echo $?"},
	{script: "grep", stderr: true},
	{script: "grep -y the words"},
	{script: "printf 'foo\\nbar\\n' | grep -f - words"},
	{script: "grep -n '' nonl"},
	{script: "grep --include='*.txt' -r a dir | sort"},
	{script: "grep --exclude-dir=sub -r a dir | sort"},
	// sort
	{script: "sort words"},
	{script: "sort -r words"},
	{script: "sort -n nums"},
	{script: "sort -g nums"},
	{script: "sort -k2 table"},
	{script: "sort -k2n table"},
	{script: "sort -k2,2n -k1,1 table"},
	{script: "sort -k1,1 -s table"},
	{script: "sort -t, -k2n csv"},
	{script: "sort -t, -k2,2n -k3r csv"},
	{script: "sort -u dups"},
	{script: "sort -f dups"},
	{script: "sort -fu dups"},
	{script: "sort -h human"},
	{script: "sort -V versions"},
	{script: "sort -b -k2 words"},
	{script: "sort -c f3; echo $?"},
	{script: "sort -c words; echo $?", stderr: true},
	{script: "sort -o out f3 nums && cat out"},
	{script: "sort -rn nums"},
	{script: "sort -k1.2,1.3 table"},
	{script: "sort -d words"},
	{script: "printf 'b\\0a\\0' | sort -z | tr '\\0' '\\n'"},
	{script: "sort nope", stderr: true},
	{script: "sort -k0 f3", stderr: true},
	// mkdir, rm, cp, mv, touch
	{script: "mkdir -v x y && ls -d x y"},
	{script: "mkdir -pv p/q/r && ls -R p"},
	{script: "mkdir f3", stderr: true},
	{script: "mkdir a/b", stderr: true},
	{script: "mkdir -p dir/sub && echo ok"},
	{script: "mkdir", stderr: true},
	{script: "rm -v f3 nums && ls"},
	{script: "rm nope", stderr: true},
	{script: "rm -f nope; echo $?"},
	{script: "rm dir", stderr: true},
	{script: "rm -rv dir/sub && ls dir"},
	{script: "mkdir e && rm -dv e"},
	{script: "rm -d dir", stderr: true},
	{script: "rm -r .", stderr: true},
	{script: "rm", stderr: true},
	{script: "cp -v f3 g && cat g"},
	{script: "cp f3 nums dir && ls dir"},
	{script: "cp dir d2", stderr: true},
	{script: "cp -rv dir d2 | sort && ls -R d2"},
	{script: "cp -r dir dir/sub", stderr: true},
	{script: "cp f3 f3", stderr: true},
	{script: "cp -n f3 nums && cat nums"},
	{script: "cp f3 nums words", stderr: true},
	{script: "cp -p f3 g && ls -l --time-style=+%s f3 g | awk '{print $1, $6}'"},
	{script: "cp -a dir d3 && ls -lR --time-style=+%s d3 | awk '{print $1, $5, $6, $7}'"},
	{script: "cp nope x", stderr: true},
	{script: "cp", stderr: true},
	{script: "mv -v f3 g && ls"},
	{script: "mv f3 nums dir && ls dir"},
	{script: "mv dir dir/sub", stderr: true},
	{script: "mv nope x", stderr: true},
	{script: "mv -n f3 nums && cat nums f3"},
	{script: "touch new && ls new"},
	{script: "touch -c none; ls none; echo $?"},
	{script: "touch -d '2021-03-04 05:06:07' f3 && ls -l --time-style=+%FT%T f3 | awk '{print $6}'"},
	{script: "touch -t 202001020304.05 f3 && ls -l --time-style=+%FT%T f3 | awk '{print $6}'"},
	{script: "touch -r nums f3 && ls -l --time-style=+%s nums f3 | awk '{print $6}'"},
	{script: "touch -d @86400 f3 && ls -l --time-style=+%s f3 | awk '{print $6}'"},
	{script: "touch -d nonsense f3", stderr: true},
	{script: "touch nodir/x", stderr: true},
	// seq, yes, sleep, true, false
	{script: "seq 5"},
	{script: "seq 2 5"},
	{script: "seq 10 -3 1"},
	{script: "seq 1 0.5 3"},
	{script: "seq 0.1 0.1 0.5"},
	{script: "seq -w 8 10"},
	{script: "seq -w -1 1"},
	{script: "seq -s, 5"},
	{script: "seq -f '%03g' 3"},
	{script: "seq -f 'n=%.2f' 1 0.25 2"},
	{script: "seq 5 1; echo $?"},
	{script: "seq 1 0 3", stderr: true},
	{script: "seq x", stderr: true},
	{script: "seq 1e2 1e2 3e2"},
	{script: "yes | head -3"},
	{script: "yes a b | head -2"},
	{script: "sleep 0.01 && echo slept"},
	{script: "sleep 0.01s 0.01; echo $?"},
	{script: "sleep x", stderr: true},
	{script: "env true; echo $?"},
	{script: "env false; echo $?"},
	{script: "env true --nope; echo $?"},
	// pipelines
	{script: "cat words | grep -v '^$' | sort | head -3 | wc -l"},
	{script: "seq 20 | grep 1 | sort -rn | head -n 2"},
}

func buildNative(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "coreutils")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for name := range Commands {
		if err := os.Symlink(bin, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type result struct {
	stdout, stderr string
	code           int
}

func runScript(t *testing.T, script, path string) result {
	dir := t.TempDir()
	setupFixture(t, dir)
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + path, "LC_ALL=C", "TZ=UTC", "HOME=" + dir}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return result{out.String(), errOut.String(), code}
}

func TestDifferentialGNU(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the native binary and runs the system's GNU tools")
	}
	for _, tool := range []string{"bash", "grep", "sort", "ls", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	if out, _ := exec.Command("ls", "--version").Output(); !bytes.Contains(out, []byte("GNU")) {
		t.Skip("system ls is not GNU coreutils")
	}
	ours := buildNative(t)
	sysPath := os.Getenv("PATH")
	for _, c := range diffCases {
		t.Run(strings.ReplaceAll(c.script, "/", "∕"), func(t *testing.T) {
			want := runScript(t, c.script, sysPath)
			got := runScript(t, c.script, ours+":"+sysPath)
			if got.stdout != want.stdout {
				t.Errorf("stdout differs\n got: %q\nwant: %q", got.stdout, want.stdout)
			}
			if got.code != want.code {
				t.Errorf("exit status %d, GNU %d (stderr %q, GNU %q)", got.code, want.code, got.stderr, want.stderr)
			}
			if c.stderr && got.stderr != want.stderr {
				t.Errorf("stderr differs\n got: %q\nwant: %q", got.stderr, want.stderr)
			}
		})
	}
}
