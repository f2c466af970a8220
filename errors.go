package claimcheck

import (
	"errors"
	"strconv"
	"strings"

	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// Code classifies an [Error]. Its string is the wire value of the error
// document's "code" member.
type Code string

// The codes of the tools' contract. Layers that serve the tools add codes of
// their own for problems with a request rather than with its document (the
// HTTP handler's not_found, for example); those are documented where they are
// produced and have no sentinel here.
const (
	// InvalidInput: the input is malformed, of the wrong shape or of the
	// wrong type.
	InvalidInput Code = "invalid_input"
	// LimitExceeded: the input is well formed but over one of the tool's
	// limits; [Error.Limit] names which.
	LimitExceeded Code = "limit_exceeded"
	// UnknownTool: the JSON layer does not serve the requested tool id or
	// version.
	UnknownTool Code = "unknown_tool"
)

// NoPosition is the [Error.Position] of an error that has no position.
const NoPosition = -1

// Sentinels, one per [Code] of the contract: errors.Is(err, ErrLimitExceeded)
// reports whether err is (or wraps) an *[Error] with that code.
var (
	ErrInvalidInput  = errors.New(string(InvalidInput))
	ErrLimitExceeded = errors.New(string(LimitExceeded))
	ErrUnknownTool   = errors.New(string(UnknownTool))
)

// ErrRejected is the one sentinel of a verdict that a claim does not hold:
// the Err method of every result (multiset's EqualityResult and
// DifferenceResult, rational's Result) returns nil for a valid claim and
// otherwise an error that wraps ErrRejected, so
//
//	errors.Is(res.Err(), claimcheck.ErrRejected)
//
// tells a rejected claim from a refused input (an *[Error]) whichever
// package checked it. A zero result, which a check returns with an error,
// is no verdict and no pass: its Err wraps ErrRejected too.
// multiset.ErrRejected and rational.ErrRejected are this same value.
var ErrRejected = errors.New("claim rejected")

// Error reports input that a tool refuses to check. Every package of
// claimcheck returns it, always as a pointer, so one errors.As target finds an
// error from any of them:
//
//	var e *claimcheck.Error
//	if errors.As(err, &e) && e.Code == claimcheck.LimitExceeded { … e.Limit … }
//
// Its JSON form (see [Error.MarshalJSON]) is the error document of the JSON
// tools:
//
//	{"error":{"code":"invalid_input","path":"/expression","position":4,"message":"unexpected character 'a'"}}
type Error struct {
	// Code is InvalidInput, LimitExceeded or UnknownTool (or a code of the
	// layer that serves the tools, such as the HTTP handler's not_found).
	Code Code
	// Path is the RFC 6901 JSON Pointer to the offending input value:
	// "" for the whole document, "/source/3", "/claim/left_only/0",
	// "/expression".
	Path string
	// Position is a 0-based code point offset into the expression, for the
	// rational tool's expression errors; NoPosition (-1) everywhere else.
	Position int
	// Limit names the limit exceeded, as the tool descriptors' limits
	// members do ("max_items", "max_tokens", "max_document_bytes"), for
	// LimitExceeded; empty otherwise.
	Limit string
	// Message is one line of English saying what is wrong.
	Message string
}

// Error returns "code at path: message", with the position or limit when
// set:
//
//	invalid_input at /expression, position 2: unexpected character '^'
//
// An Error without a code, which no claimcheck package returns, says so:
// the zero Error reads "no error code", and one with other fields set
// reads "no error code at path: message".
func (e *Error) Error() string {
	if *e == (Error{}) {
		return "no error code"
	}
	var b strings.Builder
	if e.Code == "" {
		b.WriteString("no error code")
	}
	b.WriteString(string(e.Code))
	b.WriteString(" at ")
	if e.Path == "" {
		b.WriteString("the document root")
	} else {
		b.WriteString(e.Path)
	}
	if e.Position >= 0 {
		b.WriteString(", position ")
		b.WriteString(strconv.Itoa(e.Position))
	}
	if e.Limit != "" {
		b.WriteString(" (")
		b.WriteString(e.Limit)
		b.WriteString(")")
	}
	b.WriteString(": ")
	b.WriteString(e.Message)
	return b.String()
}

// Unwrap returns the sentinel of e's code (nil for a code without one), so
// errors.Is can branch on the code.
func (e *Error) Unwrap() error {
	switch e.Code {
	case InvalidInput:
		return ErrInvalidInput
	case LimitExceeded:
		return ErrLimitExceeded
	case UnknownTool:
		return ErrUnknownTool
	}
	return nil
}

// MarshalJSON returns the error document: {"error":{code, path, position,
// limit, message}}, with position and limit omitted where they do not apply.
func (e *Error) MarshalJSON() ([]byte, error) {
	return e.AppendJSON(nil), nil
}

// AppendJSON appends the error document (see [Error.MarshalJSON]) to dst.
func (e *Error) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"error":{"code":`...)
	dst = jsonwire.AppendString(dst, string(e.Code))
	dst = append(dst, `,"path":`...)
	dst = jsonwire.AppendString(dst, e.Path)
	if e.Position >= 0 {
		dst = append(dst, `,"position":`...)
		dst = strconv.AppendInt(dst, int64(e.Position), 10)
	}
	if e.Limit != "" {
		dst = append(dst, `,"limit":`...)
		dst = jsonwire.AppendString(dst, e.Limit)
	}
	dst = append(dst, `,"message":`...)
	dst = jsonwire.AppendString(dst, e.Message)
	return append(dst, "}}"...)
}
