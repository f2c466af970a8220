// Package errs defines the one error type every claimcheck tool returns for
// malformed input or an exceeded limit. The public packages expose it by alias
// (canon.Error, multiset.Error, rational.Error, schema.Error), so a single
// errors.As target matches an error from any of them.
package errs

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Code classifies an [Error]. Its string is the wire value of the error
// document's "code" member.
type Code string

const (
	// InvalidInput: the input is malformed or of the wrong shape or type.
	InvalidInput Code = "invalid_input"
	// LimitExceeded: the input is well formed but over one of the tool's limits;
	// [Error.Limit] names which.
	LimitExceeded Code = "limit_exceeded"
	// UnknownTool: the JSON layer does not serve the requested tool id or version.
	UnknownTool Code = "unknown_tool"
	// Internal is not a code of the contract: the CLI and the HTTP handler
	// answer with it when a tool panicked, which is a bug.
	Internal Code = "internal_error"
)

// NoPosition is the [Error.Position] of an error that has no position.
const NoPosition = -1

// Sentinels, one per [Code]: errors.Is(err, ErrInvalidInput) reports whether
// err is an *Error with that code.
var (
	ErrInvalidInput  = errors.New(string(InvalidInput))
	ErrLimitExceeded = errors.New(string(LimitExceeded))
	ErrUnknownTool   = errors.New(string(UnknownTool))
)

// Error reports input that a tool refuses to check. Its JSON form (see
// [Error.MarshalJSON]) is the error document of the contract:
//
//	{"error":{"code":"invalid_input","path":"/expression","position":4,"message":"unexpected character 'a'"}}
type Error struct {
	// Code is InvalidInput, LimitExceeded or UnknownTool.
	Code Code
	// Path is the RFC 6901 JSON Pointer to the offending input value:
	// "" for the whole document, "/source/3", "/claim/left_only/0", "/expression".
	Path string
	// Position is a 0-based code point offset into the expression, for the
	// rational tool's expression errors; NoPosition (-1) everywhere else.
	Position int
	// Limit names the descriptor's limits key (e.g. "max_items", "max_tokens")
	// for LimitExceeded; empty otherwise.
	Limit string
	// Message is one line of English saying what is wrong.
	Message string
}

// Error returns "code at path: message", with the position or limit when set.
func (e *Error) Error() string {
	var b strings.Builder
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

// Unwrap returns the sentinel of e's code, so errors.Is can branch on the code.
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
	dst = AppendString(dst, string(e.Code))
	dst = append(dst, `,"path":`...)
	dst = AppendString(dst, e.Path)
	if e.Position >= 0 {
		dst = append(dst, `,"position":`...)
		dst = strconv.AppendInt(dst, int64(e.Position), 10)
	}
	if e.Limit != "" {
		dst = append(dst, `,"limit":`...)
		dst = AppendString(dst, e.Limit)
	}
	dst = append(dst, `,"message":`...)
	dst = AppendString(dst, e.Message)
	return append(dst, "}}"...)
}

// Invalid returns an InvalidInput error without a position.
func Invalid(path, msg string) *Error {
	return &Error{Code: InvalidInput, Path: path, Position: NoPosition, Message: msg}
}

// InvalidAt returns an InvalidInput error at a code point position.
func InvalidAt(path string, pos int, msg string) *Error {
	return &Error{Code: InvalidInput, Path: path, Position: pos, Message: msg}
}

// Limit returns a LimitExceeded error without a position.
func Limit(path, limit, msg string) *Error {
	return &Error{Code: LimitExceeded, Path: path, Position: NoPosition, Limit: limit, Message: msg}
}

// LimitAt returns a LimitExceeded error at a code point position.
func LimitAt(path string, pos int, limit, msg string) *Error {
	return &Error{Code: LimitExceeded, Path: path, Position: pos, Limit: limit, Message: msg}
}

// AppendString appends s as a JSON string in RFC 8785 form: '"' and '\\'
// escaped, U+0000–U+001F as \b \t \n \f \r or \u00xx, everything else
// literal. Invalid UTF-8 bytes are written as U+FFFD: this is for messages and
// paths the library writes, never for data being checked (canon refuses those).
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscape(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\t':
		return append(dst, '\\', 't')
	case '\n':
		return append(dst, '\\', 'n')
	case '\f':
		return append(dst, '\\', 'f')
	case '\r':
		return append(dst, '\\', 'r')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// AppendPointerToken appends one RFC 6901 reference token ("~" as "~0", "/"
// as "~1") preceded by "/".
func AppendPointerToken(dst []byte, name string) []byte {
	dst = append(dst, '/')
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '~':
			dst = append(dst, '~', '0')
		case '/':
			dst = append(dst, '~', '1')
		default:
			dst = append(dst, name[i])
		}
	}
	return dst
}

// Index returns path + "/" + i.
func Index(path string, i int) string {
	return path + "/" + strconv.Itoa(i)
}
