"""Put read-only files into a tool module, for the sandbox to place.

A module may carry files its commands need in a custom section named
"wasmsand.files", placed first: an uncompressed (stored) zip whose entries
are paths below / (usr/share/awk/join.awk, ...). The sandbox puts those
files into a sandbox's filesystem the first time the module runs there,
sharing the bytes between sandboxes (sandbox/toolfiles.go).

stdlib.py packs python3.wasm with it; run as a script, it packs a module
with the files of a directory:

    toolfiles.py --strip llvm-strip --wasm gawk --prefix usr/share/awk \\
        -o gawk.wasm awklib/eg/lib/*.awk
"""

import argparse
import io
import os
import subprocess
import sys
import tempfile
import zipfile

SECTION = b"wasmsand.files"


def uleb(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def stored_zip(entries, dirs=()):
    """Returns a stored zip of entries (archive path -> bytes) and the
    empty directories dirs, in a fixed order with fixed times."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for d in dirs:
            z.writestr(zipfile.ZipInfo(d.rstrip("/") + "/", (1980, 1, 1, 0, 0, 0)), b"")
        for arc in sorted(entries):
            zi = zipfile.ZipInfo(arc, (1980, 1, 1, 0, 0, 0))
            zi.external_attr = 0o644 << 16
            z.writestr(zi, entries[arc])
    return buf.getvalue()


def write_module(strip, wasm, payload, out):
    """Writes wasm, stripped with strip, to out with payload (a stored
    zip) as its first section; returns the size of the stripped code."""
    with tempfile.TemporaryDirectory() as tmp:
        stripped = os.path.join(tmp, "module.wasm")
        subprocess.run([strip, "-o", stripped, wasm], check=True)
        with open(stripped, "rb") as f:
            mod = f.read()
    if mod[:8] != b"\0asm\x01\0\0\0":
        sys.exit(f"toolfiles.py: {wasm} is not a WebAssembly module")
    body = uleb(len(SECTION)) + SECTION + payload
    section = b"\0" + uleb(len(body)) + body
    with open(out + ".tmp", "wb") as f:
        f.write(mod[:8] + section + mod[8:])
    os.replace(out + ".tmp", out)
    return len(mod)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--strip", required=True, help="llvm-strip")
    ap.add_argument("--wasm", required=True, help="the module as built")
    ap.add_argument("--prefix", required=True, help="directory of the files, below /")
    ap.add_argument("-o", required=True, help="output module")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    entries = {}
    for host in a.files:
        with open(host, "rb") as f:
            entries[a.prefix.strip("/") + "/" + os.path.basename(host)] = f.read()
    payload = stored_zip(entries)
    code = write_module(a.strip, a.wasm, payload, a.o)
    print(f"toolfiles.py: {len(entries)} files, {len(payload)} bytes, "
          f"{code} bytes of code in {a.o}", file=sys.stderr)


if __name__ == "__main__":
    main()
