package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// fullWriter fails every write, as standard output on a full disk
// (/dev/full) does.
type fullWriter struct{}

var errFull = errors.New("no space left on device")

func (fullWriter) Write([]byte) (int, error) { return 0, errFull }

// TestStdoutFull: a command whose standard output cannot be written fails
// with status 1 and says so; issue 13 found "svclust fit m.csv >/dev/full"
// exiting 0, since the text summary's write errors were not checked.
func TestStdoutFull(t *testing.T) {
	in := genFile(t, "gauss3", 60)
	model := writeFile(t, "m.json", "")
	mustCLI(t, "fit", "-budget", "10", "-model", model, in)
	for _, args := range [][]string{
		{"fit", "-budget", "10", in},
		{"fit", "-budget", "10", "-json", in},
		{"fit", "-budget", "10", "-stream", in},
		{"tune", "-gamma-grid", "1", "-C-grid", "8", in},
		{"predict", "-model", model, in},
		{"score", "-model", model, in},
		{"gen", "-n", "10"},
		{"demo", "-n", "30"},
		{"help"},
		{"help", "fit"},
		{"-h"},
	} {
		var errb bytes.Buffer
		code := run(context.Background(), fullWriter{}, &errb, args)
		if code != 1 || !strings.Contains(errb.String(), errFull.Error()) {
			t.Errorf("svclust %s to a full standard output: exit %d, stderr %q; want 1 and %q",
				strings.Join(args, " "), code, errb.String(), errFull)
		}
	}
}
