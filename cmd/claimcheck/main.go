// Command claimcheck checks claimed results with the claimcheck tools: one
// document (run), JSON Lines (batch), or over HTTP (serve). Run
// "claimcheck help" for the commands, flags and exit codes.
package main

import "os"

func main() {
	os.Exit(cli(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
