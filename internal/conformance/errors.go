package conformance

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
)

// Expected describes an expected *claimcheck.Error: its Code, Path,
// Position (claimcheck.NoPosition for none) and Limit ("" for none), and a
// substring of its Message ("" for any message).
type Expected struct {
	Code     claimcheck.Code
	Path     string
	Position int
	Limit    string
	Message  string
}

// ExpectError is the one error checker of the test suite: it fails t
// unless err is the *claimcheck.Error w describes, found by errors.As, with
// a message of one non-empty line; errors.Is matches the sentinel of its
// code and no other contract code's; Error() reads "CODE at ..."; and its
// JSON form is an error document with position and limit present exactly
// when they apply. It returns the error.
func ExpectError(t testing.TB, err error, w Expected) *claimcheck.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want %s at %q", w.Code, w.Path)
	}
	var e *claimcheck.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T (%v) is not a *claimcheck.Error", err, err)
	}
	if e.Code != w.Code || e.Path != w.Path || e.Position != w.Position || e.Limit != w.Limit {
		t.Fatalf("got  code=%s path=%q position=%d limit=%q (%s)\nwant code=%s path=%q position=%d limit=%q",
			e.Code, e.Path, e.Position, e.Limit, e.Message, w.Code, w.Path, w.Position, w.Limit)
	}
	if e.Message == "" || strings.ContainsAny(e.Message, "\n\r") {
		t.Errorf("message %q is not one non-empty line", e.Message)
	}
	if !strings.Contains(e.Message, w.Message) {
		t.Errorf("message %q does not mention %q", e.Message, w.Message)
	}
	for code, sentinel := range map[claimcheck.Code]error{
		claimcheck.InvalidInput:  claimcheck.ErrInvalidInput,
		claimcheck.LimitExceeded: claimcheck.ErrLimitExceeded,
		claimcheck.UnknownTool:   claimcheck.ErrUnknownTool,
	} {
		if errors.Is(err, sentinel) != (code == e.Code) {
			t.Errorf("errors.Is(err, %v) = %v for a %s error", sentinel, !(code == e.Code), e.Code)
		}
	}
	if want := string(w.Code) + " at "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Error() = %q, want prefix %q", err.Error(), want)
	}
	doc, merr := json.Marshal(err)
	var d struct {
		Error map[string]json.RawMessage `json:"error"`
	}
	if merr != nil || json.Unmarshal(doc, &d) != nil || d.Error == nil {
		t.Fatalf("error document %s (%v)", doc, merr)
	}
	if _, ok := d.Error["position"]; ok != (w.Position != claimcheck.NoPosition) {
		t.Errorf("error document %s: position present %v, want %v", doc, ok, !ok)
	}
	if _, ok := d.Error["limit"]; ok != (w.Limit != "") {
		t.Errorf("error document %s: limit present %v, want %v", doc, ok, !ok)
	}
	return e
}
