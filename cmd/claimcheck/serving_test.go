package main

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/schema"
)

// testServeShutdown: 64 keep-alive clients post documents in a loop while
// the server gets SIGTERM; every request written gets its answer,
// responses carry Connection: close during -shutdown-delay, and the
// process exits 0. A client stops at the first Connection: close, as a
// load balancer that has taken the server out of rotation (its /readyz
// answers 503) opens no new connection to it; one that cannot connect
// loses nothing either (the request was never sent). Before, about one
// POST per connection was lost (net/http's Shutdown closed connections on
// which the next request was on its way) and no response carried
// Connection: close during the delay.
func testServeShutdown(t *testing.T, bin string) {
	const clients = 64
	p := startServe(t, bin, "-shutdown-delay", "200ms")
	url := p.base + schema.Tools()[0].ExecuteURL
	doc := `{"source":[1,2],"claim":[2,1]}`
	var answered, closing, lost, warm atomic.Int64
	var firstLoss atomic.Value
	signalled := make(chan struct{})
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			tr := &http.Transport{MaxIdleConnsPerHost: 1}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
			for i := 0; i < 100000; i++ {
				if i == 5 {
					warm.Add(1)
				}
				res, err := client.Post(url, "application/json", strings.NewReader(doc))
				if err != nil {
					var op *net.OpError
					if errors.As(err, &op) && op.Op == "dial" {
						return // the listener is closed: nothing was sent
					}
					lost.Add(1)
					firstLoss.CompareAndSwap(nil, err.Error())
					return
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					lost.Add(1)
					firstLoss.CompareAndSwap(nil, res.Status)
					return
				}
				answered.Add(1)
				select {
				case <-signalled:
					if res.Close {
						closing.Add(1)
						return
					}
				default:
				}
			}
		})
	}
	for warm.Load() < clients {
		time.Sleep(time.Millisecond)
	}
	close(signalled)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	p.stop(t, syscall.SIGTERM)
	t.Logf("%d answered, %d with Connection: close after SIGTERM, %d lost", answered.Load(), closing.Load(), lost.Load())
	if n := lost.Load(); n != 0 {
		t.Errorf("%d requests lost at shutdown (first: %v)", n, firstLoss.Load())
	}
	if closing.Load() == 0 {
		t.Error("no response carried Connection: close during -shutdown-delay")
	}
}

