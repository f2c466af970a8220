#!/usr/bin/env bash
# bench/batch.sh [lines] [seconds]: the batch route against the CLI and the
# single-document route, ratios in one run, server and CLI pinned to core 0,
# clients to core 1 (as bench/load.sh pins them):
#   1. claimcheck batch -j 1 on [lines] small documents (default 10^5): lines/s;
#   2. the batch route, serve on one core (GOMAXPROCS=1), the same file in one
#      request (bench/batchload): lines/s and lines per server CPU-second;
#   3. the execute route, 64 connections for [seconds] (default 10): requests/s and
#      requests per server CPU-second;
#   4. the Python example client (clients/python) on the same file: lines/s;
#   5. a 1 GB body of small lines through the batch route: the server's peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000} secs=${2:-10}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/claimcheck" ./cmd/claimcheck
(cd bench && go build -o "$tmp/batchload" ./batchload)
hz=$(getconf CLK_TCK)
for i in $(seq "$n"); do echo "{\"source\":[1,2,$i],\"claim\":[$i,2,1]}"; done > "$tmp/in.jsonl"

t0=$(date +%s.%N)
taskset -c 0 "$tmp/claimcheck" batch -j 1 multiset-equality-check "$tmp/in.jsonl" > "$tmp/cli.out"
t1=$(date +%s.%N)
cli=$(echo "$n / ($t1 - $t0)" | bc -l)

start() { # args...: serve on core 0, one P
	GOMAXPROCS=1 taskset -c 0 "$tmp/claimcheck" serve -addr 127.0.0.1:0 "$@" 2>"$tmp/serve.err" &
	pid=$! base=""
	for _ in $(seq 50); do
		base=$(sed -n 's/.*listening on //p' "$tmp/serve.err"); [ -n "$base" ] && break; sleep 0.1
	done
}
cpu() { awk '{print $14+$15}' /proc/$pid/stat; }
start
c0=$(cpu)
read -r lines _ _ secs_b _ < <(taskset -c 1 "$tmp/batchload" -mode batch -url "$base" -in "$tmp/in.jsonl")
c1=$(cpu)
route=$(echo "$lines / $secs_b" | bc -l)
route_cpu=$(echo "$lines / (($c1 - $c0) / $hz)" | bc -l)
c0=$(cpu)
read -r reqs _ _ secs_e _ < <(taskset -c 1 "$tmp/batchload" -mode execute -url "$base" -d "${secs}s")
c1=$(cpu)
exec_rps=$(echo "$reqs / $secs_e" | bc -l)
exec_cpu=$(echo "$reqs / (($c1 - $c0) / $hz)" | bc -l)
t0=$(date +%s.%N)
taskset -c 1 python3 clients/python/claimcheck_batch.py "$base" multiset-equality-check 1.0.0 < "$tmp/in.jsonl" > "$tmp/py.out"
t1=$(date +%s.%N)
py=$(echo "$n / ($t1 - $t0)" | bc -l)
cmp -s "$tmp/py.out" "$tmp/cli.out" || { echo "the Python client's answers differ from the CLI's"; exit 1; }
kill $pid; wait $pid 2>/dev/null || true

start -max-batch-lines 100000000
line='{"source":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25],"claim":[25,24,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1]}'
gb_lines=$(( (1 << 30) / (${#line} + 1) ))
{ yes "$line" || true; } | head -n "$gb_lines" | taskset -c 1 curl -sS -N -T - -X POST -H 'Content-Type: application/jsonl' \
	"$base/v1/tools/multiset-equality-check/versions/1.0.0/batch" | wc -l > "$tmp/gb.lines"
rss=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
kill $pid; wait $pid 2>/dev/null || true

printf 'claimcheck batch -j 1      %10.0f lines/s\n' "$cli"
printf 'batch route (1 core)       %10.0f lines/s    %10.0f lines per server CPU-second\n' "$route" "$route_cpu"
printf 'execute route (1 core)     %10.0f requests/s %10.0f requests per server CPU-second\n' "$exec_rps" "$exec_cpu"
printf 'Python client (batch)      %10.0f lines/s\n' "$py"
printf 'ratios: batch route / CLI -j 1 %.2f; batch checks / execute requests per server CPU-second %.1f; Python / route %.2f\n' \
	"$(echo "$route / $cli" | bc -l)" "$(echo "$route_cpu / $exec_cpu" | bc -l)" "$(echo "$py / $route" | bc -l)"
printf '1 GiB body (%d lines, %d answered): peak RSS %.1f MiB\n' "$gb_lines" "$(cat "$tmp/gb.lines")" "$(echo "$rss / 1024" | bc -l)"
