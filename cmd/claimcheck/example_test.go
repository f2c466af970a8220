package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// A shell grader branches on the exit status of run -exit-code, as with
// "git diff --exit-code": 0 the claim holds, 4 it does not, 1 the input
// could not be checked.
func Example_exitCode() {
	for _, doc := range []string{
		`{"source":[1,1],"claim":[1,1]}`,
		`{"source":[1,1],"claim":[1]}`,
		`{"source":[1,1]}`,
	} {
		// In a shell: echo "$doc" | claimcheck run -exit-code multiset-equality-check
		code := cli([]string{"run", "-exit-code", "multiset-equality-check"}, strings.NewReader(doc), io.Discard, os.Stderr)
		fmt.Println(code, doc)
	}
	// Output:
	// 0 {"source":[1,1],"claim":[1,1]}
	// 4 {"source":[1,1],"claim":[1]}
	// 1 {"source":[1,1]}
}

// Output line N of batch answers input line N: a blank line gets an
// invalid_input error document, so the lines after it keep their places.
func Example_batch() {
	in := `{"source":[1],"claim":[1]}

{"source":[1],"claim":[2]}
not JSON
`
	var out bytes.Buffer
	code := cli([]string{"batch", "multiset-equality-check"}, strings.NewReader(in), &out, os.Stderr)
	sc := bufio.NewScanner(&out)
	for n := 1; sc.Scan(); n++ {
		var doc struct {
			Valid *bool
			Error *struct{ Code, Message string }
		}
		json.Unmarshal(sc.Bytes(), &doc)
		if doc.Error != nil {
			fmt.Printf("line %d: %s: %s\n", n, doc.Error.Code, doc.Error.Message)
		} else {
			fmt.Printf("line %d: valid %v\n", n, *doc.Valid)
		}
	}
	fmt.Println("exit", code)
	// Output:
	// line 1: valid true
	// line 2: invalid_input: blank line: want one JSON document per line
	// line 3: valid false
	// line 4: invalid_input: invalid JSON at byte offset 0: unexpected character 'n'
	// exit 1
}
