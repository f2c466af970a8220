package claimchecktest_test

import (
	"fmt"
	"time"

	"github.com/claimcheck/claimcheck/claimchecktest"
)

// runStudent calls a student's function f for its answer, with a deadline: a
// panic in f is recovered and returned as an error, and so is an f that
// does not return within d. A Go program cannot stop a goroutine, so a
// looping f goes on (and uses a core) until the grading process ends: to
// grade many such answers, run each student's code in a child process
// (os/exec with exec.CommandContext and a context deadline), which the
// deadline kills.
func runStudent[T any](f func() T, d time.Duration) (answer T, err error) {
	type result struct {
		answer T
		err    error
	}
	done := make(chan result, 1) // buffered: a late f does not block forever
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: fmt.Errorf("your code panicked: %v", p)}
			}
		}()
		done <- result{answer: f()}
	}()
	select {
	case r := <-done:
		return r.answer, r.err
	case <-time.After(d):
		return answer, fmt.Errorf("your code did not return within %v", d)
	}
}

// Student code that panics or loops is graded as an answer that cannot be
// checked: run recovers the panic and gives up on the loop after a
// deadline, and the grader reports either without calling the helper.
func Example_studentCode() {
	students := []struct {
		name    string
		factors func() []int
	}{
		{"right", func() []int { return []int{2, 2, 3} }},
		{"panics", func() []int { var xs []int; return xs[:3] }},
		{"loops", func() []int {
			for {
				time.Sleep(time.Millisecond)
			}
		}},
	}
	for _, s := range students {
		answer, err := runStudent(s.factors, 100*time.Millisecond)
		if err != nil {
			fmt.Printf("%s: 0 points: %v\n", s.name, err)
			continue
		}
		r, _ := claimchecktest.CheckEquality([]int{2, 2, 3}, answer, claimchecktest.HideReference())
		fmt.Printf("%s: %v points\n", s.name, r.Score)
	}
	// Output:
	// right: 1 points
	// panics: 0 points: your code panicked: runtime error: slice bounds out of range [:3] with capacity 0
	// loops: 0 points: your code did not return within 100ms
}
