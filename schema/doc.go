// Package schema serves claimcheck's tools as JSON documents: their
// descriptors ([Tools], [Lookup]) and [Execute], which reads an input
// document strictly, runs the check, and writes the output document.
//
// # Tools
//
// Three tools, each with a descriptor whose limits, input and output JSON
// Schemas, examples and execute URL are those of the contract:
//
//   - multiset-equality-check ([MultisetEquality]): package multiset's CheckEquality;
//   - multiset-difference-check ([MultisetDifference]): CheckDifference;
//   - rational-expression-check ([RationalExpression]): package rational's CheckRational.
//
// # Strict input
//
// encoding/json alone accepts members that differ in case, duplicate
// members, invalid UTF-8 and lone surrogates, silently. Execute refuses each
// of them, parsing the document once:
//
//  1. any violation of the RFC 8259 grammar (empty input, trailing data, a
//     byte order mark, control characters in strings, bad escapes, NaN, 01,
//     +1, .5, 1.) is invalid_input at path "", before anything else;
//  2. each object's members in document order: a name that is not valid
//     Unicode (path of the object), unknown (names are exact and
//     case-sensitive) or repeated (path of the member); then missing members
//     in schema order;
//  3. each value's type, in schema order;
//  4. each array: more than max_items elements (path of the array), then its
//     elements in index order (not a scalar, invalid UTF-8 or a lone
//     surrogate, a number that rounds to ±Inf: path of the element), then
//     more than max_distinct distinct values (path of the array).
//
// The contract's §6 ([docs/contract.md]) writes this order out with every
// case; the list above is the order itself.
//
// Nesting depth is never an error and costs no recursion: an array a million
// levels deep where a scalar belongs is answered quickly, at that element's
// path. Errors are *[claimcheck.Error] values whose JSON form is the error document
//
//	{"error":{"code":"invalid_input","path":"/source/3","message":"..."}}
//
// with the code unknown_tool for a tool or version not served.
//
// # Guarantees
//
// Output documents are deterministic bytes with members in the output
// schema's property order. Limits are always the descriptors'; the Go API of
// each tool's package takes others. Execute is safe for concurrent use.
//
// [docs/contract.md]: https://github.com/claimcheck/claimcheck/blob/main/docs/contract.md
package schema
