package claimchecktest_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/claimchecktest"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// gradescopeSchema compiles testdata/gradescope-results.schema.json, the
// results.json format Gradescope documents, with the independent
// validator.
func gradescopeSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/gradescope-results.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///gradescope.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///gradescope.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validateJSON(s *jsonschema.Schema, doc []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// recipeSchema is what the guide's grading module writes on top of
// Gradescope's format, which makes every member optional: the total,
// execution_time and visibility, and per question a name, score,
// max_score, status and output; the reason a submission could not be
// read at the top only, when it could not.
func recipeSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(`{
		"required": ["score", "execution_time", "visibility", "tests"],
		"properties": {
			"execution_time": {"type": "number", "minimum": 0},
			"visibility": {"const": "visible"},
			"tests": {"minItems": 3, "items": {
				"required": ["name", "score", "max_score", "status", "output"],
				"properties": {"status": {"enum": ["passed", "failed"]}}
			}}
		}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///recipe.json", doc); err != nil {
		t.Fatal(err)
	}
	r, err := c.Compile("mem:///recipe.json")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestGradescopeSchema: the schema accepts the documented example's shape
// and refuses what Gradescope would not read, so that its acceptance of
// the grader's documents means something.
func TestGradescopeSchema(t *testing.T) {
	s := gradescopeSchema(t)
	type row struct {
		doc    string
		ok     bool
		reason string
	}
	testutil.Run(t, []row{
		{`{"score": 44.0, "execution_time": 136, "output": "x", "visibility": "after_due_date", "stdout_visibility": "visible", "extra_data": {},
		   "tests": [{"score": 2.0, "max_score": 2.0, "status": "passed", "name": "n", "number": "1.1", "output": "o", "tags": ["t"], "visibility": "visible"}],
		   "leaderboard": [{"name": "Accuracy", "value": 0.926}, {"name": "Time", "value": 15.1, "order": "asc"}]}`, true, "every documented member"},
		{`{"tests": [{"score": 1, "max_score": 1}]}`, true, "no top-level score when every test has one"},
		{`{"tests": [{"max_score": 1}]}`, false, "no score anywhere"},
		{`{"score": 1, "tests": [{"score": "1"}]}`, false, "a score that is a string"},
		{`{"score": 1, "tests": [{"score": 1, "maxscore": 1}]}`, false, "a misspelt member"},
		{`{"score": 1, "visibility": "public"}`, false, "a visibility Gradescope does not know"},
		{`[]`, false, "not an object"},
	}, func(t *testing.T, r row) {
		if err := validateJSON(s, []byte(r.doc)); (err == nil) != r.ok {
			t.Errorf("valid %v, want %v: %v", err == nil, r.ok, err)
		}
	})
}

// TestGradescopeResults: the grading module of Example_gradescope (the
// grading guide's) gives the right grade for each messy answer, with
// ExactNumbers and AnyOrder, and writes a results.json the schema
// accepts: per question a name, a score of at most its max_score and an
// output, and the total.
func TestGradescopeResults(t *testing.T) {
	s := gradescopeSchema(t)
	recipe := recipeSchema(t)
	type row struct {
		submission string
		scores     [3]float64
		output     string // a part of the output of the first question that lost points
		reason     string
	}
	const (
		right = `"a_not_b": ["apple", "cherry", "date"], "b_not_a": ["egg", "fig"], "q3": "25/12"`
	)
	testutil.Run(t, []row{
		{`{"q1": [0, 7, 12, 9007199254740992], ` + right + `}`, [3]float64{2, 2, 1}, "", "every answer right"},
		{`{"q1": [9007199254740992, 12, 7, 0], "a_not_b": ["cherry", "date", "apple"], "b_not_a": ["fig", "egg"], "q3": "25/12"}`,
			[3]float64{2, 2, 1}, "", "residuals in another order than the tool's: right with AnyOrder"},
		{`{"q1": [0, 7, 12, 9007199254740993], ` + right + `}`, [3]float64{1.5, 2, 1},
			"1 value occurs too often or should not occur, and 1 occurrence is missing", "an id no double holds is that id, not 2^53: 3 of 4 (refused before)"},
		{`{"q1": [1e-400, 7, 12, 9007199254740992], ` + right + `}`, [3]float64{0, 2, 1},
			"at /q1/0: number 1e-400 is not exact as a double: it would become 0", "1e-400 is not 0"},
		{`{"q1": [0, 7, 12, 9007199254740992], "q1": [1], ` + right + `}`, [3]float64{0, 2, 1},
			`at /q1: duplicate member \"q1\"`, "a second answer to q1 is refused, not graded as the answer"},
		{`{"q1": [0, 7, 12], "a_not_b": ["cherry", "kiwi", "apple"], "b_not_a": ["fig", "egg"], "q3": "25/12"}`,
			[3]float64{1.5, 1.6, 1}, "1 occurrence is missing", "partial credit: 3 of 4 ids; 4 of 5 residual elements"},
		{`{"q1": [0, 7, 12, 9007199254740992], "a_not_b": ["apple", "cherry", "date"], "b_not_a": ["egg", "fig"], "q3": "25 / 12"}`,
			[3]float64{2, 2, 0}, `there is white space around the fraction bar '/'; remove it (write \"25/12\")`, "white space inside the fraction"},
		{`{"q1": [0, 7, 12, 9007199254740992], "a_not_b": ["apple", "cherry", "date"], "b_not_a": ["egg", "fig"], "q3": "25/12` + "\xff" + `"}`,
			[3]float64{2, 2, 0}, `at /q3: string has the byte 0xff after \"25/12\", which is not UTF-8`, "invalid UTF-8"},
		{`{"q1": [0, 7, 12, 9007199254740992], "a_not_b": ["apple", "cherry", "date"], "b_not_a": ["egg", "fig"], "q3": "２５/12"}`,
			[3]float64{2, 2, 0}, `the digits must be ASCII 0-9`, "full-width digits"},
		{`{"q1": [0, 7, 12, 9007199254740992], "a_not_b": ["apple", "cherry", "date"], "b_not_a": ["egg", "fig"], "q3": "25/12/1"}`,
			[3]float64{2, 2, 0}, `a fraction has one '/', not 2`, "a second slash"},
		{`{"q1": [0, 7, 12, 9007199254740992]}`, [3]float64{2, 0, 0}, `at /a_not_b: missing member \"a_not_b\"`, "unanswered questions"},
		{`{"q1": [0, 7, 12]`, [3]float64{0, 0, 0}, `the submission could not be read`, "not JSON: no answer read, and each question says so"},
	}, func(t *testing.T, r row) {
		doc, err := grade([]byte(r.submission))
		if err != nil {
			t.Fatal(err)
		}
		if err := validateJSON(s, doc); err != nil {
			t.Fatalf("the schema refuses results.json: %v\n%s", err, doc)
		}
		if err := validateJSON(recipe, doc); err != nil {
			t.Fatalf("results.json lacks a member the recipe writes: %v\n%s", err, doc)
		}
		if strings.Contains(string(doc), "missing member") && !strings.Contains(r.reason, "unanswered") {
			t.Errorf("results.json says an answer is missing:\n%s", doc)
		}
		if n := strings.Count(string(doc), "could not be read: "); strings.HasPrefix(r.reason, "not JSON") && n != 1 {
			t.Errorf("the reason the submission could not be read is given %d times, want once, at the top:\n%s", n, doc)
		}
		var got struct {
			Score  float64
			Output string
			Tests  []struct {
				Name     *string
				Score    *float64
				MaxScore *float64 `json:"max_score"`
				Output   *string
			}
		}
		if err := json.Unmarshal(doc, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Tests) != 3 {
			t.Fatalf("%d tests, want 3:\n%s", len(got.Tests), doc)
		}
		total, lost := 0.0, false
		for i, q := range got.Tests {
			if q.Name == nil || q.Score == nil || q.MaxScore == nil || q.Output == nil || *q.Score > *q.MaxScore {
				t.Fatalf("question %d lacks a name, score, max_score or output, or scores over its max:\n%s", i+1, doc)
			}
			if *q.Score != r.scores[i] {
				t.Errorf("question %d scores %v, want %v: %s", i+1, *q.Score, r.scores[i], *q.Output)
			}
			if *q.Score < *q.MaxScore && !lost {
				lost = true
				if !strings.Contains(string(doc), r.output) || r.output == "" {
					t.Errorf("the output does not say %q:\n%s", r.output, doc)
				}
			}
			total += *q.Score
		}
		if got.Score != total {
			t.Errorf("score %v, the questions' sum %v", got.Score, total)
		}
	})
}

// TestGradesNeedTheOptions: without ExactNumbers and AnyOrder, the same
// answers get the wrong grade (the faults the options exist for): the id
// no double holds passes as 2^53, and the residuals in another order fail.
func TestGradesNeedTheOptions(t *testing.T) {
	sub, err := canon.ParseSubmission([]byte(`{"q1": [0, 7, 12, 9007199254740993], "a_not_b": ["cherry", "date", "apple"], "b_not_a": ["fig", "egg"]}`))
	if err != nil {
		t.Fatal(err)
	}
	q1, _ := sub.Array("q1")
	lo, _ := sub.Array("a_not_b")
	ro, _ := sub.Array("b_not_a")
	if r := report(claimchecktest.CheckEquality([]int64{0, 7, 12, 1 << 53}, q1)); !r.Valid {
		t.Errorf("without ExactNumbers, 9007199254740993 no longer passes as 2^53: %s", r.Text)
	}
	if r := report(claimchecktest.CheckDifference([]string{"apple", "banana", "cherry", "date"}, []string{"banana", "egg", "fig"}, lo, ro)); r.Valid {
		t.Error("without AnyOrder, residuals in another order pass")
	}
}
