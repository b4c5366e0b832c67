"""Pack python3.wasm: the stripped interpreter with its standard library.

The library travels inside the module as files below /
(usr/lib/python3.11/os.py, ...), packed by toolfiles.py: the sandbox puts
them into a sandbox's filesystem the first time the module runs there, so
a sandbox that never runs Python never loads them, and the browser
downloads them with the module, on first use.

Each .py comes with its .pyc in __pycache__, compiled by the build Python
(the same 3.11) as an unchecked hash-based pyc: imports never compile, and
tracebacks still show source lines.

Run by build.sh with the build machine's python3.11.
"""

import argparse
import os
import py_compile
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor

from toolfiles import stored_zip, write_module

PREFIX = "usr/lib/python3.11"

# Not shipped: tests, GUI, packaging tools and what needs what WASI lacks.
OMIT_DIRS = {
    "test", "tests", "idle_test", "idlelib", "tkinter", "turtledemo", "ensurepip",
    "lib2to3", "__pycache__", "site-packages", "msilib", "curses", "ctypes",
}
OMIT_FILES = {"turtle.py", "antigravity.py", "this.py", "__phello__.foo.py"}


def collect(src_lib):
    """Yields (archive path, host path) for the library's files, sorted."""
    out = []
    for root, dirs, files in os.walk(src_lib):
        dirs[:] = sorted(d for d in dirs if d not in OMIT_DIRS)
        rel = os.path.relpath(root, src_lib)
        for f in sorted(files):
            if f in OMIT_FILES or f.endswith((".pyc", ".pyo", ".exe", ".whl")):
                continue
            arc = f if rel == "." else f"{rel}/{f}"
            out.append((arc, os.path.join(root, f)))
    return out


def compile_one(args):
    host, arc, tmpdir = args
    cfile = os.path.join(tmpdir, arc.replace("/", "__") + "c")
    try:
        py_compile.compile(host, cfile=cfile, dfile="/" + PREFIX + "/" + arc, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    except py_compile.PyCompileError:
        return arc, None  # e.g. lib2to3 fixtures: shipped as source only
    return arc, cfile


def pyc_name(arc):
    d, _, f = arc.rpartition("/")
    name = f[:-3] + "." + sys.implementation.cache_tag + ".pyc"
    return f"{d}/__pycache__/{name}" if d else f"__pycache__/{name}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True, help="CPython source tree")
    ap.add_argument("--build", required=True, help="CPython build tree")
    ap.add_argument("--wasm", required=True, help="python.wasm as built")
    ap.add_argument("--strip", required=True, help="llvm-strip")
    ap.add_argument("-o", required=True, help="output module")
    a = ap.parse_args()
    if sys.version_info[:2] != (3, 11):
        sys.exit("stdlib.py: needs Python 3.11 to compile the library")

    files = collect(os.path.join(a.src, "Lib"))
    # The build's sysconfig data: sysconfig imports it by name.
    with open(os.path.join(a.build, "pybuilddir.txt")) as f:
        builddir = os.path.join(a.build, f.read().strip())
    for f in sorted(os.listdir(builddir)):
        if f.startswith("_sysconfigdata_") and f.endswith(".py"):
            files.append((f, os.path.join(builddir, f)))

    entries = {}
    with tempfile.TemporaryDirectory() as tmp:
        jobs = [(host, arc, tmp) for arc, host in files if arc.endswith(".py")]
        with ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
            pycs = dict(ex.map(compile_one, jobs, chunksize=64))
        for arc, host in files:
            with open(host, "rb") as f:
                entries[arc] = f.read()
            if pycs.get(arc):
                with open(pycs[arc], "rb") as f:
                    entries[pyc_name(arc)] = f.read()

        # lib-dynload must exist, or getpath warns about exec_prefix.
        payload = stored_zip({PREFIX + "/" + arc: b for arc, b in entries.items()},
                             dirs=[PREFIX + "/lib-dynload"])
    code = write_module(a.strip, a.wasm, payload, a.o)
    print(f"stdlib.py: {len(entries)} files, {len(payload)} bytes of library, "
          f"{code} bytes of code", file=sys.stderr)


if __name__ == "__main__":
    main()
