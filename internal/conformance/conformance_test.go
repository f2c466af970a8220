package conformance

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// fatalRecorder stands in for a testing.TB: Fatalf records its message and
// stops the caller with a panic the test recovers. Any other method panics
// (the embedded TB is nil).
type fatalRecorder struct {
	testing.TB
	msg string
}

func (r *fatalRecorder) Helper() {}
func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	panic(r)
}

// parseErrorDoc calls ParseErrorDoc on a recorder: the error, or the
// message it failed with.
func parseErrorDoc(doc string) (e *claimcheck.Error, fatal string) {
	r := &fatalRecorder{}
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
	}()
	defer func() { fatal = r.msg }()
	return ParseErrorDoc(r, []byte(doc)), ""
}

func TestParseErrorDoc(t *testing.T) {
	type row struct {
		err    *claimcheck.Error
		reason string
	}
	testutil.Run(t, []row{
		{&claimcheck.Error{Code: claimcheck.InvalidInput, Path: "/source/1", Position: claimcheck.NoPosition, Message: "m"},
			"no position, no limit"},
		{&claimcheck.Error{Code: claimcheck.LimitExceeded, Path: "", Position: claimcheck.NoPosition, Limit: "max_items", Message: "m"},
			"a limit, at the empty path"},
		{&claimcheck.Error{Code: claimcheck.InvalidInput, Path: "/expression", Position: 0, Message: "at \"x\"\n"},
			"position 0 is a position; the message is unescaped"},
		{&claimcheck.Error{Code: "internal_error", Path: "", Position: 7, Limit: "max_depth", Message: "m"},
			"a code of no library constant, with every member"},
	}, func(t *testing.T, r row) {
		doc, err := json.Marshal(r.err)
		if err != nil {
			t.Fatal(err)
		}
		if got, fatal := parseErrorDoc(string(doc)); fatal != "" || !reflect.DeepEqual(got, r.err) {
			t.Errorf("ParseErrorDoc(%s) = %+v, %q; want %+v", doc, got, fatal, r.err)
		}
	})
	type bad struct{ doc, reason string }
	testutil.Run(t, []bad{
		{`{"valid":true}`, "a verdict"},
		{`{"error":{"code":"invalid_input","path":"","message":"m"}`, "malformed JSON"},
		{`{"error":null}`, "a null error"},
		{`{"error":{"code":"invalid_input","message":"m"}}`, "no path"},
		{`{"error":{"path":"","message":"m"}}`, "no code"},
		{`{"error":{"code":"invalid_input","path":""}}`, "no message"},
		{`{"error":{"code":"invalid_input","path":"","position":-1,"message":"m"}}`, "a negative position"},
		{`{"error":{"code":"invalid_input","path":"","position":"0","message":"m"}}`, "a position that is a string"},
	}, func(t *testing.T, r bad) {
		if e, fatal := parseErrorDoc(r.doc); fatal != "not an error document: "+r.doc {
			t.Errorf("ParseErrorDoc(%s) = %+v, failed with %q", r.doc, e, fatal)
		}
	})
}
