#!/usr/bin/env bash
# build.sh WORK OUT — builds the C guests for wasm32-wasi from Debian's
# source packages with Debian's clang, lld, wasi-libc and compiler-rt:
#
#   OUT/python3.wasm   CPython 3.11 (python3.11 source) with zlib, sqlite3
#                      and the _wasmsand module; its standard library rides
#                      along in a custom section (see stdlib.py)
#   OUT/sqlite3.wasm   the SQLite shell (sqlite3 source)
#   OUT/wat2wasm.wasm  wabt's wat2wasm (wabt source, C++ with Debian's libc++)
#   OUT/gawk.wasm      GNU awk (gawk source), with its library of awk functions
#
# WORK is a scratch directory (sources, objects); a second run with the same
# WORK resumes where the first stopped. The Go driver (package cguest) runs
# this script and caches OUT by a hash of this directory and the toolchain.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=$(mkdir -p "$1" && cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
jobs=${JOBS:-$(nproc)}
# Downloaded source packages; the Go driver shares them between builds.
dl=${CGUEST_DL:-$work/dl}

# Upstream tarballs as Debian ships them (the .orig of each source package),
# pinned by hash: security updates of a package keep its orig tarball.
PY_VERSION=3.11.2
PY_ORIG=python3.11_3.11.2.orig.tar.gz
PY_SHA=2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849
SQLITE_ORIG=sqlite3_3.40.1.orig.tar.xz
SQLITE_SHA=aaa776260ab4dc976db34aa7891819484c8676b5b2783123ebc6301e2ca5d655
ZLIB_ORIG=zlib_1.2.13.dfsg.orig.tar.bz2
ZLIB_SHA=71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1
WABT_VERSION=1.0.32
WABT_ORIG=wabt_1.0.32.orig.tar.xz
WABT_SHA=2e9fbcbe0ef64042f9691d995116954bc84823fe747a593d80a873566a18cba8
GAWK_ORIG=gawk_5.2.1.orig.tar.xz
GAWK_SHA=2337a0283b180ec1b9c727973a34781c6478b3ae9bcbdcca0a4dc49861d75a65

CLANG=clang-16
CLANGXX=clang++-16
WASI_CC="$CLANG --target=wasm32-wasi"
AR=llvm-ar-16
RANLIB=llvm-ranlib-16
STRIP=llvm-strip-16
# Debian's own python3.11 (the same minor version) compiles the library.
BUILD_PYTHON=$(command -v /usr/bin/python3.11 || command -v python3.11)

log() { printf '%s cguest: %s\n' "$(date +%T)" "$*" >&2; }

for t in $CLANG $CLANGXX $AR $RANLIB $STRIP "$BUILD_PYTHON" apt-get dpkg-source tclsh cc make patch; do
	command -v "$t" >/dev/null || { echo "cguest: $t is missing (see .ci/run for the packages)" >&2; exit 1; }
done

[[ -f /usr/lib/llvm-16/lib/wasm32-wasi/libc++.a ]] || { echo "cguest: libc++-16-dev-wasm32 and libc++abi-16-dev-wasm32 are missing (see .ci/run)" >&2; exit 1; }

# fetch NAME ORIG SHA: downloads source package NAME into WORK/dl, trying
# each version apt knows (a mirror may lack the newest), and checks ORIG.
fetch() {
	local name=$1 orig=$2 sha=$3
	mkdir -p "$dl"
	if [[ -f $dl/$name.ok ]]; then return; fi
	local v ok=
	for v in $(apt-cache showsrc "$name" | awk '/^Version:/ {print $2}' | sort -ru); do
		if (cd "$dl" && apt-get source -q --download-only "$name=$v" >/dev/null 2>"$name.err"); then
			ok=$v
			break
		fi
	done
	if [[ -z $ok ]]; then
		echo "cguest: apt-get source $name failed (is a deb-src entry configured? see .ci/run):" >&2
		cat "$dl/$name.err" >&2
		exit 1
	fi
	echo "$sha  $dl/$orig" | sha256sum -c --quiet - || { echo "cguest: $orig does not match its pinned hash" >&2; exit 1; }
	ls "$dl/${name}_"*.dsc | grep -F "_${ok#*:}.dsc" >"$dl/$name.ok"
	log "fetched $name $ok"
}

