#!/usr/bin/env bash
# Runs the side-by-side benchmarks and prints a table of medians and ratios.
#   ./run.sh              # -count 5
#   COUNT=10 ./run.sh -bench Equality
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(-bench .)
go test -run '^$' -timeout 60m -benchmem -count "${COUNT:-5}" "${args[@]}" . | tee "$out" >&2
echo
echo "$(go version), $(nproc) CPUs, $(date -u +%Y-%m-%d)"
echo
go run ./ratios < "$out"
