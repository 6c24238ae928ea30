package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := WriteFile(path, func(w io.Writer) error {
		_, err := fmt.Fprint(w, "first\n")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, "first\n")
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode of a new file: %v, %v; want 0644", fi.Mode(), err)
	}

	// A failing write leaves the old content and no temporary file.
	errWrite := errors.New("write failed")
	err := WriteFile(path, func(w io.Writer) error {
		fmt.Fprint(w, "partial")
		return errWrite
	})
	if !errors.Is(err, errWrite) {
		t.Fatalf("got %v, want %v", err, errWrite)
	}
	checkFile(t, path, "first\n")
	checkOnly(t, dir, "out.csv")

	// A successful write replaces the content and keeps the mode.
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, func(w io.Writer) error {
		_, err := fmt.Fprint(w, "second\n")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, "second\n")
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode changed to %v", fi.Mode())
	}
	checkOnly(t, dir, "out.csv")
}

func TestWriteFileMissingDir(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "no", "such", "out.csv")
	called := false
	err := WriteFile(path, func(w io.Writer) error { called = true; return nil })
	if err == nil {
		t.Fatal("no error")
	}
	if called {
		t.Error("write called although the file could not be created")
	}
	checkOnly(t, dir)
}

func TestWriteFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFile(dir, func(w io.Writer) error { return nil }); err == nil {
		t.Fatal("no error writing over a directory")
	}
}

func checkFile(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Errorf("%s holds %q, want %q", path, b, want)
	}
}

// checkOnly checks that dir holds exactly the named entries.
func checkOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if fmt.Sprint(got) != fmt.Sprint(names) {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}
