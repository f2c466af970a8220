package canon_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
)

// Key returns the RFC 8785 form of a scalar, or an exact integer's digits
// and "n": equal keys, equal scalars.
func ExampleKey() {
	for _, v := range []any{
		1.0,
		json.Number("100e-2"),
		math.Copysign(0, -1),
		1e21,
		1e-7,
		json.Number("9007199254740993"),
		canon.ExactNumber("9007199254740993"),
		int64(1<<53 + 1),
		"tab\there / é",
		true,
		nil,
	} {
		k, err := canon.Key(v)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(k)
	}
	// Output:
	// 1
	// 1
	// 0
	// 1e+21
	// 1e-7
	// 9007199254740992
	// 9007199254740993n
	// 9007199254740993n
	// "tab\there / é"
	// true
	// null
}

// AppendKey writes keys into a reused buffer, without allocating for
// integers, literals and strings that need no escapes.
func ExampleAppendKey() {
	buf := make([]byte, 0, 64)
	for _, v := range []any{int64(42), "forty-two", false} {
		var err error
		buf, err = canon.AppendKey(buf[:0], v)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s\n", buf)
	}
	// Output:
	// 42
	// "forty-two"
	// false
}

// Of converts a Go value once; the Scalar then compares with == and writes
// its key on demand.
func ExampleOf() {
	s, err := canon.Of(uint8(7))
	fmt.Println(s.Kind(), s, err)

	s, err = canon.Of(float32(0.1)) // what encoding/json writes for it
	fmt.Println(s.Kind(), s, err)

	s, err = canon.Of(int64(1<<53 + 1)) // no double holds it: exact
	fmt.Println(s.Kind(), s, s.Key(), err)

	var e *claimcheck.Error

	_, err = canon.Of([]int{1, 2})
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Message)
	}
	// Output:
	// number 7 <nil>
	// number 0.1 <nil>
	// number 9007199254740993 9007199254740993n <nil>
	// invalid_input element is an array, not a scalar
}

// ParseNumber reads a JSON number literal: strict grammar, one rounding to
// the nearest double, underflow to 0, overflow refused.
func ExampleParseNumber() {
	for _, lit := range []string{"1.0", "1E21", "0.000001", "1e-400", "1e400", "01", "+1"} {
		s, err := canon.ParseNumber(lit)
		if err != nil {
			fmt.Printf("%s: %v\n", lit, err)
			continue
		}
		fmt.Printf("%s: %s\n", lit, s)
	}
	// Output:
	// 1.0: 1
	// 1E21: 1e+21
	// 0.000001: 0.000001
	// 1e-400: 0
	// 1e400: invalid_input at the document root: number 1e400 is out of the range of a double
	// 01: invalid_input at the document root: not a JSON number: "01"
	// +1: invalid_input at the document root: not a JSON number: "+1"
}

// == on Scalars is the equality of their keys.
func ExampleScalar() {
	of := func(v any) canon.Scalar {
		s, err := canon.Of(v)
		if err != nil {
			panic(err)
		}
		return s
	}
	fmt.Println(of(math.Copysign(0, -1)) == of(0)) // -0 == 0
	fmt.Println(of(json.Number("1.0")) == of(1))   // 1.0 == 1
	fmt.Println(of("1") == of(1))                  // a string is never a number
	fmt.Println(of(true) == of("true"))            // nor a boolean
	fmt.Println(of(nil) == canon.NullScalar())     // nil is null
	fmt.Println(of(float32(0.1)) == of(0.1))       // a float32 is what encoding/json writes
	// Output:
	// true
	// true
	// false
	// false
	// true
	// true
}

// Every refusal is a *claimcheck.Error with code invalid_input; callers that know
// where the value sits set its Path.
func ExampleKey_refused() {
	_, err := canon.Key(math.NaN())
	var e *claimcheck.Error
	if errors.As(err, &e) {
		e.Path = "/source/3"
		fmt.Println(e.Code)
		fmt.Println(e.Message)
		fmt.Println(e)
	}
	// Output:
	// invalid_input
	// number NaN is not finite
	// invalid_input at /source/3: number NaN is not finite
}

// The constructors build a Scalar from one Go value of a known kind, with the
// same rules as Of and without an interface conversion.
func ExampleIntScalar() {
	for _, n := range []int64{-7, 1 << 53, 1 << 60, 1<<53 + 1} {
		s, _ := canon.IntScalar(n) // never fails
		fmt.Println(n, "has the key", s.Key())
	}
	// Output:
	// -7 has the key -7
	// 9007199254740992 has the key 9007199254740992
	// 1152921504606846976 has the key 1152921504606847000
	// 9007199254740993 has the key 9007199254740993n
}

