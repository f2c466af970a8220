package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/claimcheck/claimcheck/httpapi"
)

const openapiSynopsis = "claimcheck openapi"

// openapiCmd prints the OpenAPI 3.1 document that "serve" answers at
// GET /openapi.json.
func openapiCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("openapi", flag.ContinueOnError)
	pos, code, ok := parseFlags(fs, args, stdout, stderr, openapiSynopsis)
	if !ok {
		return code
	}
	if len(pos) != 0 {
		fmt.Fprintln(stderr, "claimcheck: openapi takes no arguments")
		return exitUsage
	}
	if _, err := stdout.Write(httpapi.OpenAPI()); err != nil {
		fmt.Fprintf(stderr, "claimcheck: %v\n", err)
		return exitUsage
	}
	return exitOK
}
