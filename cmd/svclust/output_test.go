package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svclust/svclust/internal/atomicfile"
)

// TestWriteOutputsAfter checks the contract fit -stream relies on: a file
// staged by the command changes together with the outputs written by
// writeOutputsAfter, and neither changes when one of them fails, which
// leaves no temporary file behind.
func TestWriteOutputsAfter(t *testing.T) {
	dir := t.TempDir()
	labels, model := filepath.Join(dir, "labels.csv"), filepath.Join(dir, "model.json")
	stage := func() []stagedOutput {
		t.Helper()
		if err := os.WriteFile(labels, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := atomicfile.Create(labels)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(f, "cluster\n0\n")
		s, err := f.Stage()
		if err != nil {
			t.Fatal(err)
		}
		return []stagedOutput{{"-o", labels, s}}
	}
	var stdout bytes.Buffer
	e := &env{stdout: &stdout, stderr: io.Discard}

	fail := output{"-model", model, func(io.Writer) error { return errors.New("no space left") }}
	err := e.writeOutputsAfter(stage(), fail)
	if err == nil || !strings.Contains(err.Error(), "-model "+model+": cannot write: no space left") {
		t.Errorf("failing output: error %v, want one naming -model", err)
	}
	if got := readFile(t, labels); got != "old\n" {
		t.Errorf("after a failed output the staged file holds %q, want its old content", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("after a failed output the directory holds %v, want labels.csv only", ents)
	}

	ok := output{"-model", model, func(w io.Writer) error { _, err := io.WriteString(w, "{}\n"); return err }}
	toStdout := output{"-x", "-", func(w io.Writer) error { _, err := io.WriteString(w, "out\n"); return err }}
	if err := e.writeOutputsAfter(stage(), ok, toStdout); err != nil {
		t.Fatal(err)
	}
	if readFile(t, labels) != "cluster\n0\n" || readFile(t, model) != "{}\n" || stdout.String() != "out\n" {
		t.Errorf("outputs %q, %q, stdout %q", readFile(t, labels), readFile(t, model), stdout.String())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("the directory holds %v, want the two outputs only", ents)
	}
}
