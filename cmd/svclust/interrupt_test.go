package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// TestInterrupted: a command that stops because its context was cancelled
// (SIGINT) exits with status 130 and says so, and writes no output file.
func TestInterrupted(t *testing.T) {
	data := genFile(t, "gauss3", 200)
	out := t.TempDir() + "/labels.csv"
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, &stdout, &stderr, []string{"tune", "-o", out, "-gamma-grid", "1,2", "-C-grid", "8", data})
	if code != 130 || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q; want 130 and \"interrupted\"", code, stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written", out)
	}
}
