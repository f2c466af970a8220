package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claimcheck/claimcheck/internal/jsontape"
	"github.com/claimcheck/claimcheck/internal/jsonwire"
)

// fuzzSeeds are messages of every kind the transports meet: requests,
// notifications, batches and the hostile messages of TestHostile.
var fuzzSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"multiset-equality-check","arguments":{"source":[1,2],"claim":[2,1]}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"multiset-equality-check@1.0.0","arguments":{"source":["x"],"claim":[]}}}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{"a":"\"}\\"}}}`,
	`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":[[[[[[1]]]]]],"name":"rational-expression-check"}}`,
	`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"multiset-equality-check","arguments":{"source":[1,],"claim":[]}}}`,
	`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"multiset-equality-check","arguments":true}}`,
	`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
	`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"cursor":"x"}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"}]`,
	`[]`,
	`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b"}}`,
	`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
	"\ufeff{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
	`{"jsonrpc":"2.0","id":1,"method":"ping"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"pi`,
	"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}",
	`{"jsonrpc":"2.0","id":1e999,"method":"ping","params":{"\u0000":1}}`,
	` 5 `,
	`null`,
	`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"multiset-equality-check","arguments":{"source":[1],"claim":[1]}}}`,
	`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
	`[{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}]`,
	`{"jsonrpc":"2.0","id":null,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01"},"name":"x","arguments":{"a":[1,]}}}`,
}

// fuzzServer is a server whose document cap is small enough for the
// fuzzer's documents to cross it.
func fuzzServer() *Server { return New(Options{MaxDocumentBytes: 16, MaxConcurrent: 2}) }

// oracleScan is what a scanner must find in a frame that is one JSON text,
// read from its full parse: whether it is a message the scanner follows
// (an object, no member name repeated in it or in an object params), and
// its id, method, params.name and arguments.
func oracleScan(t *testing.T, doc *jsontape.Doc) (want scanResult) {
	t.Helper()
	root := &doc.Nodes[0]
	if root.Kind == jsontape.Array {
		want.batch = true
	}
	if root.Kind != jsontape.Object {
		return want
	}
	want.ok = true
	members := func(i int, visit func(name string, c int)) {
		seen := map[string]bool{}
		for c, m := i+1, 0; m < doc.Nodes[i].Rec; c, m = doc.Nodes[c].Skip, m+1 {
			name := doc.Name(&doc.Nodes[c])
			if seen[name] {
				want.ok, want.dup = false, true
			}
			seen[name] = true
			visit(name, c)
		}
	}
	members(0, func(name string, c int) {
		v := &doc.Nodes[c]
		switch name {
		case "id":
			if v.Kind == jsontape.Number || v.Kind == jsontape.String && utf8.ValidString(doc.Str(v)) {
				want.id = []byte(doc.Src[v.Start:v.End])
			}
		case "method":
			if v.Kind == jsontape.String {
				want.method = doc.Str(v)
			}
		case "params":
			if v.Kind != jsontape.Object {
				return
			}
			members(c, func(name string, c int) {
				v := &doc.Nodes[c]
				switch name {
				case "name":
					if v.Kind == jsontape.String {
						want.name, want.hasName = doc.Str(v), true
					}
				case "_meta":
					if v.Kind == jsontape.Object && want.meta == "" {
						want.meta = doc.Src[v.Start:v.End]
					}
				case "arguments":
					want.hasArgs, want.argsLen = true, int64(v.End-v.Start)
				}
			})
		}
	})
	return want
}

// scan feeds frame to a new scanner in chunks of the given size (0: at
// once) and returns what it found.
func scan(frame []byte, chunk int) scanResult {
	sc := newScanner(EnvelopeBytes)
	if chunk <= 0 {
		chunk = len(frame) + 1
	}
	for p := frame; len(p) > 0; {
		n := min(chunk, len(p))
		sc.feed(p[:n])
		p = p[n:]
	}
	return sc.end()
}

// FuzzScanner checks the scanner that follows the lines too long to hold
// (stdio) and the messages that are not JSON. It never panics; what it
// finds does not depend on how the frame is cut into chunks; on a frame
// that is one JSON text (a message that fits, read whole) it finds what
// the full parse finds; and where it decides a tools/call's arguments are
// over the cap, the answer it leads to is the answer the message gets when
// read whole.
func FuzzScanner(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s), uint8(i))
	}
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, frame []byte, chunk uint8) {
		whole := scan(frame, 0)
		if cut := scan(frame, int(chunk)%17+1); !equalScan(cut, whole) {
			t.Fatalf("in chunks of %d: %+v; at once: %+v", int(chunk)%17+1, cut, whole)
		}
		doc, err := jsontape.Parse(string(frame), jsontape.Options{MaxDepth: 2, MaxChildren: len(frame) + 1})
		if err != nil {
			return // not JSON: nothing to agree with but the answer (FuzzAnswer)
		}
		want := oracleScan(t, doc)
		if len(frame) > EnvelopeBytes {
			return // the envelope may be over the scanner's allowance
		}
		if whole.ok != want.ok || whole.batch != want.batch || whole.dup != want.dup || whole.envOver {
			t.Fatalf("scan %+v, full parse %+v", whole, want)
		}
		if whole.ok && !equalScan(whole, want) {
			t.Fatalf("scan %+v, full parse %+v", whole, want)
		}
		// The streamed answer of arguments over the cap is the whole one,
		// for a message whose envelope is a request's (the scanner does
		// not check the rest of the envelope: a line too long to hold is
		// answered by what it can follow).
		if !whole.ok || whole.id == nil || whole.method != "tools/call" || !whole.hasArgs || whole.argsLen <= s.opts.MaxDocumentBytes {
			return
		}
		req, problem := envelope(doc, 0)
		if problem != "" || req.params < 0 {
			return
		}
		if f, _ := fields(doc, req.params, "name"); f[0] < 0 || doc.Nodes[f[0]].Kind != jsontape.String || !utf8.ValidString(doc.Str(&doc.Nodes[f[0]])) {
			return
		}
		got, _ := s.answerScanned(&exchange{}, whole, "", true)
		if want := s.Answer(context.Background(), frame); !bytes.Equal(got, want) {
			t.Fatalf("streamed answer %s\nwhole answer    %s", got, want)
		}
	})
}

