// The playground's pure functions: positions, JSON Pointer spans, deep links
// and document formatting. Nothing here touches the DOM, so node --test
// covers all of it (../testdata/logic.test.mjs); app.mjs does the drawing.
//
// Spans are {start, end}: UTF-16 indices into a JS string, end exclusive.

const WHITESPACE = " \t\n\r"; // the only whitespace of JSON and of expressions

// codePointIndex returns the UTF-16 index of code point offset cp in s (the
// tools count positions in code points; JS strings index UTF-16 units). An
// offset at or past the end gives s.length. A lone surrogate counts as one
// code point, as the tools count a lone-surrogate escape.
export function codePointIndex(s, cp) {
  let i = 0;
  for (let n = 0; n < cp && i < s.length; n++) {
    i += isPair(s, i) ? 2 : 1;
  }
  return i;
}

function isPair(s, i) {
  const hi = s.charCodeAt(i);
  const lo = s.charCodeAt(i + 1);
  return hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff;
}

// charSpan returns the span of the code point at offset cp: one or two
// units, or an empty span at the end of s (an expression that ends early).
export function charSpan(s, cp) {
  const start = codePointIndex(s, cp);
  if (start >= s.length) return { start: s.length, end: s.length };
  return { start, end: start + (isPair(s, start) ? 2 : 1) };
}

// divisorSpan returns the span of a division's divisor: the tool reports the
// operator's code point position and the divisor's exact source text, which
// starts at the first non-whitespace character after the operator. It
// returns null when the text is not there (the expression was edited).
export function divisorSpan(expression, position, divisorText) {
  let i = codePointIndex(expression, position) + 1; // "/" and "÷" are one unit
  while (i < expression.length && WHITESPACE.includes(expression[i])) i++;
  if (divisorText === "" || !expression.startsWith(divisorText, i)) return null;
  return { start: i, end: i + divisorText.length };
}

// parsePointer splits an RFC 6901 JSON Pointer into its unescaped reference
// tokens ("" is the whole document); null if it is not a pointer.
export function parsePointer(pointer) {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return null;
  // ~1 before ~0, so "~01" is "~1" (RFC 6901 section 4).
  return pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

// locate finds the element a JSON Pointer names in a JSON text and returns
// {start, end, exact, depth}: the span of that element's text, or, when the
// element is not there (a claim list shorter than the index, a missing
// member), the span of its deepest ancestor that is, with exact false; depth
// counts the pointer's tokens that were found. It returns null for
// a pointer that is not one or a text too malformed to walk. Of duplicate
// member names the last counts, as JSON.parse does.
//
// It reads only what it must: the containers on the path are walked member
// by member and every other value is skipped by matching brackets, without
// recursion, so however deep the text, it costs a pass per pointer token.
export function locate(text, pointer) {
  const tokens = parsePointer(pointer);
  if (tokens === null) return null;
  try {
    let start = skipWhitespace(text, 0);
    let end = skipValue(text, start);
    for (const [depth, token] of tokens.entries()) {
      const child = text[start] === "{" ? member(text, start, token)
        : text[start] === "[" ? element(text, start, token)
        : -1;
      if (child < 0) return { start, end, exact: false, depth };
      start = child;
      end = skipValue(text, start);
    }
    return { start, end, exact: true, depth: tokens.length };
  } catch (e) {
    if (e instanceof Malformed) return null;
    throw e;
  }
}

class Malformed extends Error {}

// member returns the start of the value of the last member named name in the
// object at i, or -1.
function member(text, i, name) {
  let found = -1;
  i = skipWhitespace(text, i + 1);
  if (text[i] === "}") return -1;
  for (;;) {
    if (text[i] !== '"') throw new Malformed();
    const keyEnd = skipString(text, i);
    let key;
    try {
      key = JSON.parse(text.slice(i, keyEnd));
    } catch {
      key = null; // a bad escape: a name no pointer token can equal
    }
    i = skipWhitespace(text, keyEnd);
    if (text[i] !== ":") throw new Malformed();
    i = skipWhitespace(text, i + 1);
    if (key === name) found = i;
    i = skipWhitespace(text, skipValue(text, i));
    if (text[i] === "}") return found;
    if (text[i] !== ",") throw new Malformed();
    i = skipWhitespace(text, i + 1);
  }
}

// element returns the start of element number token of the array at i, or -1.
function element(text, i, token) {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) return -1;
  const want = Number(token);
  i = skipWhitespace(text, i + 1);
  if (text[i] === "]") return -1;
  for (let n = 0; ; n++) {
    if (n === want) return i;
    i = skipWhitespace(text, skipValue(text, i));
    if (text[i] === "]") return -1;
    if (text[i] !== ",") throw new Malformed();
    i = skipWhitespace(text, i + 1);
  }
}

