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

require golang.org/x/text v0.14.0 // indirect
