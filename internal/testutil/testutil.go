// Package testutil holds what the tests of several packages share, so that
// each rule of the test suite has one owner:
//
//   - [Run], the table runner: every row carries a reason, and a row
//     without one fails the test;
//   - [Scalars] and [Shuffled], the seeded generator of mixed JSON scalars
//     that benchmarks and tests feed to the checkers;
//   - [Long] and [Size], the switch between the normal run and the long
//     run of the expensive randomized and exhaustive passes;
//   - [TB], what a check shared by tests, fuzz targets and rapid
//     properties needs of its T;
//   - [Int] and [Uintptr], the integers of 64 bits a table row means as
//     an int or a uintptr, so that the suite builds and runs where those
//     have 32.
//
// It imports only the standard library and is imported by tests only.
package testutil

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Run runs test on every row of a table, each row as a subtest named by
// its reason.
//
// A row is a struct with a string field named reason: what the row pins
// down and why. Before any row runs, Run checks them all and fails the
// test, naming every offender, if a reason is blank or repeats an earlier
// row's: a table never grows cases nobody can explain, and each subtest
// name selects exactly one row. A row type without a string field named
// reason fails the test too, whatever the table holds.
func Run[R any](t *testing.T, rows []R, test func(t *testing.T, row R)) {
	t.Helper()
	reason, problems := reasons(rows)
	for _, p := range problems {
		t.Error(p)
	}
	if len(problems) > 0 {
		t.FailNow()
	}
	for i := range rows {
		t.Run(reason(&rows[i]), func(t *testing.T) { test(t, rows[i]) })
	}
}

// reasons returns the reader of R's reason field and what is wrong with
// the reasons of rows, every problem found.
func reasons[R any](rows []R) (reason func(*R) string, problems []string) {
	typ := reflect.TypeFor[R]()
	var f reflect.StructField
	ok := typ.Kind() == reflect.Struct
	if ok {
		f, ok = typ.FieldByName("reason")
	}
	if !ok || f.Type.Kind() != reflect.String {
		return nil, []string{fmt.Sprintf("testutil.Run: a table row (%v) needs a string field named reason", typ)}
	}
	reason = func(r *R) string { return reflect.ValueOf(r).Elem().FieldByIndex(f.Index).String() }
	seen := make(map[string]int, len(rows))
	for i := range rows {
		r := reason(&rows[i])
		if strings.TrimSpace(r) == "" {
			problems = append(problems, fmt.Sprintf("table row %d has no reason", i))
			continue
		}
		if j, dup := seen[r]; dup {
			problems = append(problems, fmt.Sprintf("table rows %d and %d have the same reason %q", j, i, r))
			continue
		}
		seen[r] = i
	}
	return reason, problems
}

// LongEnv is the environment variable that asks for the long run.
const LongEnv = "CLAIMCHECK_LONG"

// Long reports whether the long run was asked for, with CLAIMCHECK_LONG=1
// in the environment. The normal run (go test ./...) checks a sample of
// the expensive passes, sized to keep the suite quick; the long run checks
// them at full size. The CI script runs both.
//
// Call Long and [Size] from a test, not from a package variable's
// initializer: go test caches a package's result keyed by the environment
// variables its tests read, and reads before the tests start are not seen.
func Long() bool { return os.Getenv(LongEnv) == "1" }

// Size returns long in the long run and normal otherwise: the number of
// random cases, or the size of an input, of an expensive pass.
func Size(normal, long int) int {
	if Long() {
		return long
	}
	return normal
}

// Scalars returns n scalars drawn from a generator seeded with seed, with
// the mix and the repeats of graded answers: about 35% integers (int),
// 20% doubles with a binary fraction (float64), 10% doubles as
// json.Number literals, 30% short strings, 5% nulls and booleans.
// Integers and strings are drawn from n values, so values repeat.
//
// Every value is one that encoding/json marshals to a JSON scalar, and the
// same n and seed give the same values on every run and platform.
func Scalars(n int, seed uint64) []any {
	rng := rand.New(rand.NewPCG(seed, 0x6d756c7469736574))
	xs := make([]any, n)
	for i := range xs {
		switch k := rng.IntN(100); {
		case k < 35:
			xs[i] = rng.IntN(n)
		case k < 55:
			xs[i] = float64(rng.IntN(n)) / 8
		case k < 65:
			xs[i] = json.Number(strconv.FormatFloat(rng.NormFloat64()*1e6, 'g', -1, 64))
		case k < 95:
			xs[i] = "s" + strconv.Itoa(rng.IntN(n))
		case k < 97:
			xs[i] = nil
		default:
			xs[i] = k%2 == 0
		}
	}
	return xs
}

// Shuffled returns a copy of xs in an order drawn from a generator seeded
// with seed.
func Shuffled[T any](xs []T, seed uint64) []T {
	out := append([]T(nil), xs...)
	rand.New(rand.NewPCG(seed, 1)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// TB is what a check needs of *testing.T, *testing.F and *rapid.T (which
// is not a testing.TB): a helper shared by table tests, fuzz targets and
// properties takes a TB.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Int returns v as an int, the row's intent, where an int holds it, and as
// an int64 where it does not (an int of 32 bits): both are the same JSON
// number, so a row's expectation holds either way.
func Int(v int64) any {
	if int64(int(v)) == v {
		return int(v)
	}
	return v
}

// Uintptr is [Int] for a uintptr, a uint64 where it does not hold v.
func Uintptr(v uint64) any {
	if uint64(uintptr(v)) == v {
		return uintptr(v)
	}
	return v
}
