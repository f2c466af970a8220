module github.com/claimcheck/claimcheck

go 1.26

require (
	github.com/cockroachdb/apd/v3 v3.2.3 // indirect
	github.com/gowebpki/jcs v1.0.2 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/text v0.14.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
