// Package errs builds the [claimcheck.Error] values the tools return; the type,
// its codes and sentinels are public in the root package.
package errs

import (
	"strconv"

	"github.com/claimcheck/claimcheck"
)

// Invalid returns an InvalidInput error without a position.
func Invalid(path, msg string) *claimcheck.Error {
	return &claimcheck.Error{Code: claimcheck.InvalidInput, Path: path, Position: claimcheck.NoPosition, Message: msg}
}

// InvalidAt returns an InvalidInput error at a code point position.
func InvalidAt(path string, pos int, msg string) *claimcheck.Error {
	return &claimcheck.Error{Code: claimcheck.InvalidInput, Path: path, Position: pos, Message: msg}
}

// Limit returns a LimitExceeded error without a position.
func Limit(path, limit, msg string) *claimcheck.Error {
	return &claimcheck.Error{Code: claimcheck.LimitExceeded, Path: path, Position: claimcheck.NoPosition, Limit: limit, Message: msg}
}

// LimitAt returns a LimitExceeded error at a code point position.
func LimitAt(path string, pos int, limit, msg string) *claimcheck.Error {
	return &claimcheck.Error{Code: claimcheck.LimitExceeded, Path: path, Position: pos, Limit: limit, Message: msg}
}

// Coded returns an error of any code without a position: the JSON layer's
// unknown_tool and the serving layers' own codes.
func Coded(code claimcheck.Code, msg string) *claimcheck.Error {
	return &claimcheck.Error{Code: code, Position: claimcheck.NoPosition, Message: msg}
}

// At returns a copy of err, which must be an *claimcheck.Error, placed at
// path: canon's errors have no path, and the caller knows where the value
// sits in a document.
func At(err error, path string) error {
	e := *err.(*claimcheck.Error)
	e.Path = path
	return &e
}

// Index returns path + "/" + i.
func Index(path string, i int) string {
	return path + "/" + strconv.Itoa(i)
}
