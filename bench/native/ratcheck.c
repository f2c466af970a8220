// ratcheck: native anchors for claimcheck's rational-expression check, in C
// on GMP.
//
//   ratcheck check MODE FILE...      one line per file: "valid VALUE",
//                                    "invalid REASON VALUE" (value_mismatch,
//                                    not_canonical; division_by_zero with
//                                    VALUE null) or "error CODE"
//                                    (invalid_input, limit_exceeded)
//   ratcheck bench MODE FILE NAME    times MODE on FILE (clock.h)
//
// FILE holds the expression on its first line and the claimed value on its
// second; require_canonical is true. Modes:
//   mpq    mpq_t values, kept in lowest terms by GMP after every operation
//   lazy   mpz numerator/denominator pairs, not reduced (a/b + c/d =
//          (ad + bc)/bd) until a part passes the digit limit, and at the end
//   tier   int64 numerator/denominator in lowest terms with __int128
//          intermediates; an operation whose result does not fit promotes to
//          the lazy pairs (the 64-bit tier a native engineer puts before GMP)
//
// Grammar, limits and check order are the tool's (docs/contract.md §4): the
// expression's text (empty: invalid_input; over 4096 bytes: limit_exceeded;
// not UTF-8: invalid_input), then the claim
// (-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?, else invalid_input; a part over 500
// digits: limit_exceeded), then the whole expression is tokenised (INTEGER
// literals without leading zero, + - * / ( ), U+2212 U+00D7 U+00F7,
// whitespace SP HT LF CR; the first lexical error wins; a literal over 500
// digits and the 1025th token are limit_exceeded), then parsed and evaluated
// in one recursive pass whose evaluation outcome (the first division by zero,
// or a reduced intermediate part over 500 digits, which is limit_exceeded) is
// held until the parse has succeeded, so that a syntax error (or depth 65,
// limit_exceeded) wins over it. Then the value, then the form of the claim.
// Every GMP variable is initialised once and reused between checks.
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

enum { MAX_BYTES = 4096, MAX_TOKENS = 1024, MAX_DEPTH = 64, MAX_DIGITS = 500 };
enum { T_NUM, T_ADD, T_SUB, T_MUL, T_DIV, T_LP, T_RP, T_END };
// outcomes: a verdict or an error
enum { R_VALID, R_MISMATCH, R_NOT_CANONICAL, R_DIV0, E_INVALID, E_LIMIT };
enum { MODE_MPQ, MODE_LAZY, MODE_TIER };

typedef struct {
  int kind, pos, len;
} Tok;

static int mode;
static const char* text;  // the expression
static Tok toks[MAX_TOKENS + 1];
static int ntok, tp, depth;

