// The anchors' timing loop, shared by the C and C++ programs. It prints one
// line in the form of `go test -bench` output, so that bench/ratios reads the
// native rows as it reads the Go ones:
//
//   BenchmarkExecute/10000/native-od-absl  2400  125000 ns/op  1234 peak-RSS-kB
//
// The loop calibrates on the monotonic clock (doubling a run until it takes
// at least 20 ms) and then times one run of about ANCHOR_MS milliseconds
// (default 300), as a Go benchmark times one run of about -benchtime. With
// ANCHOR_ITERS=N it runs exactly N operations, uncalibrated (CI's quick
// mode). Peak RSS is the process's peak while the loop runs, input included
// (anchor_reset_peak).
#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>

static inline double anchor_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline long anchor_env_long(const char* k, long d) {
  const char* v = getenv(k);
  return v && *v ? atol(v) : d;
}

// anchor_reset_peak resets the process's peak RSS to its current RSS
// (Linux: "5" into /proc/self/clear_refs), so that the peak measured after
// the loop is that of the timed work, its resident input included, not of
// reading the input.
static inline void anchor_reset_peak(void) {
  FILE* f = fopen("/proc/self/clear_refs", "w");
  if (f) fputs("5", f), fclose(f);
}

// anchor_peak_rss_kb is VmHWM of /proc/self/status, or getrusage's
// ru_maxrss (the whole run's peak) where there is none.
static inline long anchor_peak_rss_kb(void) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmHWM: %ld kB", &kb) == 1) break;
  if (f) fclose(f);
  if (kb >= 0) return kb;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;  // kilobytes on Linux
}

// ANCHOR_BENCH(name, items, op): times the statement op. items > 0 adds an
// ns/item metric (ns/op divided by items, the elements of both arrays).
#define ANCHOR_BENCH(name, items, ...)                                           \
  do {                                                                           \
    long n_ = anchor_env_long("ANCHOR_ITERS", 0);                                \
    if (n_ <= 0) {                                                               \
      double target_ = anchor_env_long("ANCHOR_MS", 300) * 1e6;                  \
      long k_ = 1;                                                               \
      for (;;) {                                                                 \
        double t0_ = anchor_now_ns();                                            \
        for (long i_ = 0; i_ < k_; i_++) { __VA_ARGS__; }                        \
        double el_ = anchor_now_ns() - t0_;                                      \
        if (el_ >= 20e6 || k_ >= (1L << 40)) {                                   \
          n_ = (long)(k_ * target_ / (el_ > 1 ? el_ : 1));                       \
          break;                                                                 \
        }                                                                        \
        k_ *= 2;                                                                 \
      }                                                                          \
      if (n_ < 1) n_ = 1;                                                        \
    }                                                                            \
    anchor_reset_peak();                                                         \
    double t0_ = anchor_now_ns();                                                \
    for (long i_ = 0; i_ < n_; i_++) { __VA_ARGS__; }                            \
    double ns_ = (anchor_now_ns() - t0_) / (double)n_;                           \
    printf("%s\t%ld\t%.1f ns/op", (name), n_, ns_);                              \
    if ((items) > 0) printf("\t%.2f ns/item", ns_ / (double)(items));            \
    printf("\t%ld peak-RSS-kB\n", anchor_peak_rss_kb());                         \
    fflush(stdout);                                                              \
  } while (0)
