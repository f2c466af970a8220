package canon_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
)

// answerDoc is an answer of n elements as students write them: small
// integers, decimals, short strings, the odd large id.
func answerDoc(n int) []byte {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		switch i % 4 {
		case 0:
			b.WriteString(strconv.Itoa(i))
		case 1:
			b.WriteString(strconv.Itoa(i) + ".25")
		case 2:
			b.WriteString(`"s` + strconv.Itoa(i) + `"`)
		default:
			b.WriteString(strconv.FormatInt(1<<53-int64(i), 10))
		}
	}
	b.WriteByte(']')
	return []byte(b.String())
}

func BenchmarkParseArray(b *testing.B) {
	doc := answerDoc(10000)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, err := canon.ParseArray(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseArrayExactNumbers(b *testing.B) {
	doc := answerDoc(10000)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, err := canon.ParseArray(doc, canon.ExactNumbers()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseSubmission(b *testing.B) {
	answer := string(answerDoc(2500))
	doc := []byte(`{"q1":` + answer + `,"q2":` + answer + `,"q3":"25/12","q4":` + answer + `,"q5":` + answer + `}`)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, err := canon.ParseSubmission(doc, canon.ExactNumbers()); err != nil {
			b.Fatal(err)
		}
	}
}