func ExampleUintScalar() {
	s, _ := canon.UintScalar(math.MaxUint64)
	fmt.Println(s, s.Key())
	s, _ = canon.UintScalar(1 << 63)
	fmt.Println(s, s.Key())
	// Output:
	// 18446744073709551615 18446744073709551615n
	// 9223372036854776000 9223372036854776000
}

// BigIntScalar takes an integer of any size; where a double holds it, it is
// that double.
func ExampleBigIntScalar() {
	x := new(big.Int).Lsh(big.NewInt(1), 60)
	s, _ := canon.BigIntScalar(x)
	i, _ := canon.IntScalar(1 << 60)
	fmt.Println(s.Key(), s == i)
	x.Add(x, big.NewInt(1))
	s, _ = canon.BigIntScalar(x)
	fmt.Println(s.Key())
	// Output:
	// 1152921504606847000 true
	// 1152921504606846977n
}

// An ExactNumber is a json.Number read as ExactNumbers reads a literal.
func ExampleExactNumber() {
	for _, v := range []any{json.Number("9007199254740993"), canon.ExactNumber("9007199254740993"), canon.ExactNumber("9.007199254740993e15")} {
		s, _ := canon.Of(v)
		fmt.Println(s.Key())
	}
	// Output:
	// 9007199254740992
	// 9007199254740993n
	// 9007199254740993n
}

func ExampleFloat32Scalar() {
	s, _ := canon.Float32Scalar(0.1)
	d, _ := canon.NumberScalar(0.1)
	fmt.Println(s, s == d)
	// Output:
	// 0.1 true
}

func ExampleNumberScalar() {
	s, _ := canon.NumberScalar(math.Copysign(0, -1))
	fmt.Println(s)
	_, err := canon.NumberScalar(math.Inf(1))
	fmt.Println(err)
	// Output:
	// 0
	// invalid_input at the document root: number +Inf is not finite
}

func ExampleStringScalar() {
	s, _ := canon.StringScalar("tab\there")
	fmt.Println(s)
	_, err := canon.StringScalar("\xff")
	fmt.Println(err)
	// Output:
	// "tab\there"
	// invalid_input at the document root: string is not valid UTF-8 (byte offset 0)
}

func ExampleBoolScalar() {
	t, null := canon.BoolScalar(true), canon.NullScalar()
	fmt.Println(t, null, t.Kind(), null.Kind())
	// Output:
	// true null boolean null
}

// A Scalar's accessors give its kind and Go value back; Value is what
// encoding/json would decode the scalar to.
func ExampleScalar_Kind() {
	for _, v := range []any{json.Number("2.50"), "x", true, nil} {
		s, _ := canon.Of(v)
		fmt.Printf("%-7v key=%-5s float=%v str=%q bool=%v value=%#v\n", s.Kind(), s.Key(), s.Float(), s.Str(), s.Bool(), s.Value())
	}
	// Output:
	// number  key=2.5   float=2.5 str="" bool=false value=2.5
	// string  key="x"   float=0 str="x" bool=false value="x"
	// boolean key=true  float=0 str="" bool=true value=true
	// null    key=null  float=0 str="" bool=false value=<nil>
}

// ParseArray reads a student's answer with the tools' strict reader: where
// json.Unmarshal leaves a nil for 1e400 (and a grader's report would show a
// null the student never wrote), it says which element is wrong and why.
func ExampleParseArray() {
	answer := []byte(`[3, 2.0, "x", 1e400]`)

	var loose []any
	err := json.Unmarshal(answer, &loose)
	fmt.Println(loose, err != nil)

	_, err = canon.ParseArray(answer)
	fmt.Println(err)

	xs, err := canon.ParseArray([]byte(`[3, 2.0, "x", null]`))
	fmt.Println(xs, err)
	// Output:
	// [3 2 x <nil>] true
	// invalid_input at /3: number 1e400 is out of the range of a double
	// [3 2 "x" null] <nil>
}

// A Kind is a scalar's JSON type; its String is the JSON name.
func ExampleKind() {
	for _, v := range []any{nil, false, 1.5, "1.5"} {
		s, _ := canon.Of(v)
		fmt.Println(s.Kind(), s.Kind() == canon.Number)
	}
	// Output:
	// null false
	// boolean false
	// number true
	// string false
}

// NullScalar is the zero Scalar: JSON null, which equals no other kind's
// value.
func ExampleNullScalar() {
	var zero canon.Scalar
	null := canon.NullScalar()
	s, _ := canon.StringScalar("null")
	fmt.Println(null == zero, null == s, null.Key(), s.Key())
	// Output: true false null "null"
}

// String and Key are the canonical JSON form, quotes and escapes
// included; Str is a string scalar's value, and "" for any other kind.
func ExampleScalar_String() {
	s, _ := canon.StringScalar("tab\tand \"quote\"")
	n, _ := canon.ParseNumber("2.50")
	fmt.Println(s.String())
	fmt.Println(s.Str())
	fmt.Printf("%v %q\n", n, n.Str())
	// Output:
	// "tab\tand \"quote\""
	// tab	and "quote"
	// 2.5 ""
}