// ---- step 2: the expression's text ----
static int utf8_valid(const unsigned char* s, int n) {
  for (int i = 0; i < n;) {
    unsigned c = s[i];
    if (c < 0x80) { i++; continue; }
    int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (len == 0 || c > 0xF4 || i + len > n) return 0;
    unsigned cp = c & (0x7F >> len);
    for (int j = 1; j < len; j++) {
      if ((s[i + j] & 0xC0) != 0x80) return 0;
      cp = cp << 6 | (s[i + j] & 0x3F);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
      return 0;
    i += len;
  }
  return 1;
}

// ---- step 5: tokens ----
static int tokenize(const char* s, int n) {
  ntok = 0;
  for (int i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') { i++; continue; }
    if (ntok == MAX_TOKENS) return E_LIMIT;  // the 1025th token
    Tok* t = &toks[ntok++];
    t->pos = i, t->len = 1;
    if (c >= '0' && c <= '9') {
      int j = i + 1;
      if (c == '0') {
        if (j < n && s[j] >= '0' && s[j] <= '9') return E_INVALID;  // leading zero
      } else {
        while (j < n && s[j] >= '0' && s[j] <= '9') j++;
      }
      if (j - i > MAX_DIGITS) return E_LIMIT;
      t->kind = T_NUM, t->len = j - i, i = j;
      continue;
    }
    switch (c) {
      case '+': t->kind = T_ADD; break;
      case '-': t->kind = T_SUB; break;
      case '*': t->kind = T_MUL; break;
      case '/': t->kind = T_DIV; break;
      case '(': t->kind = T_LP; break;
      case ')': t->kind = T_RP; break;
      case 0xE2:  // U+2212 minus sign
        if (i + 2 < n && (unsigned char)s[i + 1] == 0x88 && (unsigned char)s[i + 2] == 0x92) { t->kind = T_SUB, t->len = 3; break; }
        return E_INVALID;
      case 0xC3:  // U+00D7 times, U+00F7 division sign
        if (i + 1 < n && (unsigned char)s[i + 1] == 0x97) { t->kind = T_MUL, t->len = 2; break; }
        if (i + 1 < n && (unsigned char)s[i + 1] == 0xB7) { t->kind = T_DIV, t->len = 2; break; }
        return E_INVALID;
      default:
        return E_INVALID;  // starts no token: a letter, ".", an exponent's "e"...
    }
    i += t->len;
  }
  toks[ntok].kind = T_END;
  return 0;
}

// ---- values: a stack of registers ----
#define NREG (2 * MAX_DEPTH + 8)
static mpq_t q[NREG];             // mpq
static mpz_t zn[NREG], zd[NREG];  // lazy, and tier past 64 bits
static int small[NREG];           // tier: register r holds sn[r]/sd[r]
static int64_t sn[NREG], sd[NREG];
static mpz_t t1, t2, g, limit;  // limit = 10^500: a part is within it iff |x| < limit
static int top;                 // registers in use
static int held;                // the first evaluation outcome: 0, R_DIV0 or E_LIMIT
static char digits[MAX_DIGITS + 1];

static int over(mpz_srcptr x) { return mpz_sizeinbase(x, 10) > MAX_DIGITS && mpz_cmpabs(x, limit) >= 0; }

static void set_digits(mpz_ptr z, const char* p, int n) {
  if (n <= 19) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v = v * 10 + (uint64_t)(p[i] - '0');
    mpz_set_ui(z, v);  // unsigned long is 64 bits here
    return;
  }
  memcpy(digits, p, n);
  digits[n] = 0;
  mpz_set_str(z, digits, 10);
}

static void load(int r, const Tok* t) {
  const char* p = text + t->pos;
  if (mode == MODE_TIER && t->len <= 18) {
    int64_t v = 0;
    for (int i = 0; i < t->len; i++) v = v * 10 + (p[i] - '0');
    small[r] = 1, sn[r] = v, sd[r] = 1;
    return;
  }
  small[r] = 0;
  if (mode == MODE_MPQ) {
    set_digits(mpq_numref(q[r]), p, t->len);
    mpz_set_ui(mpq_denref(q[r]), 1);
  } else {
    set_digits(zn[r], p, t->len);
    mpz_set_ui(zd[r], 1);
  }
}

static void reduce(int r) {
  mpz_gcd(g, zn[r], zd[r]);
  if (mpz_cmp_ui(g, 1) != 0) mpz_divexact(zn[r], zn[r], g), mpz_divexact(zd[r], zd[r], g);
}

typedef unsigned __int128 u128;
typedef __int128 i128;
static int ctz128(u128 x) { return (uint64_t)x ? __builtin_ctzll((uint64_t)x) : 64 + __builtin_ctzll((uint64_t)(x >> 64)); }
static uint64_t gcd64(uint64_t a, uint64_t b) {  // binary GCD
  if (a == 0 || b == 0) return a | b;
  int sh = __builtin_ctzll(a | b);
  a >>= __builtin_ctzll(a);
  do {
    b >>= __builtin_ctzll(b);
    if (a > b) { uint64_t x = a; a = b; b = x; }
    b -= a;
  } while (b);
  return a << sh;
}
static u128 gcd128(u128 a, u128 b) {  // binary GCD on two words
  if (a == 0 || b == 0) return a | b;
  int sh = ctz128(a | b);
  a >>= ctz128(a);
  do {
    b >>= ctz128(b);
    if (a > b) { u128 x = a; a = b; b = x; }
    b -= a;
  } while (b);
  return a << sh;
}

