// Command trivial is the yardstick of bench/load.sh: a net/http server
// whose handler reads the body and writes a fixed small JSON answer. The
// server is httpapi.NewServer's, as claimcheck serve's is (the same
// header, read, write and idle timeouts and header cap, each of which
// costs net/http deadline updates per request), so the ratio measures
// what claimcheck adds per request: its handler and its listener.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/claimcheck/claimcheck/httpapi"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen on host:port")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stderr, "trivial: listening on http://%s\n", ln.Addr())
	body := []byte(`{"valid":true}` + "\n")
	srv := httpapi.NewServer(*addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	srv.Serve(ln)
}
