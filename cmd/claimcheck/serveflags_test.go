package main

import (
	"io"
	"testing"
	"time"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/service"
)

// TestServeFlagsReachBothRoutes: every flag that bounds a request reaches
// the options of /v1 (httpapi) and of /mcp (mcpserver) alike, so that the
// two routes run under the same limits and timeouts.
func TestServeFlagsReachBothRoutes(t *testing.T) {
	testutil.Run(t, []struct {
		reason string
		args   []string
		check  func(o service.Options) (api, mcp any, want any)
	}{
		{"-write-timeout bounds the check and answer of a /mcp call as of a /v1 one", []string{"-write-timeout", "7s"},
			func(o service.Options) (any, any, any) {
				return o.API.WriteTimeout, o.MCP.WriteTimeout, 7 * time.Second
			}},
		{"-write-timeout 0 is the default on both", []string{"-write-timeout", "0"},
			func(o service.Options) (any, any, any) {
				return o.API.WriteTimeout, o.MCP.WriteTimeout, 30 * time.Second
			}},
		{"-body-timeout bounds a /mcp body's arrival", []string{"-body-timeout", "90s"},
			func(o service.Options) (any, any, any) { return o.API.BodyTimeout, o.MCP.BodyTimeout, 90 * time.Second }},
		{"-body-idle-timeout bounds a /mcp body's stalls", []string{"-body-idle-timeout", "3s"},
			func(o service.Options) (any, any, any) {
				return o.API.BodyIdleTimeout, o.MCP.BodyIdleTimeout, 3 * time.Second
			}},
		{"-max-body-bytes is the /mcp document cap", []string{"-max-body-bytes", "1000"},
			func(o service.Options) (any, any, any) {
				return o.API.MaxBodyBytes, o.MCP.MaxDocumentBytes, int64(1000)
			}},
		{"-max-buffered-bytes is the one budget", []string{"-max-buffered-bytes", "268435456"},
			func(o service.Options) (any, any, any) {
				return o.API.MaxBufferedBytes, o.MCP.MaxBufferedBytes, int64(268435456)
			}},
		{"-max-concurrent is the one set of slots", []string{"-max-concurrent", "3"},
			func(o service.Options) (any, any, any) { return o.API.MaxConcurrent, o.MCP.MaxConcurrent, 3 }},
		{"-body-idle-timeout 0 is the default, lowered to a shorter -body-timeout", []string{"-body-timeout", "5s", "-body-idle-timeout", "0"},
			func(o service.Options) (any, any, any) {
				return o.API.BodyIdleTimeout, o.MCP.BodyIdleTimeout, 5 * time.Second
			}},
	}, func(t *testing.T, tc struct {
		reason string
		args   []string
		check  func(o service.Options) (api, mcp any, want any)
	}) {
		opts, _, code, ok := serveFlags(tc.args, io.Discard)
		if !ok {
			t.Fatalf("serve %v: exit %d", tc.args, code)
		}
		if api, mcp, want := tc.check(opts); api != want || mcp != want {
			t.Errorf("serve %v: /v1 %v, /mcp %v; want %v on both", tc.args, api, mcp, want)
		}
	})
}

// TestServeMaxBatchLines: -max-batch-lines reaches the tools API, its
// default is httpapi's, and a count that is not positive is a usage error.
func TestServeMaxBatchLines(t *testing.T) {
	testutil.Run(t, []struct {
		reason string
		args   []string
		want   int64 // 0: refused
	}{
		{"the default", nil, 1_000_000},
		{"a count of one's own", []string{"-max-batch-lines", "10"}, 10},
		{"zero caps nothing: refused", []string{"-max-batch-lines", "0"}, 0},
		{"negative: refused", []string{"-max-batch-lines", "-1"}, 0},
	}, func(t *testing.T, tc struct {
		reason string
		args   []string
		want   int64
	}) {
		opts, _, code, ok := serveFlags(tc.args, io.Discard)
		switch {
		case tc.want == 0 && (ok || code != exitUsage):
			t.Fatalf("accepted (%d)", code)
		case tc.want != 0 && (!ok || opts.API.MaxBatchLines != tc.want):
			t.Fatalf("ok %v, MaxBatchLines %d", ok, opts.API.MaxBatchLines)
		}
	})
}
