#!/usr/bin/env bash
# Builds the native anchors into OUTDIR: eqcheck (C++: simdjson On-Demand,
# absl::flat_hash_map and an open-addressing table) and ratcheck (C on GMP),
# with g++/gcc -O3 -march=native.
#   native/build.sh OUTDIR
# Needs a C++ compiler and Debian's libsimdjson-dev, libabsl-dev and
# libgmp-dev (bench/run.sh and .ci/run install them). When one is missing it
# prints one line saying which and exits 3, so that callers skip the native
# rows rather than fail.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUTDIR}
mkdir -p "$out"

missing=()
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
if command -v g++ >/dev/null 2>&1; then # is each header on the compiler's path?
	for h in simdjson.h:libsimdjson-dev absl/container/flat_hash_map.h:libabsl-dev gmp.h:libgmp-dev; do
		echo "#include <${h%%:*}>" | g++ -std=c++17 -E -x c++ - >/dev/null 2>&1 || missing+=("${h#*:}")
	done
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "native anchors skipped: ${missing[*]} not installed (Debian: apt-get install g++ libsimdjson-dev libabsl-dev libgmp-dev)"
	exit 3
fi

absl="-labsl_hash -labsl_city -labsl_low_level_hash -labsl_raw_hash_set"
g++ -O3 -march=native -std=c++17 -Wall -Wextra -o "$out/eqcheck" "$here/eqcheck.cpp" -lsimdjson $absl &
cxx=$!
gcc -O3 -march=native -std=gnu11 -Wall -Wextra -o "$out/ratcheck" "$here/ratcheck.c" -lgmp
wait "$cxx"
