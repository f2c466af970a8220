// eqcheck: native anchors for claimcheck's multiset-equality check.
//
//   eqcheck check MODE FILE...       one verdict line per file:
//                                    "valid", "invalid", "error invalid_input"
//                                    or "error limit_exceeded"
//   eqcheck bench MODE FILE NAME     times MODE on FILE; prints one line in
//                                    `go test -bench` form (clock.h), named NAME
//
// Execute modes read the tool's whole input document, {"source":[...],
// "claim":[...]}, with simdjson's On-Demand API, count, and write the
// output document, as schema.Execute does:
//   od-absl        two absl::flat_hash_map (numbers by double bits, strings
//                  by bytes) and three counters: the plain C++ program
//   od-oa          the open-addressing CountTable of count_table.h
//   od-oa-batch    CountTable, keys hashed and their slots prefetched 32 at a
//                  time before any is probed (the fastest found)
//   dom-parse      simdjson's DOM parse alone: a floor, not a check (bench only)
// Count modes decode the file once, untimed, into two std::vector<Value> and
// time the check alone, as CheckEquality over decoded values is timed:
//   count-absl, count-oa, count-oa-batch (the same three counters)
//
// Semantics, as claimcheck's (docs/contract.md §1, §2): the root is an object
// whose members are exactly "source" and "claim" (an unknown, repeated or
// missing member is invalid_input), each an array of scalars (an array or
// object element is invalid_input); a number is the double nearest its
// literal, -0 equal to 0 (out of a double's range: invalid_input); a string
// is its decoded bytes (simdjson validates UTF-8 and escapes); a string never
// equals a number; equal iff every value occurs as often in both. Execute
// modes allow at most 10,000 elements per array (limit_exceeded), count modes
// any number (claimcheck's Limits raised). Two gaps, which the cross-check's
// inputs avoid: simdjson 3.0.1's On-Demand has no at_end(), so content after
// the root object is not refused; and an array over 10,000 elements is
// refused at its 10,001st element, so a bad element before that one is
// reported instead of the limit (claimcheck checks the length first). An
// invalid verdict's document has no discrepancy member (claimcheck's has).
#include <malloc.h>

#include <limits>

#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "clock.h"
#include "count_table.h"
#include "simdjson.h"

using namespace simdjson;

enum Verdict { kValid, kInvalid, kInvalidInput, kLimitExceeded };
static const char* verdict_name(int v) {
  static const char* names[] = {"valid", "invalid", "error invalid_input", "error limit_exceeded"};
  return names[v];
}

static const long kMaxItems = 10000;  // the descriptor's max_items
static const char* kRef = "ISO/IEC 9075-2:2023 multiset terminology; RFC 8785 (JCS), June 2020";

// ---- the three counters, behind one interface ----
// begin(n): a check whose first array has at most n elements; side(first):
// the array about to be read is the first (it inserts); num, str, scalar:
// count a value by d (+1 source, -1 claim); done(): the verdict.

struct AbslCounter {
  absl::flat_hash_map<uint64_t, int32_t> nums;
  absl::flat_hash_map<std::string_view, int32_t> strs;
  long scalars[3], nonzero;
  void begin(size_t n) {
    nums = {};  // a fresh pair of maps per check, reserved: the plain program
    strs = {};
    nums.reserve(n);
    strs.reserve(n);
    scalars[0] = scalars[1] = scalars[2] = nonzero = 0;
  }
  void side(bool) {}
  void bump(int32_t& c, int d) {
    int32_t o = c;
    c = o + d;
    nonzero += (o == 0) - (o + d == 0);
  }
  void num(double x, int d) {
    x += 0.0;
    uint64_t b;
    memcpy(&b, &x, 8);
    bump(nums[b], d);
  }
  void str(std::string_view s, int d) { bump(strs[s], d); }
  void scalar(int w, int d) {
    long o = scalars[w];
    scalars[w] = o + d;
    nonzero += (o == 0) - (o + d == 0);
  }
  bool done() { return nonzero == 0; }
};

struct OACounter {
  CountTable t;
  bool insert = true;
  void begin(size_t n) { t.reset(n); }
  void side(bool first) { insert = first; }
  void num(double x, int d) { Key k = num_key(x); t.add(k, key_hash(k), d, insert); }
  void str(std::string_view s, int d) { Key k = str_key(s); t.add(k, key_hash(k), d, insert); }
  void scalar(int w, int d) { t.add_scalar(w, d); }
  bool done() { return t.equal(); }
};

