package canon_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/big"
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

// FuzzParseNumberExact: with ExactNumbers, ParseNumber reads a literal as
// its value, which math/big.Rat (the oracle) reads from it: an integer a
// double holds is that double, with jcs.NumberToJSON's key; an integer no
// double holds is that integer, keyed by its digits and "n", its Float the
// nearest double; a fraction is refused when its double is an integer,
// and otherwise read as without the option.
func FuzzParseNumberExact(f *testing.F) {
	for _, seed := range []string{
		"0", "-0", "1", "1.0", "1e0", "12300e-2", "1.23e2", "0.5", "1e-400", "9007199254740992.5",
		"9007199254740993", "9007199254740993.0", "9.007199254740993e15", "-9007199254740993",
		"1152921504606846976", "1.152921504606846976e18", "1152921504606847000", "1e21", "1e22", "1e23",
		"18446744073709551615", "18446744073709551616", "1e308", "1.7976931348623157e308", "1e400", "01",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		if i := strings.IndexAny(lit, "eE"); len(lit) > 400 || i >= 0 && len(strings.TrimLeft(lit[i+1:], "+-")) > 4 {
			return // the oracle is slow on long literals, and big.Rat refuses large exponents
		}
		plain, perr := canon.ParseNumber(lit)
		s, err := canon.ParseNumber(lit, canon.ExactNumbers())
		if perr != nil {
			if err == nil || err.Error() != perr.Error() {
				t.Fatalf("ParseNumber(%q): %v by default, %v with ExactNumbers", lit, perr, err)
			}
			return
		}
		var r big.Rat
		if _, ok := r.SetString(lit); !ok {
			t.Fatalf("big.Rat cannot read %q, which ParseNumber accepts", lit)
		}
		f := plain.Float()
		if !r.IsInt() {
			if (err != nil) != (f == math.Trunc(f)) {
				t.Fatalf("ParseNumber(%q, ExactNumbers): %v; the fraction's double is %v", lit, err, f)
			}
			if err == nil && s != plain {
				t.Fatalf("ParseNumber(%q, ExactNumbers) = %v, by default %v", lit, s, plain)
			}
			return
		}
		if err != nil {
			t.Fatalf("ParseNumber(%q, ExactNumbers): %v, for an integer", lit, err)
		}
		x := r.Num()
		if g, acc := x.Float64(); acc == big.Exact {
			if ref, _ := jcs.NumberToJSON(g); s != plain || s.Key() != ref {
				t.Fatalf("%q, an integer a double holds: %v, key %s; want %v, %s", lit, s, s.Key(), plain, ref)
			}
			return
		}
		if s.Key() != x.String()+"n" || s.String() != x.String() || s.Float() != f {
			t.Fatalf("%q: key %s, string %s, float %v; want %sn, %s, %v", lit, s.Key(), s.String(), s.Float(), x, x, f)
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
// each the same canonical scalar by Of (with ExactNumbers, each
// json.Number as a canon.ExactNumber).
func FuzzParseArray(f *testing.F) {
	for _, s := range []string{`[]`, `[1,"a",null,true,false]`, ` [ 1.0 , -0 , 1e2 ] `, `[1e400]`, `[[1]]`, `{"a":1}`,
		`[1,]`, "[\"\xff\"]", `["\ud800"]`, `["\u00e9\n"]`, `[1] [2]`, "\ufeff[]", `[9007199254740993]`,
		`[1152921504606847000, 1152921504606846976, 1e23, -9.007199254740993e15, 1e-400, 0.1]`} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, exact bool) {
		var opts []canon.Option
		if exact {
			opts = append(opts, canon.ExactNumbers())
		}
		got, err := canon.ParseArray(data, opts...)
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
			if n, ok := x.(json.Number); ok && exact {
				x = canon.ExactNumber(n)
			}
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
