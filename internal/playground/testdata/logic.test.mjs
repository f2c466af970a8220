// Unit tests of the page's logic: node --test internal/playground/testdata/
// (TestLogicJS in the Go test runs them too). Every table row has a reason.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ancestorPath, charSpan, codePointIndex, divisorSpan, exampleLabel, formatDocument, inputPath,
  locate, makeFragment, parseFragment, parsePointer, rationalDocument, rationalFields,
} from "../assets/logic.mjs";

function rows(table, fn) {
  for (const row of table) {
    if (!row.reason) throw new Error("row without a reason: " + JSON.stringify(row));
    fn(row);
  }
}

test("codePointIndex and charSpan convert code point offsets to UTF-16", () => {
  rows([
    { s: "1 + a", cp: 4, index: 4, span: "a", reason: "ASCII: offsets agree" },
    { s: "😀 + a", cp: 4, index: 5, span: "a", reason: "an astral character before the position is two units" },
    { s: "1 + 😀", cp: 4, index: 4, span: "😀", reason: "the marked character itself is astral: both units" },
    { s: "😀😀x", cp: 2, index: 4, span: "x", reason: "two astral characters" },
    { s: "−1 ÷ a", cp: 5, index: 5, span: "a", reason: "U+2212 and U+00F7 are one unit each" },
    { s: "\ud800 a", cp: 2, index: 2, span: "a", reason: "a lone surrogate counts as one code point, as the tool counts it" },
    { s: "(1", cp: 2, index: 2, span: "", reason: "the end of the expression: an empty span" },
    { s: "(1", cp: 9, index: 2, span: "", reason: "past the end clamps to the end" },
  ], (r) => {
    assert.equal(codePointIndex(r.s, r.cp), r.index, r.reason);
    const sp = charSpan(r.s, r.cp);
    assert.equal(r.s.slice(sp.start, sp.end), r.span, r.reason);
  });
});

test("divisorSpan finds the divisor after the operator", () => {
  rows([
    { e: "1/(2-2) + 1", pos: 1, text: "(2-2)", want: "(2-2)", reason: "the seed example" },
    { e: "1 /  \t0", pos: 2, text: "0", want: "0", reason: "whitespace between operator and divisor is skipped" },
    { e: "1 ÷ (3 - 3)", pos: 2, text: "(3 - 3)", want: "(3 - 3)", reason: "U+00F7 as the operator" },
    { e: "1/2 + 3/0", pos: 7, text: "0", want: "0", reason: "the second division: the position picks it, not the first" },
    { e: "1/0", pos: 1, text: "5", want: null, reason: "an edited expression: no span rather than a wrong one" },
  ], (r) => {
    const sp = divisorSpan(r.e, r.pos, r.text);
    assert.equal(sp && r.e.slice(sp.start, sp.end), r.want, r.reason);
  });
});

test("parsePointer unescapes RFC 6901 tokens", () => {
  rows([
    { p: "", want: [], reason: "the whole document" },
    { p: "/source/3", want: ["source", "3"], reason: "two tokens" },
    { p: "/a~1b/~0/~01", want: ["a/b", "~", "~1"], reason: "~1 is /, ~0 is ~, and ~01 is ~1 (not /)" },
    { p: "/", want: [""], reason: "the empty member name" },
    { p: "source", want: null, reason: "not a pointer" },
  ], (r) => assert.deepEqual(parsePointer(r.p), r.want, r.reason));
});

test("locate maps a pointer to the element's text", () => {
  const doc = '{\n  "source": ["a", "😀", {"x": [1]}, 2.50],\n  "claim": {"left_only": [1, "]", null], "right_only": []},\n' +
    '  "a/b": true, "~": false, "": 0, "d": 1, "d": 2, "esc\\u0061ped": "yes"\n}';
  rows([
    { p: "", want: doc, exact: true, depth: 0, reason: "the root" },
    { p: "/source/0", want: '"a"', exact: true, depth: 2, reason: "a string element" },
    { p: "/source/2", want: '{"x": [1]}', exact: true, depth: 2, reason: "a container after an astral string is skipped whole" },
    { p: "/source/3", want: "2.50", exact: true, depth: 2, reason: "a number keeps its source text" },
    { p: "/claim/left_only/2", want: "null", exact: true, depth: 3, reason: 'a "]" inside a string does not close the array' },
    { p: "/claim/right_only/0", want: "[]", exact: false, depth: 2, reason: "a claim list shorter than the index: the list" },
    { p: "/claim/both", want: '{"left_only": [1, "]", null], "right_only": []}', exact: false, depth: 1, reason: "a missing member: its object" },
    { p: "/a~1b", want: "true", exact: true, depth: 1, reason: "an escaped / in a name" },
    { p: "/~0", want: "false", exact: true, depth: 1, reason: "an escaped ~ in a name" },
    { p: "/", want: "0", exact: true, depth: 1, reason: "the empty name" },
    { p: "/d", want: "2", exact: true, depth: 1, reason: "duplicate names: the last, as JSON.parse" },
    { p: "/escaped", want: '"yes"', exact: true, depth: 1, reason: "names compare after unescaping" },
    { p: "/source/01", want: '["a", "😀", {"x": [1]}, 2.50]', exact: false, depth: 1, reason: "01 is no array index" },
    { p: "/source/0/x", want: '"a"', exact: false, depth: 2, reason: "a scalar has no children" },
  ], (r) => {
    const sp = locate(doc, r.p);
    assert.ok(sp, r.reason);
    assert.equal(doc.slice(sp.start, sp.end), r.want, r.reason);
    assert.equal(sp.exact, r.exact, r.reason);
    assert.equal(sp.depth, r.depth, r.reason);
  });
});

