package testutil

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func TestReasons(t *testing.T) {
	type row struct {
		in     int
		reason string
	}
	type table struct {
		rows   []row
		want   []string
		reason string
	}
	Run(t, []table{
		{nil, nil, "an empty table"},
		{[]row{{1, "one"}, {2, "two"}}, nil, "distinct reasons"},
		{[]row{{1, "one"}, {2, ""}, {3, " \t"}}, []string{"table row 1 has no reason", "table row 2 has no reason"},
			"empty and blank reasons, every one reported"},
		{[]row{{1, "one"}, {2, "two"}, {3, "one"}}, []string{`table rows 0 and 2 have the same reason "one"`},
			"a repeated reason"},
	}, func(t *testing.T, tc table) {
		reason, got := reasons(tc.rows)
		if !slices.Equal(got, tc.want) {
			t.Errorf("reasons(%v) = %q, want %q", tc.rows, got, tc.want)
		}
		for i := range tc.rows {
			if r := reason(&tc.rows[i]); r != tc.rows[i].reason {
				t.Errorf("reason of %v = %q", tc.rows[i], r)
			}
		}
	})
}

func TestReasonsNeedsAStringField(t *testing.T) {
	want := []string{"testutil.Run: a table row (struct { reason int }) needs a string field named reason"}
	if _, got := reasons([]struct{ reason int }{{1}}); !slices.Equal(got, want) {
		t.Errorf("int reason: %q", got)
	}
	if _, got := reasons([]string{"a"}); len(got) != 1 {
		t.Errorf("string rows: %q", got)
	}
	if _, got := reasons([]struct{ Reason string }{{"a"}}); len(got) != 1 {
		t.Errorf("a field Reason, not reason: %q", got)
	}
}

func TestRunRunsEveryRowAsASubtest(t *testing.T) {
	var ran []string
	rows := []struct{ in, reason string }{{"a", "first"}, {"b", "second row"}}
	Run(t, rows, func(t *testing.T, r struct{ in, reason string }) {
		ran = append(ran, t.Name()+"="+r.in)
	})
	want := []string{t.Name() + "/first=a", t.Name() + "/second_row=b"}
	if !slices.Equal(ran, want) {
		t.Errorf("ran %q, want %q", ran, want)
	}
}

// TestScalars: deterministic per seed, every value a JSON scalar, each
// kind near its documented share, and values repeat.
func TestScalars(t *testing.T) {
	const n = 4000
	xs := Scalars(n, 1)
	if !reflect.DeepEqual(xs, Scalars(n, 1)) {
		t.Fatal("the same seed gave different scalars")
	}
	if reflect.DeepEqual(xs, Scalars(n, 2)) {
		t.Fatal("two seeds gave the same scalars")
	}
	share := map[string]int{} // percent of the values per kind
	distinct := map[string]bool{}
	for _, x := range xs {
		b, err := json.Marshal(x)
		if err != nil || !json.Valid(b) || b[0] == '[' || b[0] == '{' {
			t.Fatalf("json.Marshal(%#v) = %s, %v; want a JSON scalar", x, b, err)
		}
		distinct[string(b)] = true
		kind := "null and booleans"
		switch x.(type) {
		case int, float64, json.Number, string:
			kind = reflect.TypeOf(x).String()
		}
		share[kind] += 100
	}
	for kind, want := range map[string]int{"int": 35, "float64": 20, "json.Number": 10, "string": 30, "null and booleans": 5} {
		if got := share[kind] / n; got < want*3/4 || got > want*5/4+1 {
			t.Errorf("%s: %d%% of the values, want about %d%%", kind, got, want)
		}
	}
	if len(distinct) > n*9/10 {
		t.Errorf("%d distinct values of %d: too few repeats", len(distinct), n)
	}
}

func TestShuffled(t *testing.T) {
	xs := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	a, b := Shuffled(xs, 1), Shuffled(xs, 1)
	if !slices.Equal(a, b) || slices.Equal(a, xs) || !slices.Equal(xs, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) {
		t.Fatalf("Shuffled = %v, %v of %v", a, b, xs)
	}
	slices.Sort(a)
	if !slices.Equal(a, xs) {
		t.Fatalf("Shuffled changed the elements: %v", a)
	}
}

func TestSize(t *testing.T) {
	t.Setenv(LongEnv, "")
	if Long() || Size(1, 2) != 1 {
		t.Error("normal run: Long or Size(1, 2) wrong")
	}
	t.Setenv(LongEnv, "1")
	if !Long() || Size(1, 2) != 2 {
		t.Error("long run: Long or Size(1, 2) wrong")
	}
}

// TestTB: the three kinds of T a shared check is called with are TBs.
func TestTB(t *testing.T) {
	var _ TB = t
	var _ TB = (*testing.F)(nil)
	var _ TB = (*rapid.T)(nil)
}
