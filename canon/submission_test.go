package canon_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
)

// TestParseSubmission: what a submission reader accepts, and each fault
// it refuses, at its path in the student's document with the message's
// telling words: a fault of the document at once, a fault in an answer
// when that answer is read (the others read as they are).
func TestParseSubmission(t *testing.T) {
	type row struct {
		in     string
		opts   []canon.Option
		answer string // the answer read; "" for a fault of the document
		path   string // the error's path, when refused
		msg    string // a part of its message; "" when accepted
		reason string
	}
	exact := []canon.Option{canon.ExactNumbers()}
	testutil.Run(t, []row{
		{`{"q1":[2,2,3],"q2":"25/12","q3":1.5,"q4":true,"q5":null,"q6":[]}`, nil, "q1", "", "", "every kind of answer"},
		{`{}`, nil, "", "", "", "no answers"},
		{`{"q1":[2,2,2,3,3,5],"q1":[1]}`, nil, "q1", "/q1", `duplicate member "q1"`, "a second answer to q1 is refused at its path, not read as the answer"},
		{`{"q1":[1,"\ud800"],"q2":[],"q1":[]}`, nil, "q1", "/q1", "duplicate member", "a repeated name wins over a fault inside either answer"},
		{`{"a/b":1,"a/b":2}`, nil, "a/b", "/a~1b", "duplicate member", "the path escapes the name"},
		{`{"q1":[1],"q\u0031":[2]}`, nil, "q1", "/q1", "duplicate member", "names compare after unescaping"},
		{`{"q1":["3/4` + "\xff" + `"]}`, nil, "q1", "/q1/0", `the byte 0xff after "3/4", which is not UTF-8`, "invalid UTF-8 in an element"},
		{`{"q3":"3/4` + "\xff" + `"}`, nil, "q3", "/q3", `the byte 0xff after "3/4"`, "invalid UTF-8 in a string answer"},
		{`{"q3":"ab\ud800"}`, nil, "q3", "/q3", `the escape \ud800 after "ab": a lone surrogate`, "a lone surrogate named as written"},
		{`{"q1":[1,[2]]}`, nil, "q1", "/q1/1", "element is an array, not a scalar", "a nested array"},
		{`{"q1":[1,2,{"a":[3]}]}`, nil, "q1", "/q1/2", "element is an object, not a scalar", "a nested object"},
		{`{"q1":{"a":1}}`, nil, "q1", "/q1", "is an object", "an object answer"},
		{`{"q1":[1e400]}`, nil, "q1", "/q1/0", "out of the range of a double", "out of range in an array"},
		{`{"q3":-1e400}`, nil, "q3", "/q3", "out of the range of a double", "out of range as an answer"},
		{`{"q1":[9007199254740993],"q3":1e-400}`, nil, "q1", "", "", "rounded numbers are accepted by default"},
		{`{"q1":[9007199254740992.5]}`, exact, "q1", "/q1/0", "number 9007199254740992.5 is not exact as a double: it would become 9007199254740992", "ExactNumbers in an array"},
		{`{"q3":1e-400}`, exact, "q3", "/q3", "number 1e-400 is not exact as a double: it would become 0", "ExactNumbers on an answer"},
		{`{"q1":[0.1, 2.50, -0e0, 1e22]}`, exact, "q1", "", "", "ExactNumbers accepts fractions and numbers a double holds"},
		{`{"q1":[9007199254740992.5],"q2":[1]}`, exact, "q2", "", "", "a refused answer costs that answer only"},
		{`{"q2":[9007199254740992.5,"` + "\xff" + `"]}`, exact, "q2", "/q2/0", "not exact", "an inexact number before a bad string of the same array"},
		{`{"q2":[9007199254740993,"` + "\xff" + `"]}`, exact, "q2", "/q2/1", "not UTF-8", "an exact integer is no fault: the bad string after it is"},
		{`{"q1":[1]} `, nil, "q1", "", "", "white space after the document"},
		{`{"\ud800":1}`, nil, "", "", `member name has the escape \ud800 at its start`, "a member name that is not Unicode: the document's fault"},
		{`{"q1":[1]} {}`, nil, "", "", "trailing data", "trailing data is a grammar error at the root"},
		{"\ufeff{}", nil, "", "", "invalid JSON", "a byte order mark"},
		{`[1]`, nil, "", "", "the document is an array, not an object of answers", "the root must be an object"},
		{`{"q1":[01]}`, nil, "", "", "invalid JSON", "a leading zero"},
		{``, nil, "", "", "invalid JSON", "empty input"},
	}, func(t *testing.T, r row) {
		sub, err := canon.ParseSubmission([]byte(r.in), r.opts...)
		if r.answer != "" {
			if err != nil || sub == nil {
				t.Fatalf("%v, %v; want a submission", sub, err)
			}
			_, err = sub.Array(r.answer)
			if _, serr := sub.Scalar(r.answer); serr == nil {
				err = nil // a scalar answer
			}
		} else if err == nil && r.msg != "" {
			t.Fatalf("%v; want the document refused", sub)
		}
		if r.msg == "" {
			if err != nil {
				t.Fatal(err)
			}
			return
		}
		var e *claimcheck.Error
		if !errors.As(err, &e) || e.Code != claimcheck.InvalidInput {
			t.Fatalf("got %v; want invalid_input", err)
		}
		if e.Path != r.path || !strings.Contains(e.Message, r.msg) || strings.ContainsAny(e.Message, "\n\r") {
			t.Errorf("got path %q message %q; want path %q and a one-line message containing %q", e.Path, e.Message, r.path, r.msg)
		}
	})
}

