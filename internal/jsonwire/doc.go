// Package jsonwire owns what is stateless about JSON text: the grammar of
// its literals and of white space, their values, and how claimcheck writes
// them. Each rule is written here once, and every reader and writer in the
// module calls it: the tape reader (internal/jsontape), canon's scalar
// parsers and key writer, the output and error documents of package schema
// and the root package, and the MCP server's messages.
//
// # Numbers
//
// [ParseNumber] reads a literal of RFC 8259 section 6's grammar,
//
//	number = [ "-" ] int [ frac ] [ exp ]
//	int    = "0" / ( digit1-9 *DIGIT )
//	frac   = "." 1*DIGIT
//	exp    = ( "e" / "E" ) [ "-" / "+" ] 1*DIGIT
//
// in one pass, finding where it ends and reading its digits on the way
// ([Number]); [ValidNumber] says whether a whole text is one literal.
// [Short] reads the commonest literals (short integers and decimals) a word
// at a time, and [Number.Float] gives a literal's nearest double when one
// correctly rounded operation computes it (Clinger's fast path) or the
// Eisel-Lemire algorithm decides it, as it does for nearly every literal
// of at most 19 significant digits whose decimal exponent is within
// [-128, 127] (1e-130 is declined). Each gives exactly the double
// strconv.ParseFloat gives, or declines, and the caller converts the text.
//
// # Strings
//
// [ScanString] checks a string literal against RFC 8259 section 7 (the
// escapes, no unescaped U+0000–U+001F) and reports what it holds
// ([Escaped], [NonASCII]); invalid UTF-8 is left to whoever reads the value,
// as the contract's second reading rule asks. [Unescape] gives a literal's
// value, a lone surrogate escape as its three generalized UTF-8 bytes (so
// that it is refused wherever the value is checked). [AppendString] is the
// one string writer: RFC 8785's form, so canonical keys, output documents
// and error documents write every string the same way.
//
// # White space
//
// [IsSpace] and [SkipSpace] are the white space RFC 8259 allows between
// tokens: space, tab, line feed and carriage return, nothing else (no
// vertical tab, form feed, U+00A0 or byte order mark).
//
// # JSON Pointer
//
// [AppendPointerToken] writes one RFC 6901 reference token, the step of
// every path an error reports.
//
// # Guarantees
//
// Every function is pure: it reads its arguments, allocates only what it
// returns, and keeps no state, so any number of goroutines may call it.
// A grammar check reports where it failed as an offset and a [Fault], and
// never an error message: the messages belong to the reader that reports
// them (internal/jsontape), so that a message is written once.
//
// The design follows encoding/json/v2 (module
// github.com/go-json-experiment/json, whose internal/jsonwire package is
// likewise the stateless half, beside its stateful jsontext reader).
package jsonwire