// small_op: a := a op b on int64 parts with 128-bit intermediates; 0 if the
// reduced result does not fit in int64 (the caller promotes).
static int small_op(int op, int a, int b) {
  i128 n, d;
  int64_t an = sn[a], ad = sd[a], bn = sn[b], bd = sd[b];
  switch (op) {
    case T_ADD:
    case T_SUB:
      if (ad == bd) n = (i128)an + (op == T_ADD ? bn : -(i128)bn), d = ad;  // a common denominator
      else n = (i128)an * bd + (op == T_ADD ? 1 : -1) * ((i128)bn * ad), d = (i128)ad * bd;
      break;
    case T_MUL: n = (i128)an * bn, d = (i128)ad * bd; break;
    default:  // T_DIV; bn != 0
      n = (i128)an * bd, d = (i128)ad * bn;
      if (d < 0) n = -n, d = -d;
  }
  u128 un = n < 0 ? (u128)-n : (u128)n;
  if (((un | (u128)d) >> 64) == 0) {  // both parts fit a word: 64-bit GCD and division
    uint64_t a64 = (uint64_t)un, d64 = (uint64_t)d, g64 = gcd64(a64, d64);
    if (g64 > 1) a64 /= g64, d64 /= g64;
    n = n < 0 ? -(i128)a64 : (i128)a64, d = d64;
  } else {
    u128 gg = gcd128(un, (u128)d);
    if (gg > 1) n /= (i128)gg, d /= (i128)gg;
  }
  if (n > INT64_MAX || n < -INT64_MAX || d > INT64_MAX) return 0;
  sn[a] = (int64_t)n, sd[a] = (int64_t)d;
  return 1;
}

static void promote(int r) {
  if (small[r]) mpz_set_si(zn[r], sn[r]), mpz_set_si(zd[r], sd[r]), small[r] = 0;
}

// apply: a := a op b, unless an outcome is already held.
static void apply(int op, int a, int b) {
  if (held) return;
  if (mode == MODE_MPQ) {
    if (op == T_DIV && mpq_sgn(q[b]) == 0) { held = R_DIV0; return; }
    if (op == T_ADD) mpq_add(q[a], q[a], q[b]);
    else if (op == T_SUB) mpq_sub(q[a], q[a], q[b]);
    else if (op == T_MUL) mpq_mul(q[a], q[a], q[b]);
    else mpq_div(q[a], q[a], q[b]);
    if (over(mpq_numref(q[a])) || over(mpq_denref(q[a]))) held = E_LIMIT;
    return;
  }
  if (mode == MODE_TIER) {
    if (op == T_DIV && (small[b] ? sn[b] == 0 : mpz_sgn(zn[b]) == 0)) { held = R_DIV0; return; }
    if (small[a] && small[b] && small_op(op, a, b)) return;  // int64 parts: within the limit
    promote(a), promote(b);
  } else if (op == T_DIV && mpz_sgn(zn[b]) == 0) {
    held = R_DIV0;
    return;
  }
  switch (op) {
    case T_ADD:
    case T_SUB:
      if (mpz_cmp(zd[a], zd[b]) == 0) {
        (op == T_ADD ? mpz_add : mpz_sub)(zn[a], zn[a], zn[b]);
      } else {
        mpz_mul(t1, zn[a], zd[b]);
        mpz_mul(t2, zn[b], zd[a]);
        (op == T_ADD ? mpz_add : mpz_sub)(zn[a], t1, t2);
        mpz_mul(zd[a], zd[a], zd[b]);
      }
      break;
    case T_MUL:
      mpz_mul(zn[a], zn[a], zn[b]);
      mpz_mul(zd[a], zd[a], zd[b]);
      break;
    default:
      mpz_mul(zn[a], zn[a], zd[b]);
      mpz_mul(zd[a], zd[a], zn[b]);
      if (mpz_sgn(zd[a]) < 0) mpz_neg(zn[a], zn[a]), mpz_neg(zd[a], zd[a]);
  }
  // The limit is on the reduced value: reduce only when a part is over it.
  if (over(zn[a]) || over(zd[a])) {
    reduce(a);
    if (over(zn[a]) || over(zd[a])) held = E_LIMIT;
  }
}