struct OABatchCounter {
  enum { B = 32 };
  CountTable t;
  Key keys[B];
  uint64_t hashes[B];
  int deltas[B], n = 0;
  bool insert = true;
  void begin(size_t cap) { t.reset(cap), n = 0; }
  void flush() {
    for (int i = 0; i < n; i++) t.add(keys[i], hashes[i], deltas[i], insert);
    n = 0;
  }
  void side(bool first) { flush(), insert = first; }
  void push(const Key& k, int d) {
    uint64_t h = key_hash(k);
    t.prefetch(h);
    keys[n] = k, hashes[n] = h, deltas[n] = d;
    if (++n == B) flush();
  }
  void num(double x, int d) { push(num_key(x), d); }
  void str(std::string_view s, int d) { push(str_key(s), d); }
  void scalar(int w, int d) { t.add_scalar(w, d); }
  bool done() { flush(); return t.equal(); }
};

// ---- Execute: the document in, the output document out ----

template <class C>
static int read_array(ondemand::value arrv, C& c, int d, bool first, long max_items) {
  ondemand::array arr;
  if (arrv.get_array().get(arr)) return kInvalidInput;
  c.side(first);
  long items = 0;
  for (auto elr : arr) {
    ondemand::value v;
    if (std::move(elr).get(v)) return kInvalidInput;
    if (++items > max_items) return kLimitExceeded;
    ondemand::json_type t;
    if (v.type().get(t)) return kInvalidInput;
    switch (t) {
      case ondemand::json_type::number: {
        double x;
        if (v.get_double().get(x)) return kInvalidInput;
        c.num(x, d);
        break;
      }
      case ondemand::json_type::string: {
        std::string_view s;
        if (v.get_string().get(s)) return kInvalidInput;
        c.str(s, d);
        break;
      }
      case ondemand::json_type::boolean: {
        bool b;
        if (v.get_bool().get(b)) return kInvalidInput;
        c.scalar(b ? 2 : 1, d);
        break;
      }
      case ondemand::json_type::null: {
        bool isnull;
        if (v.is_null().get(isnull) || !isnull) return kInvalidInput;
        c.scalar(0, d);
        break;
      }
      default:
        return kInvalidInput;  // an array or object element
    }
  }
  return kValid;
}

// read_doc reads the document's two arrays into c: source's elements with
// delta +1, claim's with -1.
template <class C>
static int read_doc(ondemand::parser& parser, const padded_string& in, C& c, long max_items) {
  ondemand::document doc;
  if (parser.iterate(in).get(doc)) return kInvalidInput;
  ondemand::object obj;
  if (doc.get_object().get(obj)) return kInvalidInput;
  bool seen[2] = {false, false};
  for (auto fr : obj) {
    ondemand::field f;
    if (std::move(fr).get(f)) return kInvalidInput;
    std::string_view k;
    if (f.unescaped_key().get(k)) return kInvalidInput;
    int which = k == "source" ? 0 : k == "claim" ? 1 : -1;
    if (which < 0 || seen[which]) return kInvalidInput;  // unknown or repeated
    bool first = !seen[1 - which];
    seen[which] = true;
    if (int e = read_array(f.value(), c, which == 0 ? 1 : -1, first, max_items)) return e;
  }
  if (!seen[0] || !seen[1]) return kInvalidInput;
  return kValid;
}

template <class C>
static int execute(ondemand::parser& parser, const padded_string& in, C& c, std::string& out) {
  c.begin(kMaxItems);
  if (int e = read_doc(parser, in, c, kMaxItems)) return e;
  bool eq = c.done();
  out.clear();
  out += eq ? "{\"valid\":true,\"reference_version\":\"" : "{\"valid\":false,\"reason\":\"claim_mismatch\",\"reference_version\":\"";
  out += kRef;
  out += "\"}";
  return eq ? kValid : kInvalid;
}

// ---- Count: the check over values decoded beforehand ----

struct Value {
  enum Tag : uint8_t { Null, False, True, Num, Str } tag;
  double num;
  std::string str;  // the natural C++ form: short strings inline (SSO)
};

