// Package bench measures claimcheck beside what its users would pick
// instead, on identical seeded inputs, in one run. It is a module of its own
// so that the peers (testify, go-cmp, goccy/go-json, bytedance/sonic,
// minio/simdjson-go) never enter the library's go.mod.
//
// Run ./run.sh for the table in docs/performance.md, which a full run rewrites.
package bench
