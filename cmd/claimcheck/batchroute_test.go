package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"bufio"
	"bytes"
	"fmt"
	"github.com/claimcheck/claimcheck/internal/testutil"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/conformance"
	"github.com/claimcheck/claimcheck/schema"
	"github.com/claimcheck/claimcheck/service"
)

// corpusLines is every conformance case of tool as JSON Lines: each input
// and "\n" (an input with a newline in it is several lines, the same both
// ways), and the number of cases.
func corpusLines(t testing.TB, tool string) ([]byte, int) {
	var in bytes.Buffer
	cases := conformance.Load(t, tool)
	for _, c := range cases {
		in.Write(c.Input)
		in.WriteByte('\n')
	}
	return in.Bytes(), len(cases)
}

// TestBatchRouteCorpus: the whole public corpus, each tool's cases as
// one body, gets through the service's batch route exactly the bytes
// "claimcheck batch" writes, and trailers that count its lines.
func TestBatchRouteCorpus(t *testing.T) {
	srv := httptest.NewServer(service.New(service.Options{}))
	defer srv.Close()
	total := 0
	for _, tool := range schema.Tools() {
		in, n := corpusLines(t, tool.ID)
		total += n
		wantS, stderr, _ := runCLI(in, "batch", tool.ID+"@"+tool.Version)
		want := []byte(wantS)
		if len(stderr) != 0 {
			t.Fatalf("%s: batch wrote %s", tool.ID, stderr)
		}
		resp, err := http.Post(srv.URL+"/v1/tools/"+tool.ID+"/versions/"+tool.Version+"/batch", "application/jsonl", bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %d %v", tool.ID, resp.StatusCode, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the batch route's answer differs from claimcheck batch's (%d and %d bytes)", tool.ID, len(got), len(want))
		}
		if l := resp.Trailer.Get("Claimcheck-Lines"); l != fmt.Sprint(bytes.Count(want, []byte("\n"))) || resp.Trailer.Get("Claimcheck-Cut") != "" {
			t.Errorf("%s: trailers %v", tool.ID, resp.Trailer)
		}
	}
	if total != 602 {
		t.Errorf("%d cases, want the public corpus's 602", total)
	}
}

// TestBatchRouteStreams: the first answer arrives while the body is still
// open, and each later one as its line is sent, over one request.
func TestBatchRouteStreams(t *testing.T) {
	srv := httptest.NewServer(service.New(service.Options{}))
	defer srv.Close()
	pr, pw := io.Pipe()
	req, _ := http.NewRequest("POST", srv.URL+"/v1/tools/multiset-equality-check/versions/1.0.0/batch", pr)
	req.Header.Set("Content-Type", "application/x-ndjson")
	respc := make(chan *http.Response, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			close(respc)
			return
		}
		respc <- resp
	}()
	fmt.Fprintf(pw, "{\"source\":[0],\"claim\":[0]}\n")
	var resp *http.Response
	select {
	case resp = <-respc:
	case <-time.After(10 * time.Second):
		t.Fatal("no response while the body is open")
	}
	if resp == nil {
		t.FailNow()
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("Content-Type %q", ct)
	}
	br := bufio.NewReader(resp.Body)
	for i := range 3 {
		if i > 0 {
			fmt.Fprintf(pw, "{\"source\":[%d],\"claim\":[%d]}\n", i, i)
		}
		line, err := br.ReadString('\n')
		if err != nil || line[:13] != `{"valid":true` {
			t.Fatalf("answer %d: %q %v", i, line, err)
		}
	}
	pw.Close()
	if rest, _ := io.ReadAll(br); len(rest) != 0 || resp.Trailer.Get("Claimcheck-Valid") != "3" {
		t.Errorf("after the body's end: %q, trailers %v", rest, resp.Trailer)
	}
}

// testBatchClients runs the repository's clients, Python (the
// claimcheck_client package of clients/python, standard library only, by
// its command line "python3 -m claimcheck_client URL ID@VERSION", from the
// checkout, not installed) and JavaScript (the @claimcheck/client CLI of
// clients/js, node:http on Node), against a real "serve" on 127.0.0.1,
// each on the whole public corpus of each tool, and checks that each
// writes exactly the bytes "claimcheck batch" writes. Each client is a
// process of its own (about 0.2 s each), so it runs in the long run, and
// in the normal run for one tool.
func testBatchClients(t *testing.T, bin string) {
	pysrc, err := filepath.Abs(filepath.Join("..", "..", "clients", "python", "src"))
	if err != nil {
		t.Fatal(err)
	}
	clients := []struct {
		name, interp string
		args         func(base, id, version string) []string
		env          []string
	}{
		{"python", "python3", func(base, id, version string) []string {
			return []string{"-m", "claimcheck_client", base, id + "@" + version}
		}, []string{"PYTHONPATH=" + pysrc}},
		{"javascript", "node", func(base, id, version string) []string {
			return []string{filepath.Join("..", "..", "clients", "js", "bin", "claimcheck-client.mjs"), base, id + "@" + version}
		}, nil},
	}
	srv := startServe(t, bin)
	defer func() { srv.cmd.Process.Signal(syscall.SIGTERM); srv.stop(t, syscall.SIGTERM) }()
	tools := schema.Tools()
	if !testutil.Long() {
		tools = tools[:1]
	}
	for _, c := range clients {
		if _, err := exec.LookPath(c.interp); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s: %v", c.name, err)
			}
			t.Logf("%s: %v; skipped", c.name, err)
			continue
		}
		for _, tool := range tools {
			in, _ := corpusLines(t, tool.ID)
			want, _, _ := runBinary(t, bin, in, "batch", tool.ID+"@"+tool.Version)
			cmd := exec.Command(c.interp, c.args(srv.base, tool.ID, tool.Version)...)
			cmd.Env = append(os.Environ(), c.env...)
			cmd.Stdin = bytes.NewReader(in)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s on %s: %v\n%s", c.name, tool.ID, err, errOut.Bytes())
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("%s on %s: %d bytes, not claimcheck batch's %d", c.name, tool.ID, out.Len(), len(want))
			}
		}
	}
}
