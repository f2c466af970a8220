#!/usr/bin/env bash
# Runs the side-by-side benchmarks and prints a table of medians and ratios.
#   ./run.sh              # 5 rounds of every benchmark; rewrites the table
#                         # in ../docs/performance.md
#   COUNT=10 ./run.sh -bench Equality   # prints only
# Each round runs every selected benchmark once, so a row and the rows it is
# compared with are measured in turn, round after round, rather than one
# after the other: on a shared machine whose load drifts, that keeps the
# drift out of the ratios.
#
# A full run (or NATIVE=1) also builds the native anchors of native/ (C++ on
# simdjson and abseil, C on GMP; they need g++ and Debian's libsimdjson-dev,
# libabsl-dev and libgmp-dev, else one line says they are skipped), checks
# every answer they give against claimcheck's (TestNativeAnchors), and runs
# them in the same rounds, after the Go benchmarks, on the very files the Go
# benchmarks' inputs are written to; and it measures the peak RSS of the
# scaling and memory rows, each in a process of its own (TestPeakRSS).
set -euo pipefail
cd "$(dirname "$0")"
# The toolchain the README requires (go.mod's toolchain line, which a
# machine whose GOTOOLCHAIN is local ignores): the tables say which ran.
export GOTOOLCHAIN=go1.26.10
out=$(mktemp)
bin=$(mktemp)
nat=$(mktemp -d)
trap 'rm -rf "$out" "$bin" "$nat"' EXIT
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(-bench .)
go test -c -o "$bin" .
native=""
if [ $# -eq 0 ] || [ "${NATIVE:-}" = 1 ]; then
	native=1
	if msg=$(native/build.sh "$nat/bin" 2>&1); then
		CLAIMCHECK_NATIVE_DATA="$nat/data" "$bin" -test.run '^TestNativeInputs$' >/dev/null
		echo "# native anchors built; cross-checking their answers with claimcheck's" >&2
		CLAIMCHECK_NATIVE_BIN="$nat/bin" CLAIMCHECK_NATIVE_DATA="$nat/data" "$bin" -test.run '^TestNativeAnchors$' >&2 ||
			{ echo "run.sh: a native anchor's answer is not claimcheck's" >&2; exit 1; }
	elif [ $? -eq 3 ]; then
		echo "$msg" >&2
		native_skipped=$msg
		rm -rf "$nat/bin"
	else
		echo "$msg" >&2
		exit 1
	fi
fi
# One round of the native anchors and of the peak-RSS rows.
native_round() {
	local m n c row res
	for row in Scaling/100000/claimcheck Scaling/100000/claimcheck-scalar-input Scaling/100000/input-only \
		Scaling/1000000/claimcheck Scaling/1000000/claimcheck-scalar-input Scaling/1000000/input-only \
		Memory/1000000/claimcheck-int Memory/1000000/map-int Memory/1000000/input-only; do
		# The test's own output, not grep's, when it fails.
		res=$(CLAIMCHECK_PEAK_RSS=$row "$bin" -test.run '^TestPeakRSS$' 2>&1) || { echo "$res" >&2; return 1; }
		grep peak-RSS-kB <<<"$res"
	done
	[ -d "$nat/bin" ] || return 0
	for m in od-absl od-oa od-oa-batch dom-parse; do
		"$nat/bin/eqcheck" bench "$m" "$nat/data/eq_10000.json" "BenchmarkExecute/10000/native-$m"
	done
	for n in 10000 100000 1000000; do
		for m in count-absl count-oa count-oa-batch; do
			"$nat/bin/eqcheck" bench "$m" "$nat/data/eq_$n.json" "BenchmarkScaling/$n/native-$m"
		done
	done
	for c in seed H10 H100 500-digit; do
		for m in mpq lazy tier; do
			"$nat/bin/ratcheck" bench "$m" "$nat/data/rat_$c.txt" "BenchmarkRational/$c/native-$m"
		done
	done
}
targs=()
for a in "${args[@]}"; do
	case $a in
	-*) targs+=("-test.${a#-}") ;;
	*) targs+=("$a") ;;
	esac
done
for round in $(seq "${COUNT:-5}"); do
	echo "# round $round" >&2
	"$bin" -test.run '^$' -test.timeout 60m -test.benchmem "${targs[@]}" | tee -a "$out" >&2
	if [ -n "$native" ]; then
		native_round | tee -a "$out" >&2
	fi
done
table=$(mktemp)
tiers=$(mktemp)
trap 'rm -rf "$out" "$bin" "$nat" "$table" "$tiers"' EXIT
# A full run also measures what each of rational's arithmetic tiers earns
# (BenchmarkTiers, in the library module: the tiers are internal), in rounds
# as well.
if [ $# -eq 0 ]; then
	tbin=$(mktemp)
	(cd .. && go test -c -o "$tbin" ./rational)
	for round in $(seq "${COUNT:-5}"); do
		echo "# tiers round $round" >&2
		"$tbin" -test.run '^$' -test.bench BenchmarkTiers -test.benchmem -test.benchtime 300ms | tee -a "$tiers" >&2
	done
	rm -f "$tbin"
fi
{
	echo "$(go version), $(nproc) CPUs, $(date -u +%Y-%m-%d), ${COUNT:-5} rounds, medians."
	echo
	go run ./ratios < "$out"
	if [ -n "${native_skipped:-}" ]; then
		echo
		echo "No native rows: $native_skipped."
	elif [ -n "$native" ]; then
		echo
		echo "The native anchors' inputs, the files the Go rows' inputs are written to:"
		for f in "$nat"/data/eq_*.json; do
			printf -- '- %s: %s bytes\n' "$(basename "$f")" "$(stat -c %s "$f" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')"
		done | sort -t_ -k2 -n
	fi
	if [ -s "$tiers" ]; then
		echo
		echo "Rational's arithmetic tiers (BenchmarkTiers; time vs all tiers on):"
		echo
		go run ./ratios < "$tiers"
	fi
} > "$table"
echo
cat "$table"
# A full run regenerates the measured part of docs/performance.md: the
# lines between its two markers. The notes around them are prose.
if [ $# -eq 0 ]; then
	doc=../docs/performance.md
	begin='<!-- bench/run.sh writes from here -->'
	end='<!-- to here -->'
	awk -v begin="$begin" -v end="$end" -v table="$table" '
		$0 == begin { print; while ((getline l < table) > 0) print l; skip = 1; next }
		$0 == end { skip = 0 }
		!skip' "$doc" > "$doc.new"
	mv "$doc.new" "$doc"
	echo "wrote $doc" >&2
fi
