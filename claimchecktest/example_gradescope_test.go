package claimchecktest_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/claimchecktest"
)

// grade grades one student's submission, a JSON object of three answers,
// and returns Gradescope's results.json: a score, a status and a report
// per question, each report the student's (HideReference), the total,
// the time it took and the document's visibility. A submission that is not
// a JSON object of answers is reported once, at the top, where it cannot
// be read (line and column), and each question says it could not be read.
func grade(submission []byte) ([]byte, error) {
	start := time.Now()
	type test struct {
		Name     string  `json:"name"`
		Score    float64 `json:"score"`
		MaxScore float64 `json:"max_score"`
		Status   string  `json:"status"` // passed or failed
		Output   string  `json:"output"`
	}
	var results struct {
		Score         float64 `json:"score"`
		ExecutionTime float64 `json:"execution_time"` // seconds
		Visibility    string  `json:"visibility"`
		Output        string  `json:"output,omitempty"`
		Tests         []test  `json:"tests"`
	}
	results.Visibility = "visible"
	// Every number as the student wrote it: 9007199254740993 is not 2^53.
	sub, err := canon.ParseSubmission(submission, canon.ExactNumbers())
	if err != nil { // not a JSON object of answers: none can be read
		results.Output = "your submission could not be read: " + err.Error()
	}
	hide := claimchecktest.HideReference()
	for _, q := range []struct {
		name   string
		points float64
		check  func() (claimchecktest.Report, error)
	}{
		{"Q1 the ids the query returns", 2, func() (claimchecktest.Report, error) {
			q1, _ := sub.Array("q1") // an answer refused or missing: In reports why
			return claimchecktest.CheckEquality([]int64{0, 7, 12, 1 << 53}, q1, claimchecktest.In(sub, "q1"), hide)
		}},
		{"Q2 in A but not in B, in B but not in A", 2, func() (claimchecktest.Report, error) {
			aNotB, _ := sub.Array("a_not_b")
			bNotA, _ := sub.Array("b_not_a")
			return claimchecktest.CheckDifference([]string{"apple", "banana", "cherry", "date"}, []string{"banana", "egg", "fig"},
				aNotB, bNotA, claimchecktest.In(sub, "a_not_b", "b_not_a"), claimchecktest.AnyOrder(), hide)
		}},
		{"Q3 1 + 1/2 + 1/3 + 1/4 in lowest terms", 1, func() (claimchecktest.Report, error) {
			q3, _ := sub.String("q3")
			return claimchecktest.CheckRationalCanonical("1 + 1/2 + 1/3 + 1/4", q3, claimchecktest.In(sub, "q3"), hide)
		}},
	} {
		t := test{Name: q.name, MaxScore: q.points, Status: "failed", Output: "the submission could not be read"}
		if sub != nil {
			r, err := q.check()
			if err != nil { // a *claimchecktest.ReferenceError: the grading code's fault, no grade for anyone
				return nil, err
			}
			t.Score, t.Output = r.Score*q.points, r.Text
			if r.Valid {
				t.Status, t.Output = "passed", "correct"
			}
		}
		results.Tests = append(results.Tests, t)
		results.Score += t.Score
	}
	results.ExecutionTime = time.Since(start).Round(time.Second).Seconds()
	return json.MarshalIndent(results, "", "  ")
}

// A grader for Gradescope writes results.json (in /autograder/results/)
// from the student's submission; here, one with an id in Q1 that is not
// the expected 2^53 (though a double would round it to that), Q2's lists
// in another order than the tool's, and white space in Q3's fraction.
func Example_gradescope() {
	results, err := grade([]byte(`{
		"q1": [9007199254740993, 12, 7, 0],
		"a_not_b": ["cherry", "date", "apple"], "b_not_a": ["fig", "egg"],
		"q3": "25 / 12"
	}`))
	if err != nil {
		fmt.Println(err)
	}
	fmt.Println(string(results))
	// Output:
	// {
	//   "score": 3.5,
	//   "execution_time": 0,
	//   "visibility": "visible",
	//   "tests": [
	//     {
	//       "name": "Q1 the ids the query returns",
	//       "score": 1.5,
	//       "max_score": 2,
	//       "status": "failed",
	//       "output": "the claim is not the expected bag: 1 value occurs too often or should not occur, and 1 occurrence is missing\n  value             claim  fault             first at\n  9007199254740993      1  should not occur  /q1/0"
	//     },
	//     {
	//       "name": "Q2 in A but not in B, in B but not in A",
	//       "score": 2,
	//       "max_score": 2,
	//       "status": "passed",
	//       "output": "correct"
	//     },
	//     {
	//       "name": "Q3 1 + 1/2 + 1/3 + 1/4 in lowest terms",
	//       "score": 0,
	//       "max_score": 1,
	//       "status": "failed",
	//       "output": "cannot check the claim at /q3: claimed value \"25 / 12\" is not an integer or fraction such as 3, -3 or 3/4: there is white space around the fraction bar '/'; remove it (write \"25/12\")"
	//     }
	//   ]
	// }
}
