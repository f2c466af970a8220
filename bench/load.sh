#!/usr/bin/env bash
# Bounded load run on loopback: claimcheck serve against a trivial net/http
# handler (bench/trivial), the same small execute request through wrk, the
# server pinned to one core and wrk to another (unpinned runs on 2 cores
# swing widely). Prints requests/s, the ratio, and the server's CPU time
# per request (utime+stime from /proc). Needs wrk and taskset (Debian: wrk,
# util-linux). Usage: bench/load.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10} conns=${2:-64}
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
	local rps reqs
	rps=$(awk '/Requests\/sec/ {print $2}' "$tmp/$name.wrk")
	reqs=$(awk '/requests in/ {print $1}' "$tmp/$name.wrk")
	local errs; errs=$(grep -E "Non-2xx|Socket errors" "$tmp/$name.wrk" || true)
	printf '%-10s %10s req/s  %8.4f ms CPU/request  %s\n' "$name" "$rps" \
		"$(echo "($t1 - $t0) * 1000 / $hz / $reqs" | bc -l)" "$errs"
	echo "$rps" > "$tmp/$name.rps"
}
run trivial "$tmp/trivial"
run claimcheck "$tmp/claimcheck" serve
printf 'ratio claimcheck/trivial: %.2f\n' "$(echo "$(cat "$tmp/claimcheck.rps") / $(cat "$tmp/trivial.rps")" | bc -l)"
