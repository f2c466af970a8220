#!/usr/bin/env bash
# Runs the side-by-side benchmarks and prints a table of medians and ratios.
#   ./run.sh              # 5 rounds of every benchmark; rewrites the table
#                         # in ../docs/performance.md
#   COUNT=10 ./run.sh -bench Equality   # prints only
# Each round runs every selected benchmark once, so a row and the rows it is
# compared with are measured in turn, round after round, rather than one
# after the other: on a shared machine whose load drifts, that keeps the
# drift out of the ratios.
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp)
bin=$(mktemp)
trap 'rm -f "$out" "$bin"' EXIT
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(-bench .)
go test -c -o "$bin" .
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
done
table=$(mktemp)
tiers=$(mktemp)
trap 'rm -f "$out" "$bin" "$table" "$tiers"' EXIT
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
