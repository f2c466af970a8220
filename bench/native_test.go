package bench

// The native anchors (bench/native): the inputs they time, and the test that
// checks every answer they give against claimcheck's on the same bytes.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck"
	"github.com/claimcheck/claimcheck/canon"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/multiset"
	"github.com/claimcheck/claimcheck/rational"
	"github.com/claimcheck/claimcheck/schema"
)

// The environment of the native step (bench/run.sh and .ci/run set them):
const (
	// nativeBinEnv names the folder holding eqcheck and ratcheck, built by
	// native/build.sh; unset, TestNativeAnchors builds them itself.
	nativeBinEnv = "CLAIMCHECK_NATIVE_BIN"
	// nativeDataEnv names the folder of the timed inputs: TestNativeInputs
	// writes them there, and TestNativeAnchors cross-checks them too.
	nativeDataEnv = "CLAIMCHECK_NATIVE_DATA"
)

// scalingSizes are the element counts of BenchmarkScaling and of the count
// anchors' inputs.
var scalingSizes = []int{10000, 100000, 1000000}

// ratCases are BenchmarkRational's expressions, by name, which the rational
// anchors time too.
var ratCases = []struct{ name, expr string }{
	{"seed", "1 + 1/2 + 1/3 + 1/4"},
	{"H10", harmonic(10)},
	{"H100", harmonic(100)},
	{"500-digit", bigLiterals()},
}

// ratFile is the anchors' form of a rational input: the expression, a line
// feed, the claim (require_canonical is true).
func ratFile(expr, claim string) []byte { return []byte(expr + "\n" + claim + "\n") }

// trueClaim is expr's value by the big.Rat oracle of peers_test.go.
func trueClaim(expr string) string {
	p := &ratEval{s: expr}
	v, err := p.expr()
	if err != nil {
		panic(err)
	}
	return v.RatString()
}

