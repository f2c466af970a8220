package main

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/claimcheck/claimcheck/schema"
)

const versionSynopsis = "claimcheck version"

func versionCmd(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	pos, code, ok := parseFlags(fs, args, stdout, stderr, versionSynopsis)
	if !ok {
		return code
	}
	if len(pos) != 0 {
		fmt.Fprintln(stderr, "claimcheck: version takes no arguments")
		return exitUsage
	}
	bi, _ := debug.ReadBuildInfo()
	return write(stdout, stderr, []byte(versionText(bi, schema.Tools())))
}

// versionText formats what the binary knows of its build, one "key value"
// line each, for people and for awk:
//
//	claimcheck v1.2.0
//	module github.com/claimcheck/claimcheck
//	revision 4e0e071f0c5e0ba6c2dbaa3a5c4b0e9f1a2b3c4d
//	modified false
//	time 2025-06-01T12:00:00Z
//	go go1.26.8 linux/amd64
//	tool multiset-equality-check@1.0.0
//
// The first line is the main module's version: a release tag when
// installed with "go install ...@version", a pseudo-version or "(devel)"
// when built from a checkout. revision, modified and time are the VCS
// stamp, present only when the build had one (a build from a git checkout;
// not "go install" from the module proxy). bi nil (no build information)
// gives the version "(unknown)" and the tools.
func versionText(bi *debug.BuildInfo, tools []*schema.Tool) string {
	var b strings.Builder
	version := "(unknown)"
	if bi != nil && bi.Main.Version != "" {
		version = bi.Main.Version
	}
	fmt.Fprintf(&b, "claimcheck %s\n", version)
	if bi != nil {
		if bi.Main.Path != "" {
			fmt.Fprintf(&b, "module %s\n", bi.Main.Path)
		}
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		// In a fixed order, not the map's.
		for _, k := range []string{"revision", "modified", "time"} {
			if v, ok := settings["vcs."+k]; ok {
				fmt.Fprintf(&b, "%s %s\n", k, v)
			}
		}
		if bi.GoVersion != "" {
			b.WriteString("go " + bi.GoVersion)
			if goos, goarch := settings["GOOS"], settings["GOARCH"]; goos != "" && goarch != "" {
				b.WriteString(" " + goos + "/" + goarch)
			}
			b.WriteString("\n")
		}
	}
	for _, t := range tools {
		fmt.Fprintf(&b, "tool %s@%s\n", t.ID, t.Version)
	}
	return b.String()
}

// moduleVersion is the main module's version from the build info, as the
// first line of versionText gives it: what the MCP server reports as its
// version.
func moduleVersion() string {
	bi, _ := debug.ReadBuildInfo()
	if bi != nil && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(unknown)"
}