test("locate refuses what it cannot walk", () => {
  rows([
    { text: "", p: "/a", reason: "empty text" },
    { text: '{"a": [1, 2', p: "/a/0", reason: "an unclosed array" },
    { text: '{"a" 1}', p: "/a", reason: "no colon" },
    { text: '{"a": 1}', p: "a", reason: "not a pointer" },
  ], (r) => assert.equal(locate(r.text, r.p), null, r.reason));
});

test("locate skips deep nesting without recursion", () => {
  const deep = '{"x": ' + "[".repeat(200000) + "]".repeat(200000) + ', "y": 7}';
  const sp = locate(deep, "/y");
  assert.equal(deep.slice(sp.start, sp.end), "7");
});

test("fragments round-trip and decode as URI components", () => {
  rows([
    { tool: "multiset-equality-check", input: '{"source":["a b","+","&","=","#","😀"],"claim":[]}', reason: "delimiters, spaces and astral text" },
    { tool: "rational-expression-check", input: rationalDocument("1 − 1/3", "2/3", true), reason: "a rational document with U+2212" },
  ], (r) => {
    const f = makeFragment(r.tool, r.input);
    assert.ok(!/[ &#+]/.test(f.slice(1).replace(/^tool=[^&]*&input=/, "")), r.reason);
    assert.deepEqual(parseFragment(f), { tool: r.tool, input: r.input }, r.reason);
  });
  rows([
    { hash: "#tool=t&input=1+2", want: { tool: "t", input: "1+2" }, reason: "a literal + stays +, unlike a form" },
    { hash: "#tool=t", want: { tool: "t", input: null }, reason: "no input: only open the tool" },
    { hash: "#tool=t&input=%E0%A4%A", want: { tool: "t", input: null }, reason: "a broken escape decodes to nothing" },
    { hash: "", want: { tool: null, input: null }, reason: "no fragment" },
    { hash: "#input=x&other=1&tool=t", want: { tool: "t", input: "x" }, reason: "any order, unknown keys ignored" },
  ], (r) => assert.deepEqual(parseFragment(r.hash), r.want, r.reason));
  assert.equal(parseFragment(makeFragment("t", "a\ud800")).input, "a\ufffd", "a lone surrogate cannot travel in a URI");
});

test("rationalFields reads back exactly the form's documents", () => {
  assert.deepEqual(rationalFields(rationalDocument("1/3", "1/3", false)),
    { expression: "1/3", claimedValue: "1/3", requireCanonical: false });
  rows([
    { text: "not json", reason: "not JSON" },
    { text: "[]", reason: "not an object" },
    { text: '{"expression":"1","claimed_value":"1"}', reason: "a member missing" },
    { text: '{"expression":"1","claimed_value":"1","require_canonical":true,"x":1}', reason: "an extra member" },
    { text: '{"expression":1,"claimed_value":"1","require_canonical":true}', reason: "a number for the expression" },
    { text: '{"expression":"1","claimed_value":"1","require_canonical":"yes"}', reason: "a string for the flag" },
  ], (r) => assert.equal(rationalFields(r.text), null, r.reason));
});

test("formatDocument writes members on lines and arrays inline", () => {
  const v = { left: ["a", 1, null], right: [], claim: { left_only: [true], right_only: ["x\"y"] } };
  const text = formatDocument(v);
  assert.equal(text, '{\n  "left": ["a", 1, null],\n  "right": [],\n  "claim": {\n    "left_only": [true],\n' +
    '    "right_only": ["x\\"y"]\n  }\n}');
  assert.deepEqual(JSON.parse(text), v);
});

test("paths and labels", () => {
  assert.equal(inputPath("multiset-difference-check", "/left_only/0"), "/claim/left_only/0");
  assert.equal(inputPath("multiset-equality-check", "/source/0"), "/source/0");
  assert.equal(ancestorPath("/claim/right_only/0", 2), "/claim/right_only");
  assert.equal(ancestorPath("/claim", 0), "");
  assert.equal(exampleLabel({ output: { valid: true } }, 0), "Example 1: valid");
  assert.equal(exampleLabel({ output: { valid: false, reason: "division_by_zero" } }, 2), "Example 3: division_by_zero");
});
