#!/usr/bin/env bash
# Fetches GNU bash 5.2's own test suite for sandbox/bashsuite: the tests/
# directory of Debian's bash source package, unpacked once into
# ${XDG_CACHE_HOME:-$HOME/.cache}/wasmsand/bash-5.2-tests/tests. Idempotent:
# does nothing when the suite is already there. The suite is data for the
# tests and is never committed.
set -euo pipefail

dest=${XDG_CACHE_HOME:-$HOME/.cache}/wasmsand/bash-5.2-tests
if [ -f "$dest/tests/run-all" ]; then
	echo "bash-tests: bash's test suite is already in $dest/tests"
	exit 0
fi

sudo=
[ "$(id -u)" = 0 ] || sudo=sudo

# apt-get source needs a deb-src entry for the system's suite.
if ! apt-cache showsrc bash 2>/dev/null | grep -q '^Package: bash$'; then
	. /etc/os-release
	suite=${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}
	echo "bash-tests: adding a deb-src entry for $suite"
	$sudo tee /etc/apt/sources.list.d/wasmsand-src.sources >/dev/null <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	$sudo apt-get update -q
fi
# dpkg-source unpacks the source package.
if ! command -v dpkg-source >/dev/null; then
	echo "bash-tests: installing dpkg-dev"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q dpkg-dev
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get source -q bash)
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'bash-5.2*' | head -n 1)
if [ -z "$src" ] || [ ! -f "$src/tests/run-all" ]; then
	echo "bash-tests: apt-get source bash gave no bash 5.2 tests/ directory" >&2
	ls "$work" >&2
	exit 1
fi

mkdir -p "$(dirname "$dest")"
rm -rf "$dest.tmp"
mkdir "$dest.tmp"
mv "$src/tests" "$dest.tmp/tests"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "bash-tests: bash's test suite ($(basename "$src")) is in $dest/tests"
