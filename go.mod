module github.com/claimcheck/claimcheck

go 1.26.0

toolchain go1.26.10

// The library packages (canon, multiset, rational, schema) import only the
// standard library and apd: its BigInt is the integer under the rationals.
require github.com/cockroachdb/apd/v3 v3.2.3

// Serving only: the Prometheus client (packages metrics and service). The
// library packages, httpapi and mcpserver never import it (deps_test.go
// checks it), so a library user's build never compiles it.
require github.com/prometheus/client_golang v1.25.0

// Test-only, each the field's standard for what it checks:
//   - github.com/gowebpki/jcs: RFC 8785's reference, for number and string keys;
//   - pgregory.net/rapid: the property tests of the algebraic laws;
//   - github.com/santhosh-tekuri/jsonschema/v6: an independent JSON Schema
//     validator for the output documents;
//   - github.com/getkin/kin-openapi: an independent OpenAPI 3.1 validator for
//     httpapi's document and every conformance case's request and response;
//   - prometheus/client_model and prometheus/common: to parse a /metrics scrape;
//   - github.com/modelcontextprotocol/go-sdk: the official Go MCP SDK, as an
//     independent client of mcpserver and "claimcheck mcp";
//   - github.com/chromedp/chromedp and cdproto: drive headless Chromium in the
//     playground page's browser test;
//   - github.com/creack/pty: a pseudo-terminal, to see batch's progress line
//     as a terminal shows it;
//   - golang.org/x/net/http2: HTTP/2 frames as a client sees them (GOAWAY,
//     RST_STREAM, a zero window), for the serving tests (internal/h2raw).
require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/creack/pty v1.1.24
	github.com/getkin/kin-openapi v0.153.0
	github.com/gowebpki/jcs v1.0.2
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/prometheus/client_model v0.6.3
	github.com/prometheus/common v0.72.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/net v0.62.0
	pgregory.net/rapid v1.3.0
)

require (
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/go-openapi/jsonpointer v1.0.2 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/gorilla/mux v1.8.0 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/prometheus/procfs v0.22.0 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	go.yaml.in/yaml/v4 v4.0.0 // indirect
	golang.org/x/oauth2 v0.37.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/time v0.15.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
