// Command batchload is the client of bench/batch.sh: it loads a running
// claimcheck serve through the single-document execute route (-mode
// execute: -c connections posting one small document each, for -d) or
// through the batch route (-mode batch: the lines of -in in one request,
// streamed), and prints what it did as "N units in S seconds".
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	mode := flag.String("mode", "batch", "execute or batch")
	base := flag.String("url", "http://127.0.0.1:8080", "the server")
	in := flag.String("in", "", "batch: the JSON Lines file")
	conns := flag.Int("c", 64, "execute: connections")
	dur := flag.Duration("d", 10*time.Second, "execute: duration")
	flag.Parse()
	tool := "/v1/tools/multiset-equality-check/versions/1.0.0/"
	switch *mode {
	case "execute":
		doc := []byte(`{"source":[1,2,3],"claim":[3,2,1]}`)
		tr := &http.Transport{MaxIdleConnsPerHost: *conns}
		client := &http.Client{Transport: tr}
		var n atomic.Int64
		end := time.Now().Add(*dur)
		start := time.Now()
		var wg sync.WaitGroup
		for range *conns {
			wg.Go(func() {
				for time.Now().Before(end) {
					resp, err := client.Post(*base+tool+"execute", "application/json", bytes.NewReader(doc))
					if err != nil {
						fmt.Fprintln(os.Stderr, err)
						os.Exit(1)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 {
						fmt.Fprintln(os.Stderr, "status", resp.StatusCode)
						os.Exit(1)
					}
					n.Add(1)
				}
			})
		}
		wg.Wait()
		fmt.Printf("%d requests in %.3f seconds\n", n.Load(), time.Since(start).Seconds())
	case "batch":
		f, err := os.Open(*in)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		start := time.Now()
		resp, err := http.Post(*base+tool+"batch", "application/jsonl", bufio.NewReaderSize(f, 1<<20))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		br := bufio.NewReaderSize(resp.Body, 1<<20)
		lines := 0
		for {
			_, err := br.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				break
			}
			lines++
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Trailer.Get("Claimcheck-Cut") != "" {
			fmt.Fprintln(os.Stderr, "status", resp.StatusCode, resp.Trailer)
			os.Exit(1)
		}
		fmt.Printf("%d lines in %.3f seconds\n", lines, time.Since(start).Seconds())
	}
}