// TestSubmissionAnswers: answers read by name as the reader read them, a
// missing or mistyped one refused at its path, and the literals as written.
func TestSubmissionAnswers(t *testing.T) {
	sub, err := canon.ParseSubmission([]byte(`{"q1":[2, -0e0, "\u0041", 1.50],"q3":"25/12","q4":7,"a~b":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	q1, err := sub.Array("q1")
	if err != nil || keys(q1) != `2,0,"A",1.5` {
		t.Errorf("Array(q1) = %s, %v", keys(q1), err)
	}
	q1[0] = canon.NullScalar()
	if again, _ := sub.Array("q1"); keys(again) != `2,0,"A",1.5` {
		t.Errorf("changing a returned array changed the submission: %s", keys(again))
	}
	if s, err := sub.String("q3"); s != "25/12" || err != nil {
		t.Errorf("String(q3) = %q, %v", s, err)
	}
	if v, err := sub.Scalar("q4"); v.Key() != "7" || err != nil {
		t.Errorf("Scalar(q4) = %v, %v", v, err)
	}
	if a, err := sub.Array("a~b"); len(a) != 0 || err != nil {
		t.Errorf("Array(a~b) = %v, %v", a, err)
	}
	for i, want := range []string{"2", "-0e0", `"\u0041"`, "1.50", ""} {
		if got := sub.Literal("q1", i); got != want {
			t.Errorf("Literal(q1, %d) = %q, want %q", i, got, want)
		}
	}
	for _, tc := range []struct {
		err       error
		path, msg string
	}{
		{second(sub.Array("q9")), "/q9", `missing member "q9"`},
		{second(sub.Array("q3")), "/q3", "/q3 must be an array, not a string"},
		{second(sub.String("q4")), "/q4", "/q4 must be a string, not a number"},
		{second(sub.String("q1")), "/q1", "/q1 must be a scalar, not an array"},
		{second(sub.Scalar("x/y")), "/x~1y", `missing member "x/y"`},
	} {
		var e *claimcheck.Error
		if !errors.As(tc.err, &e) || e.Path != tc.path || e.Message != tc.msg {
			t.Errorf("got %v; want %s: %s", tc.err, tc.path, tc.msg)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func keys(xs []canon.Scalar) string {
	ks := make([]string, len(xs))
	for i, x := range xs {
		ks[i] = x.Key()
	}
	return strings.Join(ks, ",")
}

// FuzzParseSubmission: ParseSubmission never panics; it and its answers
// refuse only with an invalid_input *claimcheck.Error; what it accepts is
// JSON that encoding/json (with UseNumber) decodes to an object, each of
// whose answers it reads to the same canonical scalars by Of (with
// ExactNumbers, each json.Number as a canon.ExactNumber), or refuses (a
// repeated name, invalid UTF-8, with ExactNumbers a fraction that would
// read as an integer: what encoding/json reads without a word).
func FuzzParseSubmission(f *testing.F) {
	for _, s := range []string{`{}`, `{"q1":[1,"a",null,true,false],"q2":"x","q3":1.5}`, `{"q1":[1],"q1":[2]}`,
		`{"q":[1e400]}`, `{"q":[[1]]}`, `{"q":{"a":1}}`, "{\"q\":\"\xff\"}", `{"q":"\ud800"}`, `{"\ud800":1}`,
		`[1]`, `{"q":[1]} {}`, "\ufeff{}", `{"q":[9007199254740993]}`, `{"q":1e-400}`,
		`{"q":[1152921504606847000,1152921504606846976,-9.007199254740993e15]}`, `{"q":1e23}`} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, exact bool) {
		var opts []canon.Option
		if exact {
			opts = append(opts, canon.ExactNumbers())
		}
		of := func(v any) (canon.Scalar, error) {
			if n, ok := v.(json.Number); ok && exact {
				return canon.Of(canon.ExactNumber(n))
			}
			return canon.Of(v)
		}
		isInvalid := func(err error) bool {
			var e *claimcheck.Error
			return errors.As(err, &e) && e.Code == claimcheck.InvalidInput
		}
		sub, err := canon.ParseSubmission(data, opts...)
		if err != nil {
			if !isInvalid(err) {
				t.Fatalf("ParseSubmission(%q): %v, want an invalid_input *claimcheck.Error", data, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("ParseSubmission accepted %q, which is not JSON", data)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			t.Fatalf("ParseSubmission accepted %q; encoding/json: %v", data, err)
		}
		for name, v := range doc {
			xs, isArray := v.([]any)
			if !isArray {
				got, err := sub.Scalar(name)
				if err != nil {
					if !isInvalid(err) {
						t.Fatalf("%q: answer %q: %v, want an invalid_input *claimcheck.Error", data, name, err)
					}
					continue // refused: encoding/json read it leniently
				}
				if want, werr := of(v); werr != nil || got != want {
					t.Fatalf("%q: answer %q is %v, Of gives %v (%v)", data, name, got, want, werr)
				}
				continue
			}
			got, err := sub.Array(name)
			if err != nil {
				if !isInvalid(err) {
					t.Fatalf("%q: answer %q: %v, want an invalid_input *claimcheck.Error", data, name, err)
				}
				continue
			}
			if len(got) != len(xs) {
				t.Fatalf("%q: answer %q is %v, encoding/json has %d elements", data, name, got, len(xs))
			}
			for i, x := range xs {
				want, err := of(x)
				if err != nil || want != got[i] {
					t.Fatalf("%q: %s[%d] is %v, Of gives %v (%v)", data, name, i, got[i], want, err)
				}
			}
		}
	})
}

// TestUnreadableLineColumn: a document the grammar refuses is named by
// line and column as well as byte offset, for ParseSubmission and
// ParseArray alike; columns count characters, lines line feeds.
func TestUnreadableLineColumn(t *testing.T) {
	type row struct {
		doc, want, reason string
	}
	testutil.Run(t, []row{
		{`{"q1": [1, 2,]}`, "invalid JSON at line 1, column 14 (byte offset 13): ", "one line: the column is the offset plus one"},
		{"{\n  \"q1\": [1,\n    2,,\n  ]\n}", "invalid JSON at line 3, column 7 (byte offset 20): ", "the line after two line feeds, the column within it"},
		{"{\"q1\": 1,\n \"é\": 2 3}", "invalid JSON at line 2, column 9 (byte offset 19): ", "a two-byte character on the fault's line is one column"},
		{"{\"q1\": \"é\" \"x\"}", "invalid JSON at line 1, column 12 (byte offset 12): ", "a two-byte character, then the fault, on one line"},
		{"", "invalid JSON at line 1, column 1 (byte offset 0): ", "an empty document"},
	}, func(t *testing.T, r row) {
		_, err := canon.ParseSubmission([]byte(r.doc))
		var e *claimcheck.Error
		if !errors.As(err, &e) || e.Path != "" || !strings.HasPrefix(e.Message, r.want) {
			t.Errorf("ParseSubmission: %v, want a message starting %q", err, r.want)
		}
		if _, err := canon.ParseArray([]byte("[1,\n ]")); err == nil || !strings.Contains(err.Error(), "line 2, column 2 (byte offset 5)") {
			t.Errorf("ParseArray: %v, want line 2, column 2", err)
		}
	})
}
