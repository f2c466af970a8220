// Module tools pins the linters that .ci/run runs on the main module:
// staticcheck, govulncheck and gocyclo, as tool directives, so that the
// library's go.mod carries none of their dependencies.
module github.com/claimcheck/claimcheck/tools

go 1.26.0

tool (
	github.com/fzipp/gocyclo/cmd/gocyclo
	golang.org/x/vuln/cmd/govulncheck
	honnef.co/go/tools/cmd/staticcheck
)

require golang.org/x/tools v0.52.0

require (
	github.com/BurntSushi/toml v1.4.1-0.20240526193622-a339e1f7089c // indirect
	github.com/fzipp/gocyclo v0.6.0 // indirect
	golang.org/x/exp/typeparams v0.0.0-20231108232855-2478ac86f678 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/telemetry v0.0.0-20261010193011-f71dc92da45e // indirect
	golang.org/x/vuln v1.9.0 // indirect
	honnef.co/go/tools v0.8.2 // indirect
)
