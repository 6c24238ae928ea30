package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

func TestStage(t *testing.T) {
	named(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := WriteFile(path, func(w io.Writer) error { _, err := fmt.Fprint(w, "old\n"); return err }); err != nil {
		t.Fatal(err)
	}

	// A staged file is a hidden temporary beside path until committed.
	s, err := Stage(path, func(w io.Writer) error { _, err := fmt.Fprint(w, "new\n"); return err })
	if err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, "old\n")
	if !strings.HasPrefix(filepath.Base(s.tmp), ".out.csv.tmp") || filepath.Dir(s.tmp) != dir {
		t.Errorf("temporary file %s", s.tmp)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, "new\n")
	checkOnly(t, dir, "out.csv")
	s.Abort() // after Commit: nothing
	checkFile(t, path, "new\n")

	// Abort leaves path alone and removes the temporary file.
	s, err = Stage(path, func(w io.Writer) error { _, err := fmt.Fprint(w, "newer\n"); return err })
	if err != nil {
		t.Fatal(err)
	}
	s.Abort()
	if err := s.Commit(); err != nil {
		t.Errorf("Commit after Abort: %v", err)
	}
	checkFile(t, path, "new\n")
	checkOnly(t, dir, "out.csv")

	// A failing write stages nothing.
	errWrite := errors.New("write failed")
	if _, err := Stage(path, func(w io.Writer) error { return errWrite }); !errors.Is(err, errWrite) {
		t.Errorf("got %v, want %v", err, errWrite)
	}
	checkOnly(t, dir, "out.csv")

	// A missing directory or a directory as path fails.
	if _, err := Stage(filepath.Join(dir, "no", "x"), func(io.Writer) error { return nil }); err == nil {
		t.Error("no error in a missing directory")
	}
	if _, err := Stage(dir, func(io.Writer) error { return nil }); err == nil {
		t.Error("no error staging over a directory")
	}
}