func equalScan(a, b scanResult) bool {
	return a.ok == b.ok && a.batch == b.batch && a.blank == b.blank && a.dup == b.dup && a.envOver == b.envOver && bytes.Equal(a.id, b.id) &&
		a.method == b.method && a.name == b.name && a.hasName == b.hasName && a.meta == b.meta && a.hasArgs == b.hasArgs && a.argsLen == b.argsLen
}

// checkResponses checks that ans is a JSON-RPC response or a batch of
// them, each with an id taken from msg (or null), and returns how many.
func checkResponses(t *testing.T, msg, ans []byte) int {
	t.Helper()
	if !json.Valid(ans) || !utf8.Valid(ans) {
		t.Fatalf("answer not JSON: %q", ans)
	}
	var rs []map[string]json.RawMessage
	if ans[0] == '[' {
		if err := json.Unmarshal(ans, &rs); err != nil || len(rs) == 0 || len(rs) > MaxBatch {
			t.Fatalf("batch answer %s: %v", ans, err)
		}
	} else {
		rs = make([]map[string]json.RawMessage, 1)
		if err := json.Unmarshal(ans, &rs[0]); err != nil {
			t.Fatalf("answer %s: %v", ans, err)
		}
	}
	codes := []int{CodeParseError, CodeInvalidRequest, CodeMethodNotFound, CodeInvalidParams, CodeInternalError, CodeOverloaded,
		CodeHeaderMismatch, CodeUnsupportedVersion}
	for _, r := range rs {
		id, hasID := r["id"]
		_, hasResult := r["result"]
		e, hasError := r["error"]
		// An error without an id leaves it out at ModernVersion, whose
		// schema has no null id.
		if string(r["jsonrpc"]) != `"2.0"` || hasResult == hasError || len(r) != 2+btoi(hasID) || !hasID && (hasResult || !bytes.Contains(msg, []byte(ModernVersion))) {
			t.Fatalf("not a response: %s", ans)
		}
		if hasError {
			var eo struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal(e, &eo); err != nil || !slices.Contains(codes, eo.Code) || eo.Message == "" {
				t.Fatalf("error %s: %v", ans, err)
			}
		}
		if string(id) != "null" && !bytes.Contains(msg, id) {
			t.Fatalf("id %s is not the message's: %s", id, ans)
		}
	}
	return len(rs)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FuzzAnswer checks the envelope reader, Answer: it never panics, and it
// answers every message but a notification (or a batch of them) with
// JSON-RPC responses whose ids are the message's own; a message left
// unanswered is JSON.
func FuzzAnswer(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, msg []byte) {
		ans := s.Answer(context.Background(), msg)
		if ans == nil {
			if _, err := jsontape.Parse(string(msg), jsontape.Options{}); err != nil {
				t.Fatalf("no answer to a message that is not JSON (%v)", err)
			}
			return
		}
		checkResponses(t, msg, ans)
	})
}

// FuzzServeStdio checks that stdio answers every line: the fuzzer's line
// (made longer than the frame cap by pad KiB of spaces at cut, to reach
// the streaming scanner) and then a ping. Each line that is not blank gets
// the answer Answer gives it (one over the cap: some answer), the ping's
// included, and the serving goes on.
func FuzzServeStdio(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s), uint16(i), uint8(0))
		f.Add([]byte(s), uint16(len(s)*i/len(fuzzSeeds)), uint8(70))
	}
	s := fuzzServer()
	const ping = `{"jsonrpc":"2.0","id":"last","method":"ping"}`
	f.Fuzz(func(t *testing.T, line []byte, cut uint16, pad uint8) {
		if pad > 0 {
			c := int(cut) % (len(line) + 1)
			line = slices.Concat(line[:c], bytes.Repeat([]byte(" "), int(pad)<<10), line[c:])
		}
		in := slices.Concat(line, []byte("\n"+ping+"\n"))
		var out bytes.Buffer
		if err := s.ServeStdio(context.Background(), bytes.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		var want []string // the answers due, sorted
		over := 0         // lines over the cap: answered, but not by Answer
		for l := range bytes.SplitSeq(in[:len(in)-1], []byte("\n")) {
			switch {
			case jsonwire.SkipSpace(view(l), 0) == len(l):
			case int64(len(l)) > s.opts.maxFrame():
				over++
			default:
				if a := s.Answer(context.Background(), l); a != nil {
					want = append(want, string(a))
				}
			}
		}
		got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if out.Len() == 0 {
			got = nil
		}
		for _, a := range got {
			checkResponses(t, in, []byte(a))
		}
		if len(got) != len(want)+over {
			t.Fatalf("%d answers, want %d (%d over the cap):\n%s", len(got), len(want)+over, over, out.Bytes())
		}
		for _, w := range want {
			i := slices.Index(got, w)
			if i < 0 {
				t.Fatalf("answer %s missing from\n%s", w, out.Bytes())
			}
			got = slices.Delete(got, i, i+1)
		}
	})
}
