package main

import (
	"runtime/debug"
	"testing"

	"github.com/claimcheck/claimcheck/internal/testutil"
	"github.com/claimcheck/claimcheck/schema"
)

func TestVersionText(t *testing.T) {
	const rev = "4e0e0715a870edf27f8d6bbb095af481ddd12b3a"
	mod := debug.Module{Path: "github.com/claimcheck/claimcheck"}
	with := func(version string) debug.Module { m := mod; m.Version = version; return m }
	tool := &schema.Tool{ID: "t", Version: "1.0.0"}
	type row struct {
		reason string
		bi     *debug.BuildInfo
		want   string
	}
	tests := []row{
		{"go install of a release: no VCS stamp",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: with("v1.2.0"), Settings: []debug.BuildSetting{
				{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "amd64"}, {Key: "-trimpath", Value: "true"}}},
			"claimcheck v1.2.0\nmodule github.com/claimcheck/claimcheck\ngo go1.26.8 linux/amd64\ntool t@1.0.0\n"},
		{"a build in a modified checkout: the stamp, in a fixed order",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: with("v0.0.0-20250601120000-4e0e0715a870+dirty"), Settings: []debug.BuildSetting{
				{Key: "vcs.time", Value: "2025-06-01T12:00:00Z"}, {Key: "GOARCH", Value: "arm64"}, {Key: "vcs", Value: "git"},
				{Key: "vcs.modified", Value: "true"}, {Key: "GOOS", Value: "darwin"}, {Key: "vcs.revision", Value: rev}}},
			"claimcheck v0.0.0-20250601120000-4e0e0715a870+dirty\nmodule github.com/claimcheck/claimcheck\nrevision " + rev +
				"\nmodified true\ntime 2025-06-01T12:00:00Z\ngo go1.26.8 darwin/arm64\ntool t@1.0.0\n"},
		{"a clean checkout",
			&debug.BuildInfo{GoVersion: "go1.26.8", Main: with("(devel)"), Settings: []debug.BuildSetting{
				{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}},
			"claimcheck (devel)\nmodule github.com/claimcheck/claimcheck\nrevision " + rev + "\nmodified false\ngo go1.26.8\ntool t@1.0.0\n"},
		{"a test binary: no main module version",
			&debug.BuildInfo{GoVersion: "go1.26.8"},
			"claimcheck (unknown)\ngo go1.26.8\ntool t@1.0.0\n"},
		{"no build information", nil, "claimcheck (unknown)\ntool t@1.0.0\n"},
	}
	testutil.Run(t, tests, func(t *testing.T, tc row) {
		if got := versionText(tc.bi, []*schema.Tool{tool}); got != tc.want {
			t.Errorf("got\n%s\nwant\n%s", got, tc.want)
		}
	})
}