// benchInputs returns the timed inputs by file name: eq_N.json is the
// equality document of N mixed scalars and their shuffle, eq_10000.json the
// very bytes BenchmarkExecute reads; rat_NAME.txt is BenchmarkRational's case
// NAME with its true claim.
func benchInputs() map[string][]byte {
	files := map[string][]byte{}
	for _, n := range scalingSizes {
		files["eq_"+strconv.Itoa(n)+".json"] = equalityDoc(equalityInput(n))
	}
	for _, c := range ratCases {
		files["rat_"+c.name+".txt"] = ratFile(c.expr, trueClaim(c.expr))
	}
	return files
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNativeInputs writes the timed inputs into $CLAIMCHECK_NATIVE_DATA, for
// bench/run.sh; without it, it checks that the Execute document is the one
// the table quotes by size.
func TestNativeInputs(t *testing.T) {
	files := benchInputs()
	if n := len(files["eq_10000.json"]); n != 142924 {
		t.Errorf("the 10,000-item equality document is %d bytes, want 142,924 (the generator changed?)", n)
	}
	dir := os.Getenv(nativeDataEnv)
	if dir == "" {
		t.Skip(nativeDataEnv + " not set: nothing to write")
	}
	writeFiles(t, dir, files)
}

// nativeBin returns the folder of the anchors: $CLAIMCHECK_NATIVE_BIN, or a
// fresh build by native/build.sh; it skips the test, saying why, when the
// anchors cannot be built here (no compiler or no Debian package).
func nativeBin(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv(nativeBinEnv); dir != "" {
		return dir
	}
	dir := t.TempDir()
	out, err := exec.Command("native/build.sh", dir).CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 3 {
		t.Skip(strings.TrimSpace(string(out)))
	}
	if err != nil {
		t.Fatalf("native/build.sh: %v\n%s", err, out)
	}
	return dir
}

// runAnchor runs `PROGRAM check MODE FILE...` and returns each file's
// verdict line (the rest of its line after the file name).
func runAnchor(t *testing.T, program, mode string, files []string) map[string]string {
	t.Helper()
	out, err := exec.Command(program, append([]string{"check", mode}, files...)...).Output()
	if err != nil {
		t.Fatalf("%s check %s: %v", program, mode, err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		file, verdict, _ := strings.Cut(line, " ")
		got[file] = verdict
	}
	return got
}

// errorVerdict is the anchors' form of a claimcheck error.
func errorVerdict(err error) string {
	var e *claimcheck.Error
	if errors.As(err, &e) {
		return "error " + string(e.Code)
	}
	return "error " + err.Error()
}

// executeVerdict is claimcheck's answer to an equality document: Execute's.
func executeVerdict(doc []byte) string {
	out, err := schema.Execute(schema.MultisetEquality, "", doc)
	switch {
	case err != nil:
		return errorVerdict(err)
	case out.Valid:
		return "valid"
	}
	return "invalid"
}

// countVerdict is claimcheck's answer over the document's values decoded
// first (canon.ParseArray), with the limits raised to the arrays' lengths:
// what the count anchors do.
func countVerdict(doc []byte) string {
	var raw struct{ Source, Claim json.RawMessage }
	if err := json.Unmarshal(doc, &raw); err != nil {
		return "error invalid_input"
	}
	source, err := canon.ParseArray(raw.Source)
	if err != nil {
		return errorVerdict(err)
	}
	claim, err := canon.ParseArray(raw.Claim)
	if err != nil {
		return errorVerdict(err)
	}
	n := max(len(source), len(claim), 1)
	res, err := multiset.CheckEquality(multiset.EqualityInput[canon.Scalar, canon.Scalar]{Source: source, Claim: claim}, multiset.Limits{MaxItems: n, MaxDistinct: n})
	switch {
	case err != nil:
		return errorVerdict(err)
	case res.Valid:
		return "valid"
	}
	return "invalid"
}

// ratVerdict is claimcheck's answer to a rational input file, in the form
// ratcheck prints: the verdict, the reason and the exact value.
func ratVerdict(file []byte) string {
	expr, claim, _ := strings.Cut(strings.TrimSuffix(string(file), "\n"), "\n")
	res, err := rational.CheckRational(rational.Input{Expression: expr, ClaimedValue: claim, RequireCanonical: true}, rational.Limits{})
	switch {
	case err != nil:
		return errorVerdict(err)
	case res.Valid:
		return "valid " + res.Value.String()
	case res.Value == nil:
		return "invalid " + string(res.Reason) + " null"
	}
	return "invalid " + string(res.Reason) + " " + res.Value.String()
}

// eqRow and ratRow are the cross-check's own inputs: every verdict, the
// semantics that make two values equal or not, and single-fault errors.
type eqRow struct {
	reason string
	doc    string
	want   string // claimcheck's answer, pinned so that a test of the test fails
}

var eqRows = []eqRow{
	{"every scalar kind, reordered", `{"source":[1,"a",null,true,false],"claim":[false,true,null,"a",1]}`, "valid"},
	{"claim before source", `{"claim":[1,2,2],"source":[2,1,2]}`, "valid"},
	{"empty arrays", `{"source":[],"claim":[]}`, "valid"},
	{"-0 is 0", `{"source":[-0,-0.0,1],"claim":[0,0,1]}`, "valid"},
	{"one number written four ways", `{"source":[1,1,1,1],"claim":[1.0,1e0,100e-2,10E-1]}`, "valid"},
	{"2^53+1 rounds to 2^53", `{"source":[9007199254740993],"claim":[9007199254740992]}`, "valid"},
	{"integers past 64 bits are their doubles", `{"source":[18446744073709551615,-9223372036854775809],"claim":[-9223372036854775808,18446744073709551616]}`, "valid"},
	{"an underflow is 0", `{"source":[1e-400],"claim":[0]}`, "valid"},
	{"a string is its decoded bytes", `{"source":["\u0041","\/","\u00e9x"],"claim":["A","/","éx"]}`, "valid"},
	{"long strings, equal", `{"source":["abcdefghijklmnopqrstuvwxyz","abcdefghijklmnop"],"claim":["abcdefghijklmnop","abcdefghijklmnopqrstuvwxyz"]}`, "valid"},
	{"long strings differing in their last byte", `{"source":["abcdefghijklmnopqrstuvwxyz"],"claim":["abcdefghijklmnopqrstuvwxyZ"]}`, "invalid"},
	{"a 3-byte string differing in its middle byte", `{"source":["abc"],"claim":["axc"]}`, "invalid"},
	{"a 5-byte string differing in its last byte", `{"source":["abcde"],"claim":["abcdx"]}`, "invalid"},
	{"a 9-byte string differing in its last byte", `{"source":["abcdefghi"],"claim":["abcdefghx"]}`, "invalid"},
	{"a 15-byte string differing in its 13th byte", `{"source":["abcdefghijklmno"],"claim":["abcdefghijklxno"]}`, "invalid"},
	{"strings of every short length, reordered", `{"source":["","a","ab","abc","abcd","abcde","abcdefgh","abcdefghi","abcdefghijklmnop"],"claim":["abcdefghijklmnop","abcdefghi","abcdefgh","abcde","abcd","abc","ab","a",""]}`, "valid"},
	{"a trailing NUL is a different string", `{"source":["a\u0000"],"claim":["a"]}`, "invalid"},
	{"a string never equals a number", `{"source":["1"],"claim":[1]}`, "invalid"},
	{"a string never equals true", `{"source":["true",null],"claim":[true,"null"]}`, "invalid"},
	{"counts differ", `{"source":[1,1,2],"claim":[1,2,2]}`, "invalid"},
	{"a claim value the source lacks", `{"source":[1,2],"claim":[1,3]}`, "invalid"},
	{"a claim longer than the source", `{"source":[1],"claim":[1,1]}`, "invalid"},
	{"false is not null", `{"source":[false],"claim":[null]}`, "invalid"},
	{"an escaped member name", `{"\u0073ource":[1],"claim":[1]}`, "valid"},
	{"an unknown member", `{"source":[],"claim":[],"other":1}`, "error invalid_input"},
	{"a repeated member", `{"source":[],"source":[],"claim":[]}`, "error invalid_input"},
	{"a missing member", `{"source":[1]}`, "error invalid_input"},
	{"a member that is not an array", `{"source":1,"claim":[]}`, "error invalid_input"},
	{"an object element", `{"source":[{}],"claim":[]}`, "error invalid_input"},
	{"an array element", `{"source":[[1]],"claim":[[1]]}`, "error invalid_input"},
	{"the root is an array", `[1]`, "error invalid_input"},
	{"a number out of a double's range", `{"source":[1e400],"claim":[1e400]}`, "error invalid_input"},
	{"a lone surrogate escape", `{"source":["\ud800"],"claim":["\ud800"]}`, "error invalid_input"},
	{"a grammar error", `{"source":[1,],"claim":[1]}`, "error invalid_input"},
	{"not UTF-8", "{\"source\":[\"\xff\"],\"claim\":[\"\xff\"]}", "error invalid_input"},
	{"10,001 items", `{"source":[` + strings.Repeat("1,", 10000) + `1],"claim":[]}`, "error limit_exceeded"},
}

type ratRow struct {
	reason, expr, claim string
	want                string
}

var ratRows = []ratRow{
	{"a sum of fractions", "1 + 1/2 + 1/3 + 1/4", "25/12", "valid 25/12"},
	{"a negative value", "1 - 3/2", "-1/2", "valid -1/2"},
	{"the Unicode operators", "6 × 7 ÷ 2 − 1", "20", "valid 20"},
	{"unary minus and parentheses", "-(2 - -(3)) * (1/4)", "-5/4", "valid -5/4"},
	{"past 64 bits", "9223372036854775807 * 9223372036854775807 - 1", "85070591730234615847396907784232501248", "valid 85070591730234615847396907784232501248"},
	{"a 19-digit literal and a division", "1234567890123456789 / 3 / 7", "411522630041152263/7", "valid 411522630041152263/7"},
	{"whitespace of every kind", "1\t+\r2", "3", "valid 3"},
	{"a wrong value", "1 + 1", "3", "invalid value_mismatch 2"},
	{"not canonical: 2/2", "1/2 + 1/2", "2/2", "invalid not_canonical 1"},
	{"not canonical: -0", "1 - 1", "-0", "invalid not_canonical 0"},
	{"not canonical: 3/1", "3", "3/1", "invalid not_canonical 3"},
	{"a division by zero", "1 / (1 - 1)", "1", "invalid division_by_zero null"},
	{"the first division by zero stops evaluation", "1/0 + " + strings.Repeat("9", 300) + "*" + strings.Repeat("9", 300), "1", "invalid division_by_zero null"},
	{"a syntax error wins over a held division by zero", "1/0 +", "1", "error invalid_input"},
	{"a leading zero", "007", "7", "error invalid_input"},
	{"a decimal point", "1.5", "3/2", "error invalid_input"},
	{"an empty expression", "", "0", "error invalid_input"},
	{"an expression that is not UTF-8", "1 + \xff", "1", "error invalid_input"},
	{"a UTF-16 surrogate encoded in UTF-8", "1 \xed\xa0\x80 2", "1", "error invalid_input"},
	{"a claim that is not a rational", "1", "1/0", "error invalid_input"},
	{"a claim with 501 digits", "1", strings.Repeat("1", 501), "error limit_exceeded"},
	{"the claim is checked before the expression", "1 +", strings.Repeat("1", 501), "error limit_exceeded"},
	{"a literal with 501 digits", strings.Repeat("1", 501), "1", "error limit_exceeded"},
	{"an intermediate over 500 digits", strings.Repeat("9", 300) + " * " + strings.Repeat("9", 300) + " / 3", "1", "error limit_exceeded"},
	{"depth 65", strings.Repeat("(", 65) + "1" + strings.Repeat(")", 65), "1", "error limit_exceeded"},
	{"depth 64", strings.Repeat("-", 64) + "1", "1", "valid 1"},
	{"the 1025th token", strings.Repeat("1+", 512) + "1", "513", "error limit_exceeded"},
	{"over 4096 bytes", strings.Repeat(" ", 4096) + "1", "1", "error limit_exceeded"},
}

// TestNativeAnchors runs every anchor on every input of its suite (its own
// rows, the timed inputs, and those of $CLAIMCHECK_NATIVE_DATA if set) and
// fails where its answer is not claimcheck's for the same bytes: an anchor
// that checks something else is no anchor.
func TestNativeAnchors(t *testing.T) {
	bin := nativeBin(t)
	dir := t.TempDir()
	eqFiles, countFiles, ratFiles := map[string][]byte{}, map[string][]byte{}, map[string][]byte{}
	reasons := map[string]string{}
	for i, r := range eqRows {
		name := filepath.Join(dir, fmt.Sprintf("eq-row%02d.json", i))
		eqFiles[name], reasons[name] = []byte(r.doc), r.reason
		if !strings.HasPrefix(r.want, "error") { // the count modes read values, not documents
			countFiles[name] = eqFiles[name]
		}
	}
	for i, r := range ratRows {
		name := filepath.Join(dir, fmt.Sprintf("rat-row%02d.txt", i))
		ratFiles[name], reasons[name] = ratFile(r.expr, r.claim), r.reason
	}
	inputs := benchInputs()
	if data := os.Getenv(nativeDataEnv); data != "" {
		// run.sh's inputs are the ones the benchmarks read, byte for byte.
		for name, b := range inputs {
			got, err := os.ReadFile(filepath.Join(data, name))
			if err != nil || !bytes.Equal(got, b) {
				t.Errorf("%s: not the benchmarks' input (%v)", filepath.Join(data, name), err)
			}
		}
	}
	// The timed inputs, and the 10^5 one with one claim value changed to
	// one the source lacks.
	source, claim := equalityInput(100000)
	claim[0] = "not in source"
	mismatch := equalityDoc(source, claim)
	if got := countVerdict(mismatch); got != "invalid" {
		t.Fatalf("the changed 10^5 input: claimcheck says %q, want invalid", got)
	}
	inputs["eq_100000_mismatch.json"] = mismatch
	writeFiles(t, dir, inputs)
	for name, b := range inputs {
		path := filepath.Join(dir, name)
		reasons[path] = "timed input " + name
		switch {
		case strings.HasPrefix(name, "rat_"):
			ratFiles[path] = b
		case name == "eq_10000.json":
			eqFiles[path], countFiles[path] = b, b
		default:
			countFiles[path] = b
		}
	}
	for _, files := range []map[string][]byte{eqFiles, ratFiles} {
		for path, b := range files {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	// The rows' pinned answers are claimcheck's.
	for _, r := range eqRows {
		if got := executeVerdict([]byte(r.doc)); got != r.want {
			t.Errorf("eq row %q: claimcheck says %q, the row %q", r.reason, got, r.want)
		}
	}
	for _, r := range ratRows {
		if got := ratVerdict(ratFile(r.expr, r.claim)); got != r.want {
			t.Errorf("rational row %q: claimcheck says %q, the row %q", r.reason, got, r.want)
		}
	}

	type check struct {
		reason        string
		program, mode string
		files         map[string][]byte
		claimcheck    func([]byte) string
	}
	var checks []check
	for _, m := range []string{"od-absl", "od-oa", "od-oa-batch"} {
		checks = append(checks, check{"Execute anchor " + m, "eqcheck", m, eqFiles, executeVerdict})
	}
	for _, m := range []string{"count-absl", "count-oa", "count-oa-batch"} {
		checks = append(checks, check{"count anchor " + m, "eqcheck", m, countFiles, countVerdict})
	}
	for _, m := range []string{"mpq", "lazy", "tier"} {
		checks = append(checks, check{"rational anchor " + m, "ratcheck", m, ratFiles, ratVerdict})
	}
	testutil.Run(t, checks, func(t *testing.T, c check) {
		names := slices.Sorted(maps.Keys(c.files))
		got := runAnchor(t, filepath.Join(bin, c.program), c.mode, names)
		for _, name := range names {
			want := c.claimcheck(c.files[name])
			if got[name] != want {
				t.Errorf("%s (%s): the anchor says %q, claimcheck %q", filepath.Base(name), reasons[name], got[name], want)
			}
		}
	})
}