static void negate(int r) {
  if (held) return;
  if (mode == MODE_MPQ) mpq_neg(q[r], q[r]);
  else if (small[r]) sn[r] = -sn[r];
  else mpz_neg(zn[r], zn[r]);
}

// ---- step 6 and 7: parse and evaluate; 0, E_INVALID or E_LIMIT ----
static int expr(void);
static int unary(void) {
  int e, k = toks[tp].kind;
  if (k == T_SUB) {
    if (++depth > MAX_DEPTH) return E_LIMIT;
    tp++;
    if ((e = unary())) return e;
    depth--;
    negate(top - 1);
    return 0;
  }
  if (k == T_NUM) {
    if (!held) load(top, &toks[tp]);
    top++, tp++;
    return 0;
  }
  if (k == T_LP) {
    if (++depth > MAX_DEPTH) return E_LIMIT;
    tp++;
    if ((e = expr())) return e;
    if (toks[tp].kind != T_RP) return E_INVALID;
    tp++, depth--;
    return 0;
  }
  return E_INVALID;
}
static int term(void) {
  int e;
  if ((e = unary())) return e;
  while (toks[tp].kind == T_MUL || toks[tp].kind == T_DIV) {
    int op = toks[tp++].kind;
    if ((e = unary())) return e;
    apply(op, top - 2, top - 1), top--;
  }
  return 0;
}
static int expr(void) {
  int e;
  if ((e = term())) return e;
  while (toks[tp].kind == T_ADD || toks[tp].kind == T_SUB) {
    int op = toks[tp++].kind;
    if ((e = term())) return e;
    apply(op, top - 2, top - 1), top--;
  }
  return 0;
}

// ---- step 3: the claim ----
static mpz_t cn, cd;
static int claim_slash, claim_neg;
static int digits_at(const char* c, int i, int n) {  // the end of [1-9][0-9]* at i, or -1
  if (!(i < n && c[i] >= '1' && c[i] <= '9')) return -1;
  while (i < n && c[i] >= '0' && c[i] <= '9') i++;
  return i;
}
static int parse_claim(const char* c, int n) {
  int i = 0, ne, ds = 0, de = 0;
  claim_neg = i < n && c[i] == '-';
  i += claim_neg;
  int ns = i;
  ne = i < n && c[i] == '0' ? i + 1 : digits_at(c, i, n);
  if (ne < 0) return E_INVALID;
  claim_slash = ne < n && c[ne] == '/';
  if (claim_slash) {
    ds = ne + 1, de = digits_at(c, ds, n);
    if (de < 0) return E_INVALID;
  }
  if ((claim_slash ? de : ne) != n) return E_INVALID;
  if (ne - ns > MAX_DIGITS || de - ds > MAX_DIGITS) return E_LIMIT;
  set_digits(cn, c + ns, ne - ns);
  if (claim_neg) mpz_neg(cn, cn);
  if (claim_slash) set_digits(cd, c + ds, de - ds);
  else mpz_set_ui(cd, 1);
  return 0;
}