// testServeConnLimit: with a file-descriptor limit of 128, 200 idle
// keep-alive connections do not stop /healthz on a new connection from
// being answered: the default -max-connections stays below the limit and
// the longest idle connection is closed to make room. Before, the idle
// connections used up the descriptors and nothing more was answered.
func testServeConnLimit(t *testing.T, bin string) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("needs prlimit (util-linux)")
	}
	p := startServeCommand(t, exec.Command("prlimit", "--nofile=128:128", bin, "serve", "-addr", "127.0.0.1:0"))
	addr := strings.TrimPrefix(p.base, "http://")
	var conns []net.Conn
	for range 200 {
		c, err := net.DialTimeout("tcp", addr, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") // then idle; answered or closed, whichever
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	client := &http.Client{Timeout: 10 * time.Second} // a guard: idle connections are held 75 s
	for _, path := range []string{"/healthz", "/readyz"} {
		res, err := client.Get(p.base + path)
		if err != nil {
			t.Fatalf("%s with 200 idle connections and 128 descriptors: %v", path, err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	p.stop(t, syscall.SIGTERM)
}

// testServeHTTP2: -tls-cert/-tls-key serve HTTPS with HTTP/2, and -h2c
// serves HTTP/2 in cleartext to a client with prior knowledge (before, the
// h2c preface reached the handler as a PRI request).
func testServeHTTP2(t *testing.T, bin string) {
	certFile, keyFile, pool := selfSigned(t)
	tlsP := startServe(t, bin, "-tls-cert", certFile, "-tls-key", keyFile)
	h2 := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
	checkProto(t, h2, tlsP.base)

	var prot http.Protocols
	prot.SetUnencryptedHTTP2(true)
	h2cP := startServe(t, bin, "-h2c")
	checkProto(t, &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Protocols: &prot}}, h2cP.base)
	// HTTP/1.1 is still served beside h2c.
	if res, err := http.Get(h2cP.base + "/healthz"); err != nil || res.StatusCode != 200 {
		t.Fatalf("HTTP/1.1 beside -h2c: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	for _, p := range []*serveProcess{tlsP, h2cP} {
		p.cmd.Process.Signal(syscall.SIGTERM)
		p.stop(t, syscall.SIGTERM)
	}
}

func checkProto(t *testing.T, c *http.Client, base string) {
	t.Helper()
	eq := schema.Tools()[0]
	res, err := c.Post(base+eq.ExecuteURL, "application/json", strings.NewReader(`{"source":[1],"claim":[1]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.ProtoMajor != 2 || !strings.Contains(string(body), `"valid":true`) {
		t.Fatalf("%s: %s %d %s, want HTTP/2 200", base, res.Proto, res.StatusCode, body)
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key to files.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "claimcheck test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalPKCS8PrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// testServeFlags: combinations that would cut requests off or lose answers
// are refused with a usage error (exit 2) before listening.
func testServeFlags(t *testing.T, bin string) {
	for _, tc := range []struct {
		args   []string
		want   string
		reason string
	}{
		{[]string{"-shutdown-timeout", "10s"}, "shorter than the longest a request can take",
			"the old default, 10 s, cut off uploads still within the 60 s body timeout"},
		{[]string{"-body-timeout", "5s", "-body-idle-timeout", "10s"}, "longer than -body-timeout",
			"an idle timeout past the body timeout never fires"},
		{[]string{"-tls-cert", "x.pem"}, "go together", "a certificate needs its key"},
		{[]string{"-tls-cert", "x", "-tls-key", "y", "-h2c"}, "cleartext", "h2c is HTTP/2 without TLS"},
		{[]string{"-allowed-origins", "app.example.com"}, "-allowed-origins", "an origin has a scheme: a bare name would never match"},
		{[]string{"-allowed-origins", "null"}, "is not an origin", "null is what sandboxed pages send: allowing it allows any of them"},
	} {
		_, stderr, code := runBinary(t, bin, nil, append([]string{"serve", "-addr", "127.0.0.1:0"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(string(stderr), tc.want) {
			t.Errorf("serve %v: exit %d, stderr %q; want 2 and %q (%s)", tc.args, code, stderr, tc.want, tc.reason)
		}
	}
}

// testServeSecondSignal: a second SIGTERM during a shutdown exits at once,
// with status 2 (an I/O error: the shutdown did not complete), instead of
// waiting out an hour of -shutdown-delay (before, the second signal was
// ignored). The guard is generous; exiting before it is all that counts.
func testServeSecondSignal(t *testing.T, bin string) {
	p := startServe(t, bin, "-shutdown-delay", "1h")
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// /readyz turns 503 once the shutdown has begun, and the shutdown
	// listens for the second signal before that.
	client := &http.Client{Timeout: 10 * time.Second}
	for i := 0; ; i++ {
		res, err := client.Get(p.base + "/readyz")
		if err != nil {
			t.Fatalf("/readyz during the shutdown delay: %v", err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusServiceUnavailable {
			break
		}
		if i == 1000 {
			t.Fatalf("/readyz still %d after SIGTERM", res.StatusCode)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait(); p.pw.Close() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitUsage {
			t.Fatalf("after a second SIGTERM: %v, want exit status %d; stderr %s", err, exitUsage, <-p.rest)
		}
	case <-time.After(time.Minute):
		t.Fatal("serve still running a minute after a second SIGTERM (shutdown delay 1h)")
	}
	if rest := string(<-p.rest); !strings.Contains(rest, "second signal") {
		t.Errorf("stderr does not tell of the second signal: %s", rest)
	}
}

// testServeStreamShutdown: on SIGTERM a batch stream that goes on sending
// is answered until -shutdown-delay ends, then stops reading, answers
// every line it read, and ends with its trailers (Claimcheck-Cut:
// shutdown), over HTTP/1 and h2c; the process exits 0 within the
// shutdown timeout. Before, the stream ran on until -shutdown-timeout and
// was closed with no final chunk and no trailers, and serve exited 2.
func testServeStreamShutdown(t *testing.T, bin string) {
	for _, h2c := range []bool{false, true} {
		args := []string{"-shutdown-delay", "300ms"}
		tr := &http.Transport{}
		if h2c {
			args = append(args, "-h2c")
			var prot http.Protocols
			prot.SetUnencryptedHTTP2(true)
			tr.Protocols = &prot
		}
		p := startServe(t, bin, args...)
		pr, pw := io.Pipe()
		req, _ := http.NewRequest("POST", p.base+"/v1/tools/multiset-equality-check/versions/1.0.0/batch", pr)
		req.Header.Set("Content-Type", "application/jsonl")
		type result struct {
			res *http.Response
			err error
		}
		got := make(chan result, 1)
		go func() {
			res, err := (&http.Client{Transport: tr, Timeout: 30 * time.Second}).Do(req)
			got <- result{res, err}
		}()
		line := `{"source":[1],"claim":[1]}` + "\n"
		stopSending := make(chan struct{})
		var sent atomic.Int64
		go func() {
			defer pw.Close()
			for {
				select {
				case <-stopSending:
					return
				case <-time.After(10 * time.Millisecond):
				}
				if _, err := io.WriteString(pw, line); err != nil {
					return
				}
				sent.Add(1)
			}
		}()
		r := <-got
		if r.err != nil {
			t.Fatal(r.err)
		}
		br := bufio.NewReader(r.res.Body)
		for range 3 { // the stream is under way
			if _, err := br.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
		start := time.Now()
		p.cmd.Process.Signal(syscall.SIGTERM)
		rest, err := io.ReadAll(br)
		ended := time.Since(start)
		close(stopSending)
		r.res.Body.Close()
		if err != nil {
			t.Fatalf("h2c %v: the stream ended with %v after %v, not with its trailers", h2c, err, ended)
		}
		lines := 3 + int64(strings.Count(string(rest), "\n"))
		if c := r.res.Trailer.Get("Claimcheck-Cut"); c != "shutdown" {
			t.Errorf("h2c %v: Claimcheck-Cut %q, want shutdown", h2c, c)
		}
		if n := r.res.Trailer.Get("Claimcheck-Lines"); n != strconv.FormatInt(lines, 10) {
			t.Errorf("h2c %v: Claimcheck-Lines %s, %d lines answered", h2c, n, lines)
		}
		if ended < 300*time.Millisecond || ended > 10*time.Second {
			t.Errorf("h2c %v: the stream ended %v after SIGTERM, want after the 300ms delay and well within the timeout", h2c, ended)
		}
		if s := sent.Load(); lines > s || lines < 3 {
			t.Errorf("h2c %v: %d lines answered of %d sent", h2c, lines, s)
		}
		p.stop(t, syscall.SIGTERM)
	}
}

// testServeMetricsConnLimit: with a file-descriptor limit of 128, 300
// keep-alive connections to -metrics-addr hold at most its cap (the
// longest idle is closed for a new one), so /healthz on the main port and
// /metrics on a new connection are still answered. Before, the metrics
// listener was uncapped: its connections used up the descriptors and the
// main port could not accept.
func testServeMetricsConnLimit(t *testing.T, bin string) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("needs prlimit (util-linux)")
	}
	p := startServeCommand(t, exec.Command("prlimit", "--nofile=128:128", bin, "serve", "-addr", "127.0.0.1:0", "-metrics-addr", "127.0.0.1:0"))
	maddr := strings.TrimSuffix(strings.TrimPrefix(p.metrics, "http://"), "/metrics")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 300 {
		c, err := net.DialTimeout("tcp", maddr, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		io.WriteString(c, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n") // then idle, kept alive
	}
	client := &http.Client{Timeout: 10 * time.Second}
	for _, url := range []string{p.base + "/healthz", p.base + "/readyz", p.metrics} {
		res, err := client.Get(url)
		if err != nil {
			t.Fatalf("%s beside 300 connections to -metrics-addr, 128 descriptors: %v", url, err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", url, res.StatusCode)
		}
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	p.stop(t, syscall.SIGTERM)
}
