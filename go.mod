module github.com/claimcheck/claimcheck

go 1.26

require (
	github.com/cockroachdb/apd/v3 v3.2.3
	github.com/gowebpki/jcs v1.0.2
)

// Test-only: pgregory.net/rapid for the property tests of the algebraic laws;
// github.com/santhosh-tekuri/jsonschema/v6, an independent JSON Schema
// validator for the output documents.
require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	pgregory.net/rapid v1.3.0
)

// Test-only: github.com/chromedp/chromedp (and its protocol types,
// github.com/chromedp/cdproto) drives headless Chromium in the playground
// page's browser test, internal/playground/browser_test.go.
require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	golang.org/x/text v0.14.0 // indirect
)