# --- zlib ---------------------------------------------------------------
zlib_build() {
	local d=$work/zlib
	[[ -f $d/libz.a ]] && return
	fetch zlib "$ZLIB_ORIG" "$ZLIB_SHA"
	rm -rf "$d" && mkdir -p "$d"
	tar xf "$dl/$ZLIB_ORIG" -C "$d" --strip-components=1
	log "building zlib"
	(
		cd "$d"
		local f objs=()
		for f in adler32 crc32 deflate infback inffast inflate inftrees trees zutil compress uncompr gzclose gzlib gzread gzwrite; do
			$WASI_CC -O2 -w -DHAVE_UNISTD_H -D_LARGEFILE64_SOURCE=1 -c "$f.c" -o "$f.o"
			objs+=("$f.o")
		done
		$AR rcs libz.a "${objs[@]}"
	)
}

# --- SQLite ---------------------------------------------------------------
# Debian's compile options (debian/rules), less what WASI lacks: threads
# and loadable extensions. SQLITE_OS_OTHER drops os_unix.c (fcntl locks,
# fchown, mmap); recipe/sqlite/wasivfs.c is the VFS over WASI files instead.
SQLITE_DEFS=(
	-DSQLITE_OS_OTHER=1 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION
	-DSQLITE_OMIT_WAL -DSQLITE_TEMP_STORE=1
	-DSQLITE_SECURE_DELETE -DSQLITE_ENABLE_COLUMN_METADATA
	-DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS -DSQLITE_ENABLE_FTS4 -DSQLITE_ENABLE_FTS5
	-DSQLITE_ENABLE_RTREE=1 -DSQLITE_SOUNDEX=1 -DSQLITE_OMIT_LOOKASIDE=1 -DSQLITE_ENABLE_DBSTAT_VTAB
	-DSQLITE_ALLOW_ROWID_IN_VIEW -DSQLITE_ENABLE_UPDATE_DELETE_LIMIT=1 -DSQLITE_ENABLE_JSON1
	-DSQLITE_LIKE_DOESNT_MATCH_BLOBS -DSQLITE_ENABLE_FTS3_TOKENIZER=1 -DSQLITE_USE_URI=1
	-DSQLITE_MAX_SCHEMA_RETRY=25 -DSQLITE_ENABLE_PREUPDATE_HOOK -DSQLITE_ENABLE_SESSION
	-DSQLITE_ENABLE_STMTVTAB -DSQLITE_MAX_VARIABLE_NUMBER=250000 -DSQLITE_ENABLE_MATH_FUNCTIONS
	-DSQLITE_HAVE_ZLIB=1 -DHAVE_USLEEP=1 -DHAVE_LOCALTIME_R=1 -DHAVE_GMTIME_R=1
)

sqlite_lib() {
	local d=$work/sqlite
	fetch sqlite3 "$SQLITE_ORIG" "$SQLITE_SHA"
	if [[ ! -f $d/src/sqlite3.c ]]; then
		rm -rf "$d" && mkdir -p "$d"
		# Debian's source with Debian's patches, then the amalgamation,
		# made on the build machine (tclsh and the native cc).
		(cd "$d" && dpkg-source -x "$(cat "$dl/sqlite3.ok")" src >/dev/null 2>&1)
		log "making the SQLite amalgamation"
		(cd "$d/src" && ./configure -q --disable-tcl >/dev/null && make -s sqlite3.c shell.c >/dev/null)
	fi
	log "building SQLite"
	(
		cd "$d"
		local inc=(-I"$d/src" -I"$work/zlib")
		[[ -f sqlite3.o ]] || $WASI_CC -O2 "${SQLITE_DEFS[@]}" "${inc[@]}" -c src/sqlite3.c -o sqlite3.o
		$WASI_CC -O2 "${SQLITE_DEFS[@]}" "${inc[@]}" -c "$here/sqlite/wasivfs.c" -o wasivfs.o
		rm -f libsqlite3.a && $AR rcs libsqlite3.a sqlite3.o wasivfs.o
	)
}

# The shell links Debian's shell.c with a few stand-ins for what WASI lacks
# (recipe/sqlite/shellcompat.h) and the wasmsand process functions.
sqlite_shell() {
	local d=$work/sqlite
	log "building the SQLite shell"
	(
		cd "$d"
		local inc=(-I"$d/src" -I"$here/sqlite" -I"$here/common" -I"$work/zlib")
		$WASI_CC -O2 "${SQLITE_DEFS[@]}" "${inc[@]}" -include "$here/sqlite/shellcompat.h" \
			-D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_PROCESS_CLOCKS -D_WASI_EMULATED_GETPID -c src/shell.c -o shell.o
		$WASI_CC -O2 "${inc[@]}" -c "$here/common/wasmsand_proc.c" -o proc.o
		$WASI_CC -O2 -Wl,-z,stack-size=1048576 -o sqlite3.wasm shell.o proc.o libsqlite3.a "$work/zlib/libz.a" \
			-lwasi-emulated-signal -lwasi-emulated-process-clocks -lwasi-emulated-getpid
	)
}

