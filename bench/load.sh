#!/usr/bin/env bash
# Bounded load run on loopback: claimcheck serve against a trivial net/http
# handler (bench/trivial, on the same http.Server settings), the same small
# execute request through wrk, the server pinned to one core and wrk to
# another (unpinned runs on 2 cores swing widely). The two servers take
# turns, rounds times, so that a neighbour's load hits both alike. Prints,
# per run, requests/s and the server's CPU time per request (utime+stime
# from /proc); then the median over the rounds of the ratio of requests/s,
# and of the ratio of CPU per request (trivial's over claimcheck's: the
# ratio of requests/s when the server's core is all its own). Needs wrk and
# taskset (Debian: wrk, util-linux).
# Usage: bench/load.sh [seconds] [connections] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10} conns=${2:-64} rounds=${3:-3}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/claimcheck" ./cmd/claimcheck
(cd bench && go build -o "$tmp/trivial" ./trivial)
doc='{"source":[1,2,3],"claim":[3,2,1]}'
printf 'wrk.method = "POST"\nwrk.body = %s\nwrk.headers["Content-Type"] = "application/json"\n' "'$doc'" > "$tmp/post.lua"
hz=$(getconf CLK_TCK)

run() { # name command...: start it on core 0, load it from core 1
	local name=$1; shift
	taskset -c 0 "$@" -addr 127.0.0.1:0 2>"$tmp/$name.err" &
	local pid=$! base=""
	for _ in $(seq 50); do
		base=$(sed -n 's/.*listening on //p' "$tmp/$name.err"); [ -n "$base" ] && break; sleep 0.1
	done
	local url=$base/v1/tools/multiset-equality-check/versions/1.0.0/execute
	local t0; t0=$(awk '{print $14+$15}' /proc/$pid/stat)
	taskset -c 1 wrk -t1 -c"$conns" -d"${secs}s" -s "$tmp/post.lua" "$url" > "$tmp/$name.wrk"
	local t1; t1=$(awk '{print $14+$15}' /proc/$pid/stat)
	kill $pid; wait $pid 2>/dev/null || true
	local rps reqs cpu
	rps=$(awk '/Requests\/sec/ {print $2}' "$tmp/$name.wrk")
	reqs=$(awk '/requests in/ {print $1}' "$tmp/$name.wrk")
	cpu=$(echo "($t1 - $t0) * 1000 / $hz / $reqs" | bc -l)
	local errs; errs=$(grep -E "Non-2xx|Socket errors" "$tmp/$name.wrk" || true)
	printf '%-10s %10s req/s  %8.4f ms CPU/request  %s\n' "$name" "$rps" "$cpu" "$errs"
	echo "$rps $cpu" > "$tmp/$name.last"
}
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
for _ in $(seq "$rounds"); do
	run trivial "$tmp/trivial"
	run claimcheck "$tmp/claimcheck" serve
	read -r trps tcpu < "$tmp/trivial.last"
	read -r crps ccpu < "$tmp/claimcheck.last"
	echo "$crps / $trps" | bc -l >> "$tmp/rps.ratios"
	echo "$tcpu / $ccpu" | bc -l >> "$tmp/cpu.ratios"
done
printf 'ratio claimcheck/trivial, median of %d rounds: requests/s %.2f, CPU per request (trivial/claimcheck) %.2f\n' \
	"$rounds" "$(median < "$tmp/rps.ratios")" "$(median < "$tmp/cpu.ratios")"