// Str gives a string scalar's value back as it was given.
func ExampleScalar_Str() {
	s, _ := canon.StringScalar("é/ü")
	fmt.Println(s.Str(), len(s.Str()))
	// Output: é/ü 5
}

// Key is the RFC 8785 serialization: equal keys exactly when equal
// Scalars.
func ExampleScalar_Key() {
	a, _ := canon.ParseNumber("100e-2")
	b, _ := canon.IntScalar(1)
	fmt.Println(a.Key(), b.Key(), a == b)
	// Output: 1 1 true
}

// Value is what encoding/json decodes the scalar to: nil, bool, float64 or
// string.
func ExampleScalar_Value() {
	xs, _ := canon.ParseArray([]byte(`[1e2, "x", true, null]`))
	for _, x := range xs {
		fmt.Printf("%T %v\n", x.Value(), x.Value())
	}
	// Output:
	// float64 100
	// string x
	// bool true
	// <nil> <nil>
}

// Options change how the readers read a document; the zero Option changes
// nothing.
func ExampleOption() {
	doc := []byte(`[9007199254740993]`)
	plain, _ := canon.ParseArray(doc, canon.Option{})
	exact, _ := canon.ParseArray(doc, canon.ExactNumbers())
	fmt.Println(plain, exact, plain[0] == exact[0])
	// Output: [9007199254740992] [9007199254740993] false
}

// ExactNumbers keeps an integer as written, however it is written, and
// refuses a fraction whose rounding makes it an integer; other fractions
// round as ever.
func ExampleExactNumbers() {
	for _, doc := range []string{`[9007199254740993]`, `[9.007199254740993e15]`, `[1e-400]`, `[0.1, 2.50, 1e22, 9007199254740992]`} {
		xs, err := canon.ParseArray([]byte(doc), canon.ExactNumbers())
		fmt.Println(xs, err)
	}
	// Output:
	// [9007199254740993] <nil>
	// [9007199254740993] <nil>
	// [] invalid_input at /0: number 1e-400 is not exact as a double: it would become 0
	// [0.1 2.5 1e+22 9007199254740992] <nil>
}

// ParseSubmission reads a student's object of answers: a document that is
// not one is refused at once; a fault in an answer is that answer's, at its
// path, and the other answers read as they are.
func ExampleParseSubmission() {
	sub, err := canon.ParseSubmission([]byte(`{"q1": [2, 2, 3], "q1": [1], "q2": ["ok", "\ud800"], "q3": "25/12"}`))
	fmt.Println(err)
	for _, name := range []string{"q1", "q2", "q4"} {
		_, err := sub.Array(name)
		fmt.Println(err)
	}
	q3, err := sub.String("q3")
	fmt.Println(q3, err)

	_, err = canon.ParseSubmission([]byte(`{"q1": [1]} {"q1": [2]}`))
	fmt.Println(err)
	// Output:
	// <nil>
	// invalid_input at /q1: duplicate member "q1": the document answers it twice
	// invalid_input at /q2/1: string has the escape \ud800 at its start: a lone surrogate, which is no character
	// invalid_input at /q4: missing member "q4"
	// 25/12 <nil>
	// invalid_input at the document root: invalid JSON at line 1, column 13 (byte offset 12): trailing data after the document
}

// A Submission gives its answers by name, each as its kind allows.
func ExampleSubmission() {
	sub, _ := canon.ParseSubmission([]byte(`{"q1": [1, "x", null], "q2": "3/4", "q3": 0.5}`))
	q1, _ := sub.Array("q1")
	q2, _ := sub.String("q2")
	q3, _ := sub.Scalar("q3")
	_, err := sub.String("q3")
	fmt.Println(q1, q2, q3)
	fmt.Println(err)
	// Output:
	// [1 "x" null] 3/4 0.5
	// invalid_input at /q3: /q3 must be a string, not a number
}

// Array returns a new slice each time: changing it changes nothing else.
func ExampleSubmission_Array() {
	sub, _ := canon.ParseSubmission([]byte(`{"q1": [3, 1, 2]}`))
	q1, _ := sub.Array("q1")
	q1[0] = canon.NullScalar()
	again, _ := sub.Array("q1")
	fmt.Println(q1, again)
	// Output: [null 1 2] [3 1 2]
}

// Literal is what the student wrote, where the Scalar is what is compared.
func ExampleSubmission_Literal() {
	sub, _ := canon.ParseSubmission([]byte(`{"q1": [-0e0, 1.50, "\u0041"]}`))
	q1, _ := sub.Array("q1")
	for i, v := range q1 {
		fmt.Println(sub.Literal("q1", i), v)
	}
	// Output:
	// -0e0 0
	// 1.50 1.5
	// "\u0041" "A"
}
