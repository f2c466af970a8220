#!/usr/bin/env bash
# Runs the side-by-side benchmarks and prints a table of medians and ratios.
#   ./run.sh              # 5 rounds
#   COUNT=10 ./run.sh -bench Equality
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
echo
echo "$(go version), $(nproc) CPUs, $(date -u +%Y-%m-%d)"
echo
go run ./ratios < "$out"
