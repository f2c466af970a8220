package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/schema"
)

// show prints an output document indented, its long reference_version
// member elided for the width of this page.
func show(out []byte) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(out, &doc); err != nil {
		panic(err)
	}
	doc["reference_version"] = json.RawMessage(`"…"`)
	// Keep the document's member order: re-read it in order.
	var b bytes.Buffer
	b.WriteString("{")
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.Token()
	for i := 0; dec.More(); i++ {
		name, _ := dec.Token()
		var v json.RawMessage
		dec.Decode(&v)
		if i > 0 {
			b.WriteString(",")
		}
		k, _ := json.Marshal(name)
		b.Write(k)
		b.WriteString(":")
		b.Write(doc[name.(string)])
	}
	b.WriteString("}")
	var pretty bytes.Buffer
	json.Indent(&pretty, b.Bytes(), "", "  ")
	fmt.Println(pretty.String())
}

// Execute checks a claimed bag equality; an empty version means the newest.
func ExampleExecute() {
	out, err := schema.Execute("multiset-equality-check", "", []byte(`{"source":[1,1,"a"],"claim":["a",1.0]}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Valid, out.Reason)
	show(out.Doc)
	// Output:
	// false claim_mismatch
	// {
	//   "valid": false,
	//   "reason": "claim_mismatch",
	//   "discrepancy": {
	//     "path": "/source/0",
	//     "expected": "2",
	//     "actual": "1"
	//   },
	//   "reference_version": "…"
	// }
}

// The difference tool reports the first wrong residual element, written in
// canonical form, with a path relative to the claim.
func ExampleExecute_difference() {
	out, err := schema.Execute("multiset-difference-check", "1.0.0", []byte(`{
		"left": [1, 2, 1.0],
		"right": [1],
		"claim": {"left_only": [2, 2], "right_only": []}
	}`))
	if err != nil {
		panic(err)
	}
	show(out.Doc)
	// Output:
	// {
	//   "valid": false,
	//   "reason": "claim_mismatch",
	//   "discrepancy": {
	//     "path": "/left_only/1",
	//     "expected": 1,
	//     "actual": 2
	//   },
	//   "reference_version": "…"
	// }
}

// The rational tool reports the true value and the difference.
func ExampleExecute_rational() {
	out, err := schema.Execute("rational-expression-check", "", []byte(`{"expression":"1/3 - 1/2","claimed_value":"1/6","require_canonical":true}`))
	if err != nil {
		panic(err)
	}
	show(out.Doc)
	// Output:
	// {
	//   "valid": false,
	//   "reason": "value_mismatch",
	//   "value": "-1/6",
	//   "first_discrepancy": {
	//     "field": "claimed_value",
	//     "claimed_value": "1/6",
	//     "canonical_claim": "1/6",
	//     "actual_value": "-1/6",
	//     "difference": "-1/3",
	//     "position": null,
	//     "divisor_text": null
	//   },
	//   "reference_version": "…"
	// }
}

// Input the tool refuses is an *claimcheck.Error; json.Marshal of it is the error
// document, and errors.As finds its code and path.
func ExampleExecute_refused() {
	_, err := schema.Execute("multiset-equality-check", "", []byte(`{"source":[1e400],"claim":[]}`))
	var e *claimcheck.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Path)
	}
	fmt.Println(e.Message)

	_, err = schema.Execute("multiset-equality-check", "", []byte(`{"source":[],"claim":[],"source":[]}`))
	doc, _ := json.Marshal(err)
	fmt.Println(string(doc))
	// Output:
	// invalid_input /source/0
	// number 1e400 is out of the range of a double
	// {"error":{"code":"invalid_input","path":"/source","message":"duplicate member \"source\""}}
}

// Lookup finds a served tool; an empty version means the newest.
func ExampleLookup() {
	tool, err := schema.Lookup("rational-expression-check", "")
	fmt.Println(err, tool.Version, tool.ExecuteURL, tool.Limit("max_tokens"))
	_, err = schema.Lookup("rational-expression-check", "2.0.0")
	fmt.Println(err)
	// Output:
	// <nil> 1.0.0 /v1/tools/rational-expression-check/versions/1.0.0/execute 1024
	// unknown_tool at the document root: no tool rational-expression-check@2.0.0
}

// A Tool executes documents itself once looked up, as the HTTP handler does
// for each request.
func ExampleTool_Execute() {
	tool, err := schema.Lookup("rational-expression-check", "1.0.0")
	if err != nil {
		panic(err)
	}
	out, _ := tool.Execute([]byte(`{"expression":"6/4","claimed_value":"3/2","require_canonical":true}`))
	fmt.Println(out.Valid, out.Reason == "")
	fmt.Println(string(out.Doc[:35]))
	// Output:
	// true true
	// {"valid":true,"reason":null,"value"
}

// A Tool from Tools or Lookup is the caller's own copy: changing it changes
// nothing served. json.Marshal of a Tool, or of a *Tool, is its descriptor
// document, written from its fields.
func ExampleTool_MarshalJSON() {
	tool, _ := schema.Lookup("multiset-equality-check", "")
	tool.Limits[0].Value = 3 // no effect on what Execute enforces
	tool.ExecuteURL = "/api" + tool.ExecuteURL
	out, _ := tool.Execute([]byte(`{"source":[1,2,3,4],"claim":[4,3,2,1]}`))
	fmt.Println(out.Valid)

	byValue, _ := json.Marshal(*tool)
	byPointer, _ := json.Marshal(tool)
	var doc struct {
		Limits     map[string]int `json:"limits"`
		ExecuteURL string         `json:"execute_url"`
	}
	json.Unmarshal(byValue, &doc)
	fmt.Println(bytes.Equal(byValue, byPointer), doc.Limits["max_items"], doc.ExecuteURL)

	served, _ := schema.Lookup("multiset-equality-check", "")
	fmt.Println(served.Limit("max_items"), served.ExecuteURL)
	// Output:
	// true
	// true 3 /api/v1/tools/multiset-equality-check/versions/1.0.0/execute
	// 10000 /v1/tools/multiset-equality-check/versions/1.0.0/execute
}

// Tools lists the served tools in a fixed order.
func ExampleTools() {
	for _, t := range schema.Tools() {
		fmt.Print(t.ID, "@", t.Version)
		for i, l := range t.Limits {
			if i == 3 {
				fmt.Print(" ...")
				break
			}
			fmt.Print(" ", l.Name, "=", l.Value)
		}
		fmt.Println()
	}
	// Output:
	// multiset-equality-check@1.0.0 max_items=10000 max_distinct=10000
	// multiset-difference-check@1.0.0 max_items=10000 max_distinct=10000
	// rational-expression-check@1.0.0 max_expression_bytes=4096 max_tokens=1024 max_depth=64 ...
}

// An Output is the output document with the verdict it states, so that a
// caller branches without reading the document again.
func ExampleOutput() {
	out, _ := schema.Execute(schema.RationalExpression, "", []byte(`{"expression":"1/2","claimed_value":"2/4","require_canonical":true}`))
	fmt.Println(out.Valid, out.Reason, len(out.Doc) > 0)
	// Output: false not_canonical true
}

// A Tool is a descriptor: what the tool checks, its limits, its schemas,
// its examples and where it is executed.
func ExampleTool() {
	tool, _ := schema.Lookup(schema.MultisetDifference, "")
	fmt.Println(tool.ID, tool.Version)
	fmt.Println(tool.Description != "", len(tool.InputSchema) > 0, len(tool.Examples) > 0)
	// Output:
	// multiset-difference-check 1.0.0
	// true true true
}

// A Limit is one named bound of a tool, the name a limit_exceeded error
// carries.
func ExampleLimit() {
	tool, _ := schema.Lookup(schema.RationalExpression, "")
	for _, l := range tool.Limits {
		fmt.Println(l.Name, l.Value)
	}
	// Output:
	// max_expression_bytes 4096
	// max_tokens 1024
	// max_depth 64
	// max_value_digits 500
}

// Every Example of a descriptor is an input document and the output
// document Execute gives for it.
func ExampleExample() {
	tool, _ := schema.Lookup(schema.MultisetEquality, "")
	for _, ex := range tool.Examples {
		out, _ := tool.Execute(ex.Input)
		fmt.Println(bytes.Equal(out.Doc, ex.Output))
	}
	// Output:
	// true
	// true
}
