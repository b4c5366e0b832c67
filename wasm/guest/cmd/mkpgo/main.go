// Command mkpgo writes the profiles that guide the compiler's optimisation
// of the guest modules (profile-guided optimisation, PGO): one
// default.pgo in the directory of each module it profiles, which
// `go build` (and so Build in package guest) reads by default.
//
//	go run ./wasm/guest/cmd/mkpgo            (or make pgo)
//
// It builds each profiled module for this machine, with a file added to
// its main package (through an overlay, so the module needs nothing of its
// own) that records a CPU profile of every command it runs. It then runs
// the module's workloads (see workloads.go) with bash, over issue 14's
// records, their JSON form and a tree of 10,000 small files, several
// times, and merges each module's profiles into its default.pgo with
// `go tool pprof -proto`.
//
// The profiles come from native code, not WebAssembly: what PGO uses from
// them — which calls are hot, which concrete types an interface call
// reaches — is the same on every architecture, and the compiler's
// front end acts on it before any back end runs.
//
// No profile is committed: measured, none paid (RATIONALE.md, "Why the Go
// tools are built without profile-guided optimisation"). A default.pgo it
// writes is picked up by the next `make tools`.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/wasm/guest"
	"github.com/wasmsand/wasmsand/wasm/guest/guesttest"
)

func main() {
	only := flag.String("m", "", "profile only these modules (comma-separated); default: every module in workloads")
	runs := flag.Int("runs", 3, "times each workload runs")
	flag.Parse()
	mods := slices.Sorted(maps.Keys(workloads))
	if *only != "" {
		mods = strings.Split(*only, ",")
	}
	if err := run(context.Background(), mods, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "mkpgo:", err)
		os.Exit(1)
	}
}

// run profiles mods and writes their default.pgo files.
func run(ctx context.Context, mods []string, runs int) error {
	src, err := guest.Sources()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "wasmsand-mkpgo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, data, profs := filepath.Join(tmp, "bin"), filepath.Join(tmp, "data"), filepath.Join(tmp, "prof")
	for _, d := range []string{bin, data, profs} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	if err := writeData(data); err != nil {
		return err
	}
	// Every module's commands answer on PATH, so a pipeline's other stages
	// are the sandbox's tools too.
	all, err := guest.Modules()
	if err != nil {
		return err
	}
	for _, m := range all {
		if !slices.Contains(mods, strings.TrimSuffix(m.File, ".wasm")) && m.File != "coreutils.wasm" {
			continue
		}
		if err := buildProfiling(ctx, src, tmp, bin, m); err != nil {
			return err
		}
	}
	for _, mod := range mods {
		cmds, ok := workloads[mod]
		if !ok {
			return fmt.Errorf("no workloads for module %q", mod)
		}
		start := time.Now()
		for range runs {
			for _, c := range cmds {
				if err := runWorkload(ctx, bin, data, profs, mod, c); err != nil {
					return err
				}
			}
		}
		out := filepath.Join(src, mod, "default.pgo")
		if err := merge(ctx, profs, mod, out); err != nil {
			return err
		}
		info, err := os.Stat(out)
		if err != nil {
			return err
		}
		fmt.Printf("%s: %d workloads × %d in %v → %s (%d bytes)\n", mod, len(cmds), runs, time.Since(start).Round(time.Millisecond), out, info.Size())
	}
	return nil
}

// profileSource is the file added to a module's main package: when
// $WASMSAND_PGO_DIR is set, each command records a CPU profile of its run
// into that directory, named after the module and the process.
const profileSource = `package main

import (
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"

	wasmsandtool "github.com/wasmsand/wasmsand/wasm/guest/internal/tool"
)

func init() {
	dir := os.Getenv("WASMSAND_PGO_DIR")
	if dir == "" {
		return
	}
	for name, m := range Commands {
		Commands[name] = func(env *wasmsandtool.Env) int {
			f, err := os.Create(filepath.Join(dir, self+"-"+strconv.Itoa(os.Getpid())+".pprof"))
			if err != nil {
				return m(env)
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				return m(env)
			}
			defer pprof.StopCPUProfile()
			return m(env)
		}
	}
}
`

// buildProfiling builds m for this machine with profileSource added, and
// links each of its commands' names in bin to it.
func buildProfiling(ctx context.Context, src, tmp, bin string, m guest.Module) error {
	name := strings.TrimSuffix(m.File, ".wasm")
	pkgDir := filepath.Join(src, name)
	file := filepath.Join(tmp, name+"_pgo.go")
	if err := os.WriteFile(file, []byte(profileSource), 0o644); err != nil {
		return err
	}
	ov, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(pkgDir, "zz_wasmsand_pgo.go"): file}})
	if err != nil {
		return err
	}
	ovFile := filepath.Join(tmp, name+"_overlay.json")
	if err := os.WriteFile(ovFile, ov, 0o644); err != nil {
		return err
	}
	exe := filepath.Join(tmp, name)
	// -pgo=off: the profile describes code built without one.
	cmd := exec.CommandContext(ctx, "go", "build", "-pgo=off", "-overlay", ovFile, "-o", exe, m.Package)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=", "GOARCH=", "GOFLAGS=", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s for profiling: %v\n%s", m.Package, err, b)
	}
	list := exec.CommandContext(ctx, exe)
	list.Env = append(os.Environ(), "WASMSAND_LIST_COMMANDS=1")
	names, err := list.Output()
	if err != nil {
		return fmt.Errorf("listing the commands of %s: %v", name, err)
	}
	for _, n := range strings.Fields(string(names)) {
		if err := os.Symlink(exe, filepath.Join(bin, n)); err != nil {
			return err
		}
	}
	return nil
}

// runWorkload runs the bash command line c in data with the profiling
// tools first on PATH; the processes of module mod write their profiles
// into profs.
func runWorkload(ctx context.Context, bin, data, profs, mod, c string) error {
	cmd := exec.CommandContext(ctx, "bash", "-c", c+" > /dev/null")
	cmd.Dir = data
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "LC_ALL=C")
	dir := filepath.Join(profs, mod)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cmd.Env = append(cmd.Env, "WASMSAND_PGO_DIR="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("workload %q: %v\n%s", c, err, stderr.Bytes())
	}
	return nil
}

// merge writes the profiles of module mod in profs as one to out.
func merge(ctx context.Context, profs, mod, out string) error {
	files, err := filepath.Glob(filepath.Join(profs, mod, mod+"-*.pprof"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no profiles of %s: did its workloads run its commands?", mod)
	}
	args := append([]string{"tool", "pprof", "-proto", "-output", out}, files...)
	cmd := exec.CommandContext(ctx, "go", args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("merging the profiles of %s: %v\n%s", mod, err, b)
	}
	return nil
}

// writeData writes into dir the files the workloads read: d (issue 14's
// 200,000 records), j (the first 20,000 as JSON objects) and t (10,000
// small files in 100 directories).
func writeData(dir string) error {
	records := guesttest.Records(200000)
	if err := os.WriteFile(filepath.Join(dir, "d"), records, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "j"), guesttest.JSONRecords(records, 20000), 0o644); err != nil {
		return err
	}
	for i := range 100 {
		d := filepath.Join(dir, "t", fmt.Sprintf("d%02d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		for k := range 100 {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%04d.txt", i*100+k)), fmt.Appendf(nil, "file %d %d\n", i, k), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
