package multiset_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/multiset"
)

// fuzzLiterals are number spellings for the json.Number elements: valid,
// equal under different spellings, out of range, underflowing, and not
// numbers at all.
var fuzzLiterals = []string{"0", "-0", "1", "1.0", "10e-1", "1e21", "1e400", "-1e400", "1e-400", "01", "+1", ".5", "1.", "", "9007199254740993", "0.1", "-1.5E-3"}

// decodeLists reads four lists of Go scalars from fuzz bytes. Each element
// starts with a byte: its top two bits pick the list, its low bits the kind;
// the kind's payload follows.
func decodeLists(data []byte) (lists [4][]any) {
	for len(data) > 0 {
		b := data[0]
		data = data[1:]
		var v any
		switch b & 0x0f {
		case 0:
			v = nil
		case 1:
			v = true
		case 2:
			v = false
		case 3, 4: // a small int: many collisions
			if len(data) > 0 {
				v = int(int8(data[0])) % 4
				data = data[1:]
			} else {
				v = 0
			}
		case 5: // any float64 bit pattern, NaN and ±Inf included
			var buf [8]byte
			n := copy(buf[:], data)
			data = data[n:]
			v = math.Float64frombits(binary.LittleEndian.Uint64(buf[:]))
		case 6:
			v = negZero
		case 7, 8: // a short string of arbitrary bytes, maybe invalid UTF-8
			n := 0
			if len(data) > 0 {
				n = int(data[0]) % 4
				data = data[1:]
			}
			n = min(n, len(data))
			v = string(data[:n])
			data = data[n:]
		case 9:
			i := 0
			if len(data) > 0 {
				i = int(data[0])
				data = data[1:]
			}
			v = json.Number(fuzzLiterals[i%len(fuzzLiterals)])
		case 10:
			v = float32(int8(b)) / 4
		case 11:
			v = uint64(b >> 4)
		default:
			v = strconv.Itoa(int(b>>4) % 3)
		}
		lists[b>>6] = append(lists[b>>6], v)
	}
	return lists
}

// validElement is the model's scalar test, written without canon.
func validElement(v any) bool {
	switch x := v.(type) {
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0)
	case string:
		return utf8.ValidString(x)
	case json.Number:
		s := string(x)
		if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') || !json.Valid([]byte(s)) {
			return false
		}
		f, err := strconv.ParseFloat(s, 64)
		return err == nil || !math.IsInf(f, 0)
	}
	return true
}

// modelFirstBad returns the path of the first element validElement refuses.
func modelFirstBad(paths []string, lists ...[]any) string {
	for k, xs := range lists {
		for i, x := range xs {
			if !validElement(x) {
				return paths[k] + "/" + strconv.Itoa(i)
			}
		}
	}
	return ""
}

// answer is a check's output or error document.
func answer(res any, err error) string {
	if err != nil {
		return doc(err)
	}
	return doc(res)
}

func errPath(err error) string {
	if e, ok := err.(*claimcheck.Error); ok {
		return e.Path
	}
	return "not a *claimcheck.Error: " + err.Error()
}

func FuzzCheck(f *testing.F) {
	f.Add([]byte{0x03, 0x01, 0x43, 0x01})                         // [1] vs [1]
	f.Add([]byte{0x06, 0x43, 0x00, 0x49, 0x01})                   // [-0] vs [0, "-0"]
	f.Add([]byte{0x05, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0x40})       // NaN
	f.Add([]byte{0x07, 0x02, 0xc3, 0x28, 0x47, 0x01, 0x61})       // invalid UTF-8
	f.Add([]byte{0x09, 0x06, 0x49, 0x07, 0x89, 0x02, 0xc9, 0x0e}) // 1e400, 01
	f.Add([]byte{0x00, 0x01, 0x02, 0x43, 0x05, 0x80, 0xc1, 0x82, 0x8c, 0x4c})
	f.Fuzz(func(t *testing.T, data []byte) {
		lists := decodeLists(data)
		in := multiset.EqualityInput[any, any]{Source: lists[0], Claim: lists[1]}
		din := multiset.DifferenceInput[any, any]{Left: lists[0], Right: lists[1],
			Claim: multiset.DifferenceClaim[any]{LeftOnly: lists[2], RightOnly: lists[3]}}

		r1, err1 := multiset.CheckEquality(in, multiset.Limits{})
		r2, err2 := multiset.CheckEquality(in, multiset.Limits{})
		if a, b := answer(r1, err1), answer(r2, err2); a != b {
			t.Fatalf("two runs: %s, then %s", a, b)
		}
		d1, derr1 := multiset.CheckDifference(din, multiset.Limits{})
		d2, derr2 := multiset.CheckDifference(din, multiset.Limits{})
		if a, b := answer(d1, derr1), answer(d2, derr2); a != b {
			t.Fatalf("two runs: %s, then %s", a, b)
		}

		if bad := modelFirstBad([]string{"/source", "/claim"}, lists[0], lists[1]); bad != "" || err1 != nil {
			if err1 == nil || errPath(err1) != bad {
				t.Fatalf("equality of %#v: error %v, model says first bad element at %q", lists[:2], err1, bad)
			}
		} else if got, want := doc(r1), modelEquality(lists[0], lists[1]); got != want {
			t.Fatalf("equality of %#v:\ngot  %s\nwant %s", lists[:2], got, want)
		}

		paths := []string{"/left", "/right", "/claim/left_only", "/claim/right_only"}
		if bad := modelFirstBad(paths, lists[:]...); bad != "" || derr1 != nil {
			if derr1 == nil || errPath(derr1) != bad {
				t.Fatalf("difference of %#v: error %v, model says first bad element at %q", lists, derr1, bad)
			}
			return
		}
		if got, want := doc(d1), modelDifference(lists[0], lists[1], lists[2], lists[3]); got != want {
			t.Fatalf("difference of %#v:\ngot  %s\nwant %s", lists, got, want)
		}
		lo, ro := modelResiduals(lists[0], lists[1])
		din.Claim = multiset.DifferenceClaim[any]{LeftOnly: lo, RightOnly: ro}
		if r, err := multiset.CheckDifference(din, multiset.Limits{}); err != nil || !r.Valid {
			t.Fatalf("model residuals %#v %#v: %v %v", lo, ro, r, err)
		}
	})
}