// Decoder is read_doc's counter for the count modes: it keeps the values
// instead of counting them, so that both kinds of anchor read a document by
// the same rules.
struct Decoder {
  std::vector<Value> v[2];  // source's, claim's
  void side(bool) {}
  void num(double x, int d) { v[d < 0].push_back(Value{Value::Num, x, {}}); }
  void str(std::string_view s, int d) { v[d < 0].push_back(Value{Value::Str, 0, std::string(s)}); }
  void scalar(int w, int d) { v[d < 0].push_back(Value{Value::Tag(w), 0, {}}); }  // 0 null, 1 false, 2 true
};

static int decode_file(const padded_string& in, std::vector<Value>& src, std::vector<Value>& claim) {
  ondemand::parser parser;
  Decoder dec;
  if (int e = read_doc(parser, in, dec, std::numeric_limits<long>::max())) return e;
  src = std::move(dec.v[0]), claim = std::move(dec.v[1]);
  return kValid;
}

template <class C>
static bool count(C& c, const std::vector<Value>& src, const std::vector<Value>& claim) {
  c.begin(src.size());
  auto side = [&](const std::vector<Value>& xs, int d, bool first) {
    c.side(first);
    for (const Value& v : xs) {
      if (v.tag == Value::Num) c.num(v.num, d);
      else if (v.tag == Value::Str) c.str(v.str, d);
      else c.scalar(v.tag, d);
    }
  };
  side(src, 1, true);
  side(claim, -1, false);
  return c.done();
}

// ---- main ----

[[noreturn]] static void usage() {
  fprintf(stderr, "usage: eqcheck check MODE FILE... | eqcheck bench MODE FILE NAME\n"
                  "MODE: od-absl od-oa od-oa-batch dom-parse count-absl count-oa count-oa-batch\n");
  exit(2);
}

static volatile size_t sink;

template <class C>
static int run(bool bench, const std::string& mode, const char* file, const char* name) {
  padded_string in;
  if (padded_string::load(file).get(in)) {
    fprintf(stderr, "eqcheck: cannot read %s\n", file);
    exit(1);
  }
  C c;
  if (mode.rfind("od-", 0) == 0) {
    ondemand::parser parser;
    std::string out;
    int v = execute(parser, in, c, out);
    if (!bench) return v;
    if (v != kValid) return v;  // only valid documents are timed
    ANCHOR_BENCH(name, 0, { execute(parser, in, c, out); sink += out.size(); });
    return v;
  }
  std::vector<Value> src, claim;
  if (int e = decode_file(in, src, claim)) return e;
  in = padded_string();  // the text is not kept past decoding, as the Go rows keep only values
  malloc_trim(0);        // the parser's memory back to the system before the peak is measured
  bool eq = count(c, src, claim);
  if (bench && eq) ANCHOR_BENCH(name, (long)(src.size() + claim.size()), { sink += count(c, src, claim); });
  return eq ? kValid : kInvalid;
}

static int dispatch(bool bench, const std::string& mode, const char* file, const char* name) {
  std::string m = mode.rfind("count-", 0) == 0 ? mode.substr(6) : mode.rfind("od-", 0) == 0 ? mode.substr(3) : mode;
  if (m == "absl") return run<AbslCounter>(bench, mode, file, name);
  if (m == "oa") return run<OACounter>(bench, mode, file, name);
  if (m == "oa-batch") return run<OABatchCounter>(bench, mode, file, name);
  usage();
}

int main(int argc, char** argv) {
  if (argc < 4) usage();
  std::string cmd = argv[1], mode = argv[2];
  if (cmd == "check") {
    if (mode == "dom-parse") usage();
    for (int i = 3; i < argc; i++) printf("%s %s\n", argv[i], verdict_name(dispatch(false, mode, argv[i], nullptr)));
    return 0;
  }
  if (cmd != "bench" || argc != 5) usage();
  if (mode == "dom-parse") {
    padded_string in;
    if (padded_string::load(argv[3]).get(in)) return 1;
    dom::parser parser;
    dom::element root;
    if (parser.parse(in).get(root)) return 1;
    ANCHOR_BENCH(argv[4], 0, { dom::element r; if (parser.parse(in).get(r)) exit(1); sink += (size_t)r.type(); });
    return 0;
  }
  int v = dispatch(true, mode, argv[3], argv[4]);
  if (v != kValid) {
    fprintf(stderr, "eqcheck: %s: %s, not valid: only valid inputs are timed\n", argv[3], verdict_name(v));
    return 1;
  }
  return 0;
}