// check: the outcome; the value is in register 0 (zn/zd, or q, or sn/sd).
static int check(const char* e, int en, const char* c, int cl) {
  int r;
  if (en == 0 || !utf8_valid((const unsigned char*)e, en)) return en > MAX_BYTES ? E_LIMIT : E_INVALID;
  if (en > MAX_BYTES) return E_LIMIT;
  if ((r = parse_claim(c, cl))) return r;
  text = e;
  if ((r = tokenize(e, en))) return r;
  tp = depth = top = held = 0;
  if ((r = expr())) return r;
  if (toks[tp].kind != T_END) return E_INVALID;
  if (held) return held;
  mpz_srcptr vn, vd;
  if (mode == MODE_TIER && small[0]) {
    if (mpz_cmp_si(cn, sn[0]) == 0 && mpz_cmp_si(cd, sd[0]) == 0)
      return claim_slash == (sd[0] != 1) && !(claim_neg && sn[0] == 0) ? R_VALID : R_NOT_CANONICAL;
    promote(0);  // rare: compare by cross-multiplying below
  }
  if (mode == MODE_MPQ) {
    vn = mpq_numref(q[0]), vd = mpq_denref(q[0]);
  } else {
    reduce(0);
    vn = zn[0], vd = zd[0];
  }
  if (mpz_cmp(vn, cn) == 0 && mpz_cmp(vd, cd) == 0)  // the same parts: the value; the form?
    return claim_slash == (mpz_cmp_ui(vd, 1) != 0) && !(claim_neg && mpz_sgn(cn) == 0) ? R_VALID : R_NOT_CANONICAL;
  mpz_mul(t1, vn, cd);
  mpz_mul(t2, cn, vd);
  return mpz_cmp(t1, t2) == 0 ? R_NOT_CANONICAL : R_MISMATCH;
}

static void print_value(void) {
  if (mode == MODE_TIER && small[0]) promote(0);
  mpz_srcptr vn = mode == MODE_MPQ ? mpq_numref(q[0]) : zn[0], vd = mode == MODE_MPQ ? mpq_denref(q[0]) : zd[0];
  mpz_out_str(stdout, 10, vn);
  if (mpz_cmp_ui(vd, 1) != 0) putchar('/'), mpz_out_str(stdout, 10, vd);
}

static char buf[2 * MAX_BYTES + 2 * MAX_DIGITS + 64];
static int load_file(const char* path, char** e, int* en, char** c, int* cl) {
  FILE* f = fopen(path, "rb");
  if (!f) return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char* nl = memchr(buf, '\n', n);
  if (!nl) return -1;
  *nl = 0;
  *e = buf, *en = (int)(nl - buf), *c = nl + 1;
  char* nl2 = strchr(*c, '\n');
  if (nl2) *nl2 = 0;
  *cl = (int)strlen(*c);
  return 0;
}

static volatile long sink;

int main(int argc, char** argv) {
  if (argc < 4) goto usage;
  if (!strcmp(argv[2], "mpq")) mode = MODE_MPQ;
  else if (!strcmp(argv[2], "lazy")) mode = MODE_LAZY;
  else if (!strcmp(argv[2], "tier")) mode = MODE_TIER;
  else goto usage;
  mpz_init(limit);
  mpz_ui_pow_ui(limit, 10, MAX_DIGITS);
  for (int i = 0; i < NREG; i++) mpq_init(q[i]), mpz_init(zn[i]), mpz_init(zd[i]);
  mpz_inits(t1, t2, g, cn, cd, NULL);
  char *e, *c;
  int en, cl;
  if (!strcmp(argv[1], "check")) {
    for (int i = 3; i < argc; i++) {
      if (load_file(argv[i], &e, &en, &c, &cl)) { fprintf(stderr, "ratcheck: cannot read %s\n", argv[i]); return 1; }
      int r = check(e, en, c, cl);
      static const char* what[] = {"valid", "invalid value_mismatch", "invalid not_canonical", "invalid division_by_zero null",
                                   "error invalid_input", "error limit_exceeded"};
      printf("%s %s", argv[i], what[r]);
      if (r <= R_NOT_CANONICAL) putchar(' '), print_value();
      putchar('\n');
    }
    return 0;
  }
  if (strcmp(argv[1], "bench") || argc != 5) goto usage;
  if (load_file(argv[3], &e, &en, &c, &cl)) return 1;
  if (check(e, en, c, cl) != R_VALID) { fprintf(stderr, "ratcheck: %s: not valid: only valid inputs are timed\n", argv[3]); return 1; }
  ANCHOR_BENCH(argv[4], 0, { sink += check(e, en, c, cl); });
  return 0;
usage:
  fprintf(stderr, "usage: ratcheck check mpq|lazy|tier FILE... | ratcheck bench mpq|lazy|tier FILE NAME\n");
  return 2;
}
