// Command trivial is the yardstick of bench/load.sh: a net/http server
// whose handler writes a fixed small JSON answer, with the same server
// timeouts as claimcheck serve, so the ratio measures claimcheck's own cost
// per request.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"
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
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 75 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
		})}
	srv.Serve(ln)
}
