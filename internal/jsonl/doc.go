// Package jsonl is the one engine that answers JSON Lines: `claimcheck
// batch` and the service's batch route both run it, so the bytes each line
// gets have one owner.
//
// [Run] reads lines under a byte cap (an over-long line is discarded as it
// streams and answered with the limit_exceeded error document), answers
// each as `claimcheck run` answers a document of its bytes ([Answer]), and
// writes the answers in input order, one line per input line, while up to
// [Config.Workers] goroutines check chunks of lines in parallel. At most a
// bounded window of chunks is in flight (2 × workers + 2, each of at most
// 256 lines or 256 KiB plus one line), so the memory a run holds is
// bounded by the line cap times the parallelism, whatever the input's
// size; the chunks are made as they are needed, not up front. Workers are
// held at [MaxWorkers]: checks are CPU-bound, so more cannot help.
//
// The hooks of [Config] let a caller share its resources with the run: a
// check slot per chunk (Slot), a memory budget its buffers grow by (Take,
// Give), a flush before every wait (Flush), and the answered lines in order
// (Answered), which is where the CLI keeps its summary and exit code and
// the service its trailers and metrics.
package jsonl