function skipWhitespace(text, i) {
  while (i < text.length && WHITESPACE.includes(text[i])) i++;
  return i;
}

// skipString returns the index past the string literal starting at i.
function skipString(text, i) {
  for (i++; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  throw new Malformed();
}

// skipValue returns the index past the value starting at i: a container by
// counting brackets outside strings, a scalar up to the next delimiter.
function skipValue(text, i) {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === "{" || c === "[") {
    let depth = 0;
    while (i < text.length) {
      const d = text[i];
      if (d === '"') {
        i = skipString(text, i);
        continue;
      }
      if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") {
        if (--depth === 0) return i + 1;
      }
      i++;
    }
    throw new Malformed();
  }
  const start = i;
  while (i < text.length && !WHITESPACE.includes(text[i]) && !",:]}[{\"".includes(text[i])) i++;
  if (i === start) throw new Malformed();
  return i;
}

// parseFragment reads a deep link's fragment, "#tool=ID&input=URI-encoded
// JSON", into {tool, input}; a missing or undecodable part is null.
// Parameters are split at "&" and decoded with decodeURIComponent (not as a
// form, so a literal "+" stays "+").
export function parseFragment(hash) {
  const out = { tool: null, input: null };
  for (const part of hash.replace(/^#/, "").split("&")) {
    const eq = part.indexOf("=");
    const key = eq < 0 ? part : part.slice(0, eq);
    if (key !== "tool" && key !== "input") continue;
    try {
      out[key] = decodeURIComponent(part.slice(eq + 1));
    } catch {
      out[key] = null;
    }
  }
  return out;
}

// makeFragment is parseFragment's inverse. A lone surrogate in input, which
// no URI can carry, is replaced by U+FFFD.
export function makeFragment(tool, input) {
  const wellFormed = input.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
  return "#tool=" + encodeURIComponent(tool) + "&input=" + encodeURIComponent(wellFormed);
}

// rationalDocument is the rational tool's input document for the form's
// three fields.
export function rationalDocument(expression, claimedValue, requireCanonical) {
  return JSON.stringify({ expression, claimed_value: claimedValue, require_canonical: requireCanonical });
}

// rationalFields reads a rational input document back into the form's
// fields, {expression, claimedValue, requireCanonical}, or null when the
// text is not such a document (not JSON, other members, other types).
export function rationalFields(text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const keys = Object.keys(v).sort().join(",");
  if (keys !== "claimed_value,expression,require_canonical") return null;
  if (typeof v.expression !== "string" || typeof v.claimed_value !== "string" ||
    typeof v.require_canonical !== "boolean") return null;
  return { expression: v.expression, claimedValue: v.claimed_value, requireCanonical: v.require_canonical };
}

// formatDocument writes a multiset input document for the editor: one member
// per line, arrays of scalars on one line.
export function formatDocument(value, indent = "") {
  if (Array.isArray(value)) return "[" + value.map((v) => formatDocument(v, indent)).join(", ") + "]";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = indent + "  ";
  const members = Object.entries(value).map(([k, v]) => inner + JSON.stringify(k) + ": " + formatDocument(v, inner));
  return members.length === 0 ? "{}" : "{\n" + members.join(",\n") + "\n" + indent + "}";
}

// ancestorPath returns the pointer of pointer's first depth tokens, the
// element locate found when the one asked for is not there.
export function ancestorPath(pointer, depth) {
  return depth === 0 ? "" : pointer.split("/").slice(0, depth + 1).join("/");
}

// inputPath turns a discrepancy path into a pointer into the input document:
// the difference tool's paths are relative to the claim member.
export function inputPath(tool, path) {
  return tool === "multiset-difference-check" ? "/claim" + path : path;
}

// exampleLabel names a descriptor example by its expected verdict.
export function exampleLabel(example, i) {
  const out = example.output ?? {};
  const verdict = out.error ? out.error.code : out.valid ? "valid" : out.reason ?? "not valid";
  return "Example " + (i + 1) + ": " + verdict;
}