# --- wabt (wat2wasm) ----------------------------------------------------------
# Only the library files wat2wasm needs, without exceptions; config.h, which
# CMake would write, comes from config.h.in with the answers for wasm32-wasi.
WABT_SRCS="apply-names binary-reader-ir binary-reader-logging binary-reader binary-writer-spec
	binary-writer binary binding-hash color common config error-formatter expr-visitor feature
	filenames generate-names ir-util ir leb128 lexer-source-line-finder lexer-source literal
	opcode option-parser resolve-names shared-validator stream token tracing type-checker utf8
	validator wast-lexer wast-parser wat-writer tools/wat2wasm"

wabt_build() {
	local d=$work/wabt
	[[ -f $d/wat2wasm.wasm ]] && return
	fetch wabt "$WABT_ORIG" "$WABT_SHA"
	rm -rf "$d" && mkdir -p "$d/src" "$d/gen/wabt" "$d/obj"
	tar xf "$dl/$WABT_ORIG" -C "$d/src" --strip-components=1
	sed -e "s/#cmakedefine WABT_VERSION_STRING .*/#define WABT_VERSION_STRING \"$WABT_VERSION\"/" \
		-e 's/#cmakedefine WABT_DEBUG .*//' \
		-e 's/#cmakedefine01 \(HAVE_ALLOCA_H\|HAVE_UNISTD_H\|HAVE_SNPRINTF\|HAVE_SSIZE_T\|HAVE_STRCASECMP\|COMPILER_IS_CLANG\)$/#define \1 1/' \
		-e 's/#cmakedefine01 \([A-Z0-9_]*\)$/#define \1 0/' \
		-e 's/@SIZEOF_SIZE_T@/4/' "$d/src/src/config.h.in" >"$d/gen/wabt/config.h"
	log "building wabt's wat2wasm"
	(
		cd "$d/src"
		export WASI_CXX="$CLANGXX --target=wasm32-wasi -O2 -std=c++17 -fno-exceptions -isystem /usr/lib/llvm-16/include/wasm32-wasi/c++/v1 -Iinclude -I$d/gen -Isrc"
		# shellcheck disable=SC2016
		printf '%s\n' $WABT_SRCS | xargs -P "$jobs" -I{} sh -c '$WASI_CXX -c src/{}.cc -o "$0/obj/$(basename {}).o"' "$d"
		$WASI_CC -O2 -Iinclude -I"$d/gen" -c src/opcode-code-table.c -o "$d/obj/opcode-code-table.o"
		$CLANGXX --target=wasm32-wasi -O2 -o "$d/wat2wasm.wasm" "$d"/obj/*.o \
			-L/usr/lib/llvm-16/lib/wasm32-wasi -lc++ -lc++abi
	)
}

# --- GNU awk ------------------------------------------------------------------
# Debian's source with Debian's patches, configured for wasm32-wasi without
# extensions, MPFR, readline or NLS. recipe/gawk/wasi.patch starts commands
# through the wasmsand host where gawk would fork; recipe/gawk/compat.h
# stands in for what wasi-libc lacks (see there).
gawk_build() {
	local d=$work/gawk
	[[ -f $d/src/gawk ]] && return
	fetch gawk "$GAWK_ORIG" "$GAWK_SHA"
	if [[ ! -f $d/src/configure ]]; then
		rm -rf "$d" && mkdir -p "$d"
		(cd "$d" && dpkg-source -x "$(cat "$dl/gawk.ok")" src >/dev/null 2>&1)
		patch -s -d "$d/src" -p1 <"$here/gawk/wasi.patch"
	fi
	log "building gawk"
	(
		# In the source tree, as Debian builds it: gawk's messages name
		# its files as GNU awk's do (interpret.h, not ../src/interpret.h).
		cd "$d/src"
		local emul="-D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_PROCESS_CLOCKS -D_WASI_EMULATED_GETPID"
		local libs="-lwasi-emulated-signal -lwasi-emulated-process-clocks -lwasi-emulated-getpid"
		if [[ ! -f Makefile ]]; then
			# system() is the wasmsand host's (compat.h); strftime is gnulib's
			# from missing_d, as glibc's (wasi-libc's returns nothing for a
			# whole format when one conversion is GNU's, %k or %P).
			./configure -q --host=wasm32-unknown-wasi --build=x86_64-pc-linux-gnu --prefix=/usr \
				CC="$WASI_CC" AR="$AR" RANLIB="$RANLIB" CFLAGS="-O2 $emul" LDFLAGS="$libs" \
				ac_cv_func_system=yes ac_cv_func_strftime=no \
				--disable-extensions --disable-nls --disable-mpfr --without-readline --without-mpfr >/dev/null
			# A run test configure cannot make across: wasi-libc's printf has %a.
			sed -i 's|^/\* #undef PRINTF_HAS_A_FORMAT \*/$|#define PRINTF_HAS_A_FORMAT 1|' config.h
			grep -q '^#define PRINTF_HAS_A_FORMAT 1' config.h
		fi
		$WASI_CC -O2 -I"$here/common" -c "$here/common/wasmsand_proc.c" -o wasmsand_proc.o
		local flags=(CPPFLAGS="-I$here/gawk/include -I$here/common -include $here/gawk/compat.h -w"
			LDFLAGS="-Wl,-z,stack-size=1048576 $libs" LIBS="$PWD/wasmsand_proc.o -lm")
		make -s -j"$jobs" -C support "${flags[@]}" >/dev/null
		make -s -j"$jobs" gawk "${flags[@]}" >/dev/null
	)
}

