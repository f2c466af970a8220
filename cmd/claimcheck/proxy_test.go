package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testServeBehindProxies (long run): batch requests through each proxy
// configuration docs/serving.md gives, with Debian's haproxy and nginx.
// haproxy streams both ways and forwards the trailers: one request of
// 200,000 lines (6.6 MB) is answered whole. nginx, with its request
// buffering on or off, does not read the answers while it still sends the
// body, so one such request ends within the server's write timeout, short
// (and nginx drops the trailers and ends its own answer cleanly: only a
// client that counts the lines knows); the same lines as bounded requests
// of 10,000 lines, as the client libraries send them, are answered whole
// through every configuration. Under CI a missing proxy fails the test.
func testServeBehindProxies(t *testing.T, bin string) {
	p := startServe(t, bin, "-write-timeout", "3s")
	_, upstream, _ := strings.Cut(p.base, "http://")
	const lines = 200000
	body := strings.Repeat(`{"source":[1,2,3],"claim":[3,2,1]}`+"\n", lines)
	type proxy struct {
		name, bin string
		conf      func(dir, listen string) (args []string)
		// complete: the answer has every line; trailers: and its trailers.
		complete, trailers bool
	}
	nginxConf := func(buffering string) func(dir, listen string) []string {
		return func(dir, listen string) []string {
			for _, d := range []string{"logs", "body", "proxy", "fastcgi", "uwsgi", "scgi"} {
				os.MkdirAll(filepath.Join(dir, d), 0o755)
			}
			conf := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/logs/error.log;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    client_max_body_size 0;
    server {
        listen %[2]s;
        location / {
            proxy_pass http://%[3]s;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_buffering off;
            proxy_request_buffering %[4]s;
            proxy_read_timeout 60s;
        }
    }
}
`, dir, listen, upstream, buffering)
			f := filepath.Join(dir, "nginx.conf")
			os.WriteFile(f, []byte(conf), 0o644)
			return []string{"-p", dir, "-c", f}
		}
	}
	proxies := []proxy{
		{"haproxy", "haproxy", func(dir, listen string) []string {
			conf := fmt.Sprintf(`defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
frontend fe
    bind %s
    default_backend be
backend be
    server s0 %s
`, listen, upstream)
			f := filepath.Join(dir, "haproxy.cfg")
			os.WriteFile(f, []byte(conf), 0o644)
			return []string{"-db", "-f", f}
		}, true, true},
		{"nginx, request buffering on (its default)", "nginx", nginxConf("on"), false, false},
		{"nginx, request buffering off", "nginx", nginxConf("off"), false, false},
	}
	for _, px := range proxies {
		path, err := exec.LookPath(px.bin)
		if err != nil {
			path = "/usr/sbin/" + px.bin
			if _, err := os.Stat(path); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatalf("%s is not installed", px.bin)
				}
				t.Logf("SKIPPED %s: not installed", px.name)
				continue
			}
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		listen := ln.Addr().String()
		ln.Close()
		cmd := exec.Command(path, px.conf(t.TempDir(), listen)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for end := time.Now().Add(10 * time.Second); ; {
			c, err := net.Dial("tcp", listen)
			if err == nil {
				c.Close()
				break
			}
			if time.Now().After(end) {
				t.Fatalf("%s did not listen", px.name)
			}
			time.Sleep(20 * time.Millisecond)
		}
		// One request of every line, then the same lines as bounded
		// requests of 10,000 lines (the client libraries' default).
		answered, trailer, took, readErr := post(t, listen, body)
		t.Logf("%s, one request: %d of %d lines answered in %v (error: %v; Claimcheck-Lines %q)", px.name, answered, lines, took.Round(time.Millisecond), readErr, trailer)
		switch {
		case px.complete && (answered != lines || readErr != nil):
			t.Errorf("%s: %d of %d lines answered, error %v: want every line", px.name, answered, lines, readErr)
		case px.trailers && trailer != strconv.Itoa(lines):
			t.Errorf("%s: Claimcheck-Lines %q, want %d", px.name, trailer, lines)
		case took > 60*time.Second:
			t.Errorf("%s: %v: a stall", px.name, took)
		}
		const bounded = 10000
		part := body[:len(body)/lines*bounded]
		for r := range lines / bounded {
			n, _, _, err := post(t, listen, part)
			if n != bounded || err != nil {
				t.Errorf("%s, bounded request %d: %d of %d lines answered, error %v", px.name, r, n, bounded, err)
				break
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
	}
	p.cmd.Process.Signal(os.Interrupt)
	p.stop(t, os.Interrupt)
}

// post sends body as one chunked batch request to listen and returns the
// answer lines read (each checked), the Claimcheck-Lines trailer, the time
// it took and the error that ended the answer early, if any.
func post(t *testing.T, listen, body string) (answered int, trailer string, took time.Duration, readErr error) {
	t.Helper()
	start := time.Now()
	req, _ := http.NewRequest("POST", "http://"+listen+"/v1/tools/multiset-equality-check/versions/1.0.0/batch", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/jsonl")
	req.ContentLength = -1 // chunked, as a streaming client sends it
	// A connection each: one a proxy ended after a short answer is not
	// tried again (a client library would resend; this one counts).
	client := &http.Client{Timeout: 90 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	res, err := client.Do(req)
	if err != nil {
		return 0, "", time.Since(start), err
	}
	defer res.Body.Close()
	br := bufio.NewReader(res.Body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			if err != io.EOF || line != "" {
				readErr = err
			}
			break
		}
		if !strings.Contains(line, `"valid":true`) {
			t.Fatalf("answer %d is %q", answered+1, line)
		}
		answered++
	}
	return answered, res.Trailer.Get("Claimcheck-Lines"), time.Since(start), readErr
}
