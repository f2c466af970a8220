package claimcheck_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// deps returns the packages outside the standard library that pkgs build
// with (go list -deps: their imports, transitively, tests excluded).
func deps(t *testing.T, pkgs ...string) []string {
	t.Helper()
	args := append([]string{"list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}"}, pkgs...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	return strings.Fields(string(out))
}

// TestLibraryStaysLight: the library packages, and the HTTP handler, build
// with the standard library, apd and this module's own packages only; in
// particular a program that imports them never compiles the MCP SDK, the
// Prometheus client or an OpenAPI library. Those come in only through the
// packages that serve (metrics, service, cmd/claimcheck). The MCP server
// (mcpserver) is this module's own JSON-RPC layer: it builds with the
// standard library and this module only, and the MCP SDK is a test-only
// dependency (an independent client in the tests).
func TestLibraryStaysLight(t *testing.T) {
	const module = "github.com/claimcheck/claimcheck"
	allowed := func(p string) bool {
		return p == module || strings.HasPrefix(p, module+"/") || p == "github.com/cockroachdb/apd/v3" ||
			strings.HasPrefix(p, "github.com/cockroachdb/apd/v3/")
	}
	for _, pkg := range []string{".", "./canon", "./multiset", "./rational", "./schema", "./claimchecktest", "./httpapi", "./mcpserver"} {
		for _, d := range deps(t, pkg) {
			if !allowed(d) {
				t.Errorf("%s depends on %s", pkg, d)
			}
			if d == module+"/service" || d == module+"/metrics" || d == module+"/mcpserver" && pkg != "./mcpserver" {
				t.Errorf("%s depends on the serving package %s", pkg, d)
			}
		}
	}
	// The check can fail: the service does pull the Prometheus client.
	svc := deps(t, "./service")
	for _, want := range []string{"github.com/prometheus/client_golang/prometheus"} {
		if !slices.Contains(svc, want) {
			t.Errorf("./service does not depend on %s: is go list answering?", want)
		}
	}
}

// TestNoImportForErrorCodes: the request-level error codes live in
// internal/httpjson, so neither the MCP server nor the playground page
// imports the HTTP API's package (they once did, for its codes alone).
func TestNoImportForErrorCodes(t *testing.T) {
	const httpapi = "github.com/claimcheck/claimcheck/httpapi"
	for _, pkg := range []string{"./mcpserver", "./internal/playground", "./internal/intake"} {
		if slices.Contains(deps(t, pkg), httpapi) {
			t.Errorf("%s depends on %s", pkg, httpapi)
		}
	}
}