# --- CPython ----------------------------------------------------------------
python_build() {
	local d=$work/python src=$work/python/src b=$work/python/build
	if [[ ! -f $src/configure ]]; then
		fetch python3.11 "$PY_ORIG" "$PY_SHA"
		rm -rf "$d" && mkdir -p "$src"
		tar xf "$dl/$PY_ORIG" -C "$src" --strip-components=1
	fi
	# Our patches, each applied once (a resumed build applies only new ones).
	local p
	for p in "$here"/python/*.patch; do
		[[ -e $p ]] || continue
		[[ -f $src/.applied-$(basename "$p") ]] && continue
		patch -s -d "$src" -p1 <"$p"
		touch "$src/.applied-$(basename "$p")"
	done
	cp "$here/python/_wasmsandmodule.c" "$here/common/wasmsand_proc.c" "$here/common/wasmsand_proc.h" "$src/Modules/"
	mkdir -p "$b/Modules"
	cmp -s "$here/python/Setup.local" "$b/Modules/Setup.local" || cp "$here/python/Setup.local" "$b/Modules/Setup.local"
	if [[ ! -f $b/Makefile ]]; then
		log "configuring CPython"
		(
			cd "$b"
			# PKG_CONFIG_LIBDIR points nowhere: configure must not find the
			# build machine's zlib, lzma or uuid.
			CONFIG_SITE="$src/Tools/wasm/config.site-wasm32-wasi" \
				CC="$WASI_CC" CPP="$WASI_CC -E" CXX="$CLANGXX --target=wasm32-wasi" \
				AR=$AR RANLIB=$RANLIB READELF=true \
				PKG_CONFIG_LIBDIR=/nonexistent \
				ZLIB_CFLAGS="-I$work/zlib" ZLIB_LIBS="-L$work/zlib -lz" \
				LIBSQLITE3_CFLAGS="-I$work/sqlite/src" LIBSQLITE3_LIBS="-L$work/sqlite -lsqlite3" \
				CFLAGS="-O2 -DWASMSAND" \
				"$src/configure" -q --host=wasm32-unknown-wasi --build=x86_64-pc-linux-gnu \
				--with-build-python="$BUILD_PYTHON" --prefix=/usr --disable-test-modules \
				--without-ensurepip >"$b/configure.log" 2>&1 || { tail -30 "$b/configure.log"; exit 1; }
		)
	fi
	log "building CPython"
	(cd "$b" && make -s -j"$jobs" python.wasm pybuilddir.txt >"$b/make.log" 2>&1) || { grep -E 'error|Error' "$b/make.log" | head -40; exit 1; }
}

# STAGES lets a developer run part of the recipe (e.g. STAGES=python_build).
for stage in ${STAGES:-zlib_build sqlite_lib sqlite_shell wabt_build gawk_build python_build}; do
	$stage
done
[[ -n ${STAGES:-} ]] && exit 0

log "packing"
"$BUILD_PYTHON" "$here/stdlib.py" --src "$work/python/src" --build "$work/python/build" \
	--wasm "$work/python/build/python.wasm" --strip "$STRIP" -o "$out/python3.wasm"
$STRIP -o "$out/sqlite3.wasm" "$work/sqlite/sqlite3.wasm"
$STRIP -o "$out/wat2wasm.wasm" "$work/wabt/wat2wasm.wasm"
# gawk's library of awk functions (@include "join"), where Debian puts it.
"$BUILD_PYTHON" "$here/toolfiles.py" --strip "$STRIP" --wasm "$work/gawk/src/gawk" \
	--prefix usr/share/awk -o "$out/gawk.wasm" "$work/gawk/src/awklib/eg/lib/"*.awk
log "done: $(cd "$out" && ls -l ./*.wasm | awk '{print $NF, $5}' | tr '\n' ' ')"
