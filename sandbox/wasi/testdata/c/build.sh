#!/bin/sh
# Rebuilds the C test guests of package wasi. Needs clang, lld and wasi-libc
# (Debian: apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32).
# The .wasm files are committed so that tests do not need clang.
set -eu
cd "$(dirname "$0")"
sysroot=/usr/share/wasi-sysroot
[ -d "$sysroot" ] || sysroot=/usr # Debian installs wasi-libc in the multiarch dirs
for src in *.c; do
	clang --target=wasm32-wasi --sysroot="$sysroot" -O2 -Wall -Wl,--strip-all -o "${src%.c}.wasm" "$src"
done
