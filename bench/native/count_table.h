// An open-addressing counting table for JSON scalars: what a performance
// engineer writes instead of a general hash map for this one job.
//
// A key is two words and a tag word. A number is its double's bits, with -0
// folded into +0 (so 1, 1.0 and 1e0 are one key and -0 is 0); a string of
// at most 16 bytes is its bytes in two words, with its length in the tag (so
// the encoding is injective); a longer string is a pointer and a length,
// compared with memcmp. A string's tag never equals a number's, so a string
// never equals a number. null, false and true are three counters outside the
// table.
//
// Each slot holds a signed count: the source adds 1, the claim subtracts 1.
// `nonzero` counts the keys whose count is not 0, kept as the counts change,
// so the verdict needs no final scan: equal iff nonzero == 0 and no claim
// value was missing from the table. The claim never inserts (a value the
// source lacks already decides "not equal"), so a table sized from the
// source's length never grows. A generation number per slot makes clearing
// the table between checks free.
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <string_view>

enum : uint32_t { kNum = 1u << 24, kShortStr = 2u << 24, kLongStr = 3u << 24 };

struct Key {
  uint64_t a, b;
  uint32_t tag;
};

static inline uint64_t mix(uint64_t a, uint64_t b) {
  __uint128_t r = (__uint128_t)(a ^ 0x9E3779B97F4A7C15ull) * (b ^ 0xC2B2AE3D27D4EB4Full);
  return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static inline Key num_key(double d) {
  d += 0.0;  // -0 + 0 is +0 (IEEE-754; not built with -ffast-math)
  Key k;
  memcpy(&k.a, &d, 8);
  k.b = 0;
  k.tag = kNum;
  return k;
}

static inline Key str_key(std::string_view s) {
  Key k{0, 0, 0};
  size_t n = s.size();
  if (n > 16) {
    k.a = (uint64_t)(uintptr_t)s.data();
    k.b = n;
    k.tag = kLongStr;
    return k;
  }
  // Up to 16 bytes as two words, with fixed-size loads that may overlap but
  // never read outside the string; with the length in the tag, two strings
  // have the same words only if they are the same bytes.
  const char* p = s.data();
  if (n >= 8) {
    uint64_t tail;
    memcpy(&k.a, p, 8);
    memcpy(&tail, p + n - 8, 8);
    k.b = n == 8 ? 0 : tail >> (8 * (16 - n));  // bytes 8..n-1
  } else if (n >= 4) {
    uint32_t lo, hi;
    memcpy(&lo, p, 4);
    memcpy(&hi, p + n - 4, 4);
    k.a = lo | (uint64_t)(hi >> (8 * (8 - n))) << 32;  // bytes 0..3, then 4..n-1
  } else if (n > 0) {
    k.a = (uint8_t)p[0] | (uint64_t)(uint8_t)p[n / 2] << 8 | (uint64_t)(uint8_t)p[n - 1] << 16;
  }
  k.tag = kShortStr | (uint32_t)n;
  return k;
}

static inline uint64_t key_hash(const Key& k) {
  if (k.tag == kLongStr) {
    const char* p = (const char*)(uintptr_t)k.a;
    uint64_t n = k.b, h = 0x243F6A8885A308D3ull ^ n;
    for (; n >= 8; n -= 8, p += 8) {
      uint64_t w;
      memcpy(&w, p, 8);
      h = mix(h, w);
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    return mix(h, w ^ 0xA5A5A5A5ull);
  }
  return mix(k.a ^ ((uint64_t)k.tag << 32), k.b + 0x632BE59BD9B4E019ull);
}

struct CountTable {
  struct Slot {  // 32 bytes: two per cache line
    uint64_t a, b;
    uint32_t tag, gen;
    int32_t count, pad;
  };
  Slot* slots = nullptr;
  size_t mask = 0;
  int shift = 64;
  uint32_t gen = 0;
  long nonzero = 0, missing = 0;
  long scalars[3] = {0, 0, 0};  // null, false, true

  ~CountTable() { free(slots); }

  // reset empties the table for a check whose source has n elements: a power
  // of two of at least 4n/3 slots, kept between checks of the same size.
  void reset(size_t n) {
    size_t cap = 16;
    int lg = 4;
    while (cap < n + n / 3 + 1) cap <<= 1, lg++;
    if (cap != mask + 1) {
      free(slots);
      slots = (Slot*)aligned_alloc(64, cap * sizeof(Slot));
      memset(slots, 0, cap * sizeof(Slot));
      mask = cap - 1;
      shift = 64 - lg;
      gen = 0;
    }
    if (++gen == 0) {
      memset(slots, 0, (mask + 1) * sizeof(Slot));
      gen = 1;
    }
    nonzero = missing = 0;
    scalars[0] = scalars[1] = scalars[2] = 0;
  }

  size_t home(uint64_t h) const { return (size_t)(h >> shift); }
  void prefetch(uint64_t h) const { __builtin_prefetch(&slots[home(h)], 1, 3); }

  static bool same(const Slot& s, const Key& k) {
    if (s.tag != k.tag) return false;
    if (k.tag != kLongStr) return s.a == k.a && s.b == k.b;
    return s.b == k.b && (s.a == k.a || memcmp((const void*)(uintptr_t)s.a, (const void*)(uintptr_t)k.a, k.b) == 0);
  }

  void bump(int32_t& c, int d) {
    int32_t o = c;
    c = o + d;
    nonzero += (o == 0) - (o + d == 0);
  }

  // add counts k (hash h) by d; the source inserts, the claim only finds.
  void add(const Key& k, uint64_t h, int d, bool insert) {
    for (size_t i = home(h);; i = (i + 1) & mask) {
      Slot& s = slots[i];
      if (s.gen != gen) {
        if (!insert) {
          missing++;
          return;
        }
        s.a = k.a, s.b = k.b, s.tag = k.tag, s.gen = gen, s.count = d;
        nonzero++;
        return;
      }
      if (same(s, k)) {
        bump(s.count, d);
        return;
      }
    }
  }

  // add_scalar counts null (0), false (1) or true (2) by d.
  void add_scalar(int which, int d) {
    long o = scalars[which];
    scalars[which] = o + d;
    nonzero += (o == 0) - (o + d == 0);
  }

  bool equal() const { return nonzero == 0 && missing == 0; }
};
