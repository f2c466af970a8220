package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claimcheck/claimcheck/schema"
)

// testNoProgressOffTerminal: with stderr a regular file, batch writes
// nothing there (no -summary): what the command sees of a real file.
func testNoProgressOffTerminal(t *testing.T, bin string) {
	errFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	cmd := exec.Command(bin, "batch", schema.MultisetEquality)
	cmd.Stdin = strings.NewReader(strings.Repeat(`{"source":[1],"claim":[1]}`+"\n", 1000))
	cmd.Stderr = errFile
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(errFile.Name()); len(b) != 0 {
		t.Errorf("stderr, a regular file, got %q", b)
	}
}
