module github.com/claimcheck/claimcheck/bench

go 1.26.0

require (
	github.com/claimcheck/claimcheck v0.0.0
	github.com/google/go-cmp v0.7.0
	github.com/gowebpki/jcs v1.0.2
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/cockroachdb/apd/v3 v3.2.3 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

replace github.com/claimcheck/claimcheck => ../
