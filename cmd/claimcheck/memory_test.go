package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/mcpserver"
	"github.com/claimcheck/claimcheck/schema"
)

// memCalls is how many large calls are sent at once.
const memCalls = 32

// peakRSS returns the peak resident set size of process pid (VmHWM), in
// bytes; ok is false where /proc does not report it.
func peakRSS(pid int) (n int64, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if v, found := strings.CutPrefix(line, "VmHWM:"); found {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// largeDocument is an equality document of about n bytes: a source of
// (n-40)/2 ones (far over max_items) and a claim of one.
func largeDocument(n int) []byte {
	doc := make([]byte, 0, n)
	doc = append(doc, `{"source":[1`...)
	for len(doc) < n-20 {
		doc = append(doc, ",1"...)
	}
	return append(doc, `],"claim":[1]}`...)
}

// testServeMemory: memCalls concurrent calls of about 60 MiB (6 MiB
// outside the long run), to /mcp, to /v1 execute, and half to each, keep
// the server's peak RSS within a bound derived from its body budget, with
// the budget's default and with one set lower. The calls over the budget
// are refused at once (503, or a connection closed under an upload:
// counted as refused), the others answered with the max_items error.
//
// The bound is the one serve prints for its flags (service.MemoryBound,
// with -max-connections 64): the bodies held are at most the budget B,
// whichever route they came by (the two routes share it); each of the C
// checks running reads its document as one string copy (schema.Execute),
// at most the body cap M; so at most B + C × M is live. Go's collector
// lets the heap grow to twice what was live at its last collection
// (GOGC=100), and RSS follows the heap, so the test asserts VmHWM ≤ 2 ×
// (B + C × M) + 64 MiB + the connections' cost (the idle process is about
// 12 MiB) and logs the figures.
func testServeMemory(t *testing.T, bin string) {
	if _, ok := peakRSS(os.Getpid()); !ok {
		t.Skip("no VmHWM in /proc/self/status")
	}
	size := testutil.Size(6<<20, 60<<20)
	maxBody := int64(testutil.Size(8<<20, 64<<20))
	const conc = 4 // -max-concurrent, 2 × GOMAXPROCS on 2 cores, set so the bound is the same everywhere
	doc := largeDocument(size)
	eq := schema.Tools()[0]
	call := concat(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+eq.ID+`","arguments":`, doc, `}}`)
	// The shared budget's default: 2 × slots × the larger body cap, /mcp's.
	defaultBudget := 2 * conc * (maxBody + mcpserver.EnvelopeBytes)
	for _, tc := range []struct {
		budget int64 // -max-buffered-bytes; 0 for the default
		routes []string
		reason string
	}{
		{0, []string{"/mcp"}, "the default budget: 2 × max-concurrent × the body cap"},
		{0, []string{eq.ExecuteURL}, "/v1 for comparison, under the same budget"},
		{0, []string{"/mcp", eq.ExecuteURL}, "both routes at once, under the one budget they share"},
		{4 * maxBody, []string{"/mcp"}, "a budget set lower (256 MiB in the long run) is the bound"},
		{4 * maxBody, []string{eq.ExecuteURL}, "/v1 for comparison"},
		{4 * maxBody, []string{"/mcp", eq.ExecuteURL}, "both routes at once"},
	} {
		budget := tc.budget
		if budget == 0 {
			budget = defaultBudget
		}
		name := "mcp and v1"
		if len(tc.routes) == 1 && tc.routes[0] == "/mcp" {
			name = "mcp"
		} else if len(tc.routes) == 1 {
			name = "v1"
		}
		t.Run(fmt.Sprintf("%s budget %d MiB", name, budget>>20), func(t *testing.T) {
			p := startServe(t, bin, "-max-concurrent", strconv.Itoa(conc), "-max-body-bytes", strconv.FormatInt(maxBody, 10),
				"-max-buffered-bytes", strconv.FormatInt(tc.budget, 10), "-max-connections", "64")
			idle, _ := peakRSS(p.cmd.Process.Pid)
			client := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{MaxConnsPerHost: memCalls, MaxIdleConnsPerHost: memCalls}}
			var mu sync.Mutex
			outcomes := map[string]int{}
			var wg sync.WaitGroup
			for i := range memCalls {
				route := tc.routes[i%len(tc.routes)]
				body := doc
				if route == "/mcp" {
					body = call
				}
				wg.Go(func() {
					outcome := "refused (connection closed)"
					res, err := client.Post(p.base+route, "application/json", bytes.NewReader(body))
					if err == nil {
						b, _ := io.ReadAll(res.Body)
						res.Body.Close()
						outcome = strconv.Itoa(res.StatusCode)
						if (res.StatusCode == 200 || res.StatusCode == 422) && !bytes.Contains(b, []byte("max_items")) {
							outcome += " without max_items"
						}
					}
					mu.Lock()
					outcomes[outcome]++
					mu.Unlock()
				})
			}
			wg.Wait()
			peak, _ := peakRSS(p.cmd.Process.Pid)
			bound := p.bound
			t.Logf("%d concurrent %d MiB calls to %s, budget %d MiB: peak RSS %d MiB (idle %d MiB), bound %d MiB; outcomes %v",
				memCalls, size>>20, name, budget>>20, peak>>20, idle>>20, bound>>20, outcomes)
			if peak > bound {
				t.Errorf("peak RSS %d MiB over the bound %d MiB that serve printed", peak>>20, bound>>20)
			}
			if outcomes["200 without max_items"]+outcomes["422 without max_items"] > 0 || outcomes["200"]+outcomes["422"] == 0 {
				t.Errorf("outcomes %v: want some answered with the max_items error, none otherwise", outcomes)
			}
		})
	}
}

// concat joins a prefix, the bytes and a suffix.
func concat(prefix string, b []byte, suffix string) []byte {
	out := make([]byte, 0, len(prefix)+len(b)+len(suffix))
	return append(append(append(out, prefix...), b...), suffix...)
}
