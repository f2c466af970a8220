// Package jsontape is claimcheck's strict JSON reader. [Parse] checks a
// whole document against the RFC 8259 grammar in one pass, without
// recursion, and records a flat tape of the values near the root (byte
// spans, no decoding); the tool decoders in package schema, the multiset
// checks and the MCP server walk that tape in the order the contract
// reports errors.
//
// The package owns the document's structure: values, containers, commas,
// colons, and which values are recorded ([Options]). What a literal is (a
// number, a string and its escapes) and what white space is are package
// jsonwire's, which this reader calls; the grammar error messages are this
// package's ([SyntaxError]), each written once.
//
// # What is a grammar error
//
// A grammar error is reported at path "" before anything else (the first
// reading rule of docs/contract.md): empty input, trailing data, a byte
// order mark, unescaped U+0000–U+001F in a string, a bad escape, a
// non-ASCII byte outside a string, NaN, Infinity, 01, +1, .5, 1., and
// every other deviation from the grammar. What is not (the second rule),
// and is left to the decoders: invalid UTF-8 inside a string, a
// lone-surrogate escape, a number out of double range, a duplicate member
// name.
//
// # Guarantees
//
//   - Nesting depth is never an error and costs no recursion: levels below
//     the recorded depth cost one bit each.
//   - Errors and their offsets do not depend on the options, nor on which
//     path (the general loop or the run of scalars) read a value.
//   - A number element's value, when the reader gives one ([HasNum]), is
//     the double strconv.ParseFloat gives for its literal.
//   - A [Doc] holds spans of the text it was parsed from, never a copy;
//     [Doc.Reset] drops that reference and keeps the tape's memory.
//
// # Choice of reader
//
// This scanner, not the jsontext package of encoding/json/v2 (module
// github.com/go-json-experiment/json, which has no tagged release; measured
// at v0.0.0-20260213210345-44df1a37e875, the version this module's go.mod
// already holds for the playground's browser test). Speed would not decide
// it: measured at that version on schema's BenchmarkExecuteEquality10k
// document, its Decoder reads the tokens in about the time this Parse reads
// them and records the tape. Nor could it be the grammar checker here: it
// refuses nesting deeper than 10,000
// levels ("exceeded max depth"), which the contract forbids treating as a
// grammar error (an over-deep element is invalid_input at the element's
// path), and its default strictness about duplicate names and invalid UTF-8
// must be switched off (AllowDuplicateNames, AllowInvalidUTF8) because the
// contract reports those at the value's path, after the grammar. It would
// add a dependency to bypass both, so it does not earn its place.
package jsontape
