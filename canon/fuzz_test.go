package canon_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gowebpki/jcs"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

func isInvalidInput(err error) bool {
	var e *claimcheck.Error
	return errors.As(err, &e) && e.Code == claimcheck.InvalidInput
}

// FuzzParseNumber: ParseNumber accepts a literal exactly when it is one of
// the JSON number grammar (jsonwire.ValidNumber, the grammar's owner, whose
// own tests hold it to the RFC) and rounds to a finite double; an accepted literal's
// key reads back as the same double and is what jcs.NumberToJSON writes.
func FuzzParseNumber(f *testing.F) {
	for _, seed := range []string{
		"0", "-0", "1", "-1", "1.0", "1e21", "1e-7", "1E+2", "100e-2", "0.1",
		"9007199254740993", "123456789012345", "1234567890123456", "-999999999999999",
		"1e400", "-1e400", "1e-400", "4.9e-324", "1.7976931348623159e308",
		"", "-", "+1", "01", "-01", "00", " 1", "1 ", ".5", "1.", "1e", "1e+",
		"0x10", "1_0", "Infinity", "NaN", "inf", "1e5e5", "\xff", "9" + strings.Repeat("9", 400),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		s, err := canon.ParseNumber(lit)
		want := false
		var f float64
		if jsonwire.ValidNumber(lit) {
			var perr error
			f, perr = strconv.ParseFloat(lit, 64)
			want = perr == nil && !math.IsInf(f, 0)
		}
		if (err == nil) != want {
			t.Fatalf("ParseNumber(%q) error %v; want accepted %v", lit, err, want)
		}
		if err != nil {
			if !isInvalidInput(err) {
				t.Fatalf("ParseNumber(%q) error %v is not an invalid_input *claimcheck.Error", lit, err)
			}
			return
		}
		if s.Kind() != canon.Number || s.Float() != f || (f == 0 && math.Signbit(s.Float())) {
			t.Fatalf("ParseNumber(%q) = %v (%v), want the double %v with -0 folded", lit, s, s.Float(), f)
		}
		key := s.Key()
		back, perr := strconv.ParseFloat(key, 64)
		if perr != nil || back != f {
			t.Fatalf("key %q of %q reads back as %v, %v; want %v", key, lit, back, perr, f)
		}
		if ref, _ := jcs.NumberToJSON(f); ref != key {
			t.Fatalf("key %q of %q, jcs.NumberToJSON gives %q", key, lit, ref)
		}
	})
}

// FuzzStringKey: a string is accepted exactly when it is valid UTF-8; its key
// is a JSON string that encoding/json reads back as the same string and that
// jcs.Transform leaves byte for byte unchanged.
func FuzzStringKey(f *testing.F) {
	for _, seed := range []string{
		"", "a", `"`, `\`, "/", "\x00", "\x1f", "\b\t\n\f\r", "\x7f", "é", "😂", "\u2028",
		"</script>", "\xff", "\xed\xa0\x80", "\xc0\x80", "a\x80", "\xf4\x90\x80\x80", "\ufffd",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := canon.StringScalar(in)
		if (err == nil) != utf8.ValidString(in) {
			t.Fatalf("StringScalar(%q) error %v; valid UTF-8 %v", in, err, utf8.ValidString(in))
		}
		if err != nil {
			if !isInvalidInput(err) {
				t.Fatalf("StringScalar(%q) error %v is not an invalid_input *claimcheck.Error", in, err)
			}
			return
		}
		key := s.Key()
		var back string
		if err := json.Unmarshal([]byte(key), &back); err != nil || back != in {
			t.Fatalf("key %q of %q reads back as %q, %v", key, in, back, err)
		}
		ref, err := jcs.Transform([]byte(key))
		if err != nil || string(ref) != key {
			t.Fatalf("jcs.Transform(%q) = %q, %v: key not canonical", key, ref, err)
		}
	})
}

// FuzzParseArray: ParseArray never panics; it refuses only with an
// invalid_input *claimcheck.Error; and what it accepts is valid JSON that
// encoding/json (with UseNumber) decodes to the same number of elements,
// each the same canonical scalar by Of.
func FuzzParseArray(f *testing.F) {
	for _, s := range []string{`[]`, `[1,"a",null,true,false]`, ` [ 1.0 , -0 , 1e2 ] `, `[1e400]`, `[[1]]`, `{"a":1}`,
		`[1,]`, "[\"\xff\"]", `["\ud800"]`, `["\u00e9\n"]`, `[1] [2]`, "\ufeff[]", `[9007199254740993]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := canon.ParseArray(data)
		if err != nil {
			var e *claimcheck.Error
			if !errors.As(err, &e) || e.Code != claimcheck.InvalidInput {
				t.Fatalf("ParseArray(%q): %v, want an invalid_input *claimcheck.Error", data, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("ParseArray accepted %q, which is not JSON", data)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var xs []any
		if err := dec.Decode(&xs); err != nil {
			t.Fatalf("ParseArray accepted %q; encoding/json: %v", data, err)
		}
		if len(xs) != len(got) {
			t.Fatalf("%q: %d elements, encoding/json %d", data, len(got), len(xs))
		}
		for i, x := range xs {
			want, err := canon.Of(x)
			if err != nil {
				t.Fatalf("%q: element %d accepted, but Of(%v) refuses it: %v", data, i, x, err)
			}
			if want.Key() != got[i].Key() {
				t.Fatalf("%q: element %d is %s, Of gives %s", data, i, got[i].Key(), want.Key())
			}
		}
	})
}
