package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// named makes Create use named temporary files until the test ends, for
// the tests that look at them.
func named(t *testing.T) {
	useAnon = false
	t.Cleanup(func() { useAnon = true })
}

func TestCreate(t *testing.T) {
	named(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "labels.csv")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	// Pieces written before Commit are invisible at path; more than the
	// buffer's 4096 bytes reach the temporary file before Commit.
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(f.tmp), ".labels.csv.tmp") || filepath.Dir(f.tmp) != dir {
		t.Errorf("temporary file %s", f.tmp)
	}
	var want strings.Builder
	for i := range 2000 {
		line := fmt.Sprintf("%d\n", i)
		want.WriteString(line)
		if _, err := io.WriteString(f, line); err != nil {
			t.Fatal(err)
		}
	}
	checkFile(t, path, "old\n")
	// The 2000 lines hold 10·2 + 90·3 + 900·4 + 1000·5 = 8890 bytes, of
	// which at most the buffer's 4096 can still be buffered: the temporary
	// file must already hold a prefix of at least 4794 of them.
	if want.Len() != 8890 {
		t.Fatalf("wrote %d bytes, want 8890", want.Len())
	}
	if b, err := os.ReadFile(f.tmp); err != nil {
		t.Fatal(err)
	} else if len(b) < want.Len()-4096 || !strings.HasPrefix(want.String(), string(b)) {
		t.Errorf("temporary file holds %d bytes before Commit, want a prefix of at least %d", len(b), want.Len()-4096)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, want.String())
	checkOnly(t, dir, "labels.csv")
	// An existing file keeps its permission bits.
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after Commit: %v, %v; want 0600", fi.Mode(), err)
	}
	if _, err := f.Write([]byte("x")); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Write after Commit: %v, want os.ErrClosed", err)
	}
	f.Abort() // after Commit: nothing
	checkFile(t, path, want.String())

	// Abort removes the temporary file and leaves path alone.
	f, err = Create(path)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "partial")
	f.Abort()
	if err := f.Commit(); err != nil {
		t.Errorf("Commit after Abort: %v", err)
	}
	checkFile(t, path, want.String())
	checkOnly(t, dir, "labels.csv")

	// A new file gets mode 0644.
	fresh := filepath.Join(dir, "new.csv")
	f, err = Create(fresh)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "a\n")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode of a new file: %v, %v; want 0644", fi.Mode(), err)
	}

	// A missing directory or a directory as path fails at once.
	if _, err := Create(filepath.Join(dir, "no", "x")); err == nil {
		t.Error("no error in a missing directory")
	}
	if _, err := Create(dir); err == nil {
		t.Error("no error creating over a directory")
	}
}

// TestCreateStage checks that Stage hands the file over to a Staged that
// the caller commits, and that the File is then done.
func TestCreateStage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "staged\n")
	s, err := f.Stage()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("path exists before the staged Commit: %v", err)
	}
	f.Abort() // the Staged owns the temporary file now
	if err := f.Commit(); err != nil {
		t.Errorf("File.Commit after Stage: %v", err)
	}
	if _, err := f.Stage(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("second Stage: %v, want os.ErrClosed", err)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	checkFile(t, path, "staged\n")
	checkOnly(t, dir, "out")
}

// TestCreateWriteError checks that a failed write makes Commit fail and
// leaves path untouched with no temporary file left behind.
func TestCreateWriteError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// Closing the file under the writer makes the flush of a large write fail.
	f.f.Close()
	if _, err := f.Write(make([]byte, 1<<16)); err == nil {
		t.Fatal("write to a closed file succeeded")
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Error("Write after an error succeeded")
	}
	if err := f.Commit(); err == nil {
		t.Error("Commit after a write error succeeded")
	}
	checkOnly(t, dir)
}

// TestRemoveTemporary: RemoveTemporary removes the temporary files of
// Files and Staged files not yet committed, not the paths, and a commit
// after it fails, leaving the path as it was.
func TestRemoveTemporary(t *testing.T) {
	for _, anon := range []bool{true, false} {
		useAnon = anon
		removeTemporary(t)
	}
	useAnon = true
}

func removeTemporary(t *testing.T) {
	reset := func() {
		live.Lock()
		live.stopped = false
		live.Unlock()
	}
	reset()
	defer reset()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(a)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "new\n")
	s, err := Stage(b, func(w io.Writer) error { _, err := io.WriteString(w, "b\n"); return err })
	if err != nil {
		t.Fatal(err)
	}
	RemoveTemporary()
	checkOnly(t, dir, "a")
	if err := f.Commit(); err == nil {
		t.Error("Commit after RemoveTemporary succeeded")
	}
	if err := s.Commit(); err == nil {
		t.Error("Staged.Commit after RemoveTemporary succeeded")
	}
	checkFile(t, a, "old\n")
	checkOnly(t, dir, "a")
}

// TestCreateNotRegular: a path that exists and is not a regular file is
// written in place (/dev/null), a directory is refused.
func TestCreateNotRegular(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip(err)
	}
	if err := WriteFile(os.DevNull, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Errorf("WriteFile(%s): %v", os.DevNull, err)
	}
	if _, err := Create(t.TempDir()); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("Create(directory): %v, want \"is a directory\"", err)
	}
}

// TestCreateUnnamed: where the system has unnamed temporary files, the
// directory shows nothing but the old file while the new content is
// written and staged, and the new content after Commit.
func TestCreateUnnamed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if !f.anon {
		t.Skip("no unnamed temporary files here")
	}
	io.WriteString(f, strings.Repeat("new\n", 5000))
	s, err := f.Stage()
	if err != nil {
		t.Fatal(err)
	}
	checkOnly(t, dir, "out")
	checkFile(t, path, "old\n")
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	checkOnly(t, dir, "out")
	checkFile(t, path, strings.Repeat("new\n", 5000))
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after Commit: %v, %v; want 0600", fi.Mode(), err)
	}
	// Abort leaves nothing either.
	g, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(g, "x")
	g.Abort()
	checkOnly(t, dir, "out")
	checkFile(t, path, strings.Repeat("new\n", 5000))
}

// TestCreateSymlink: writing through a symbolic link replaces its target's
// content and keeps the link, also a dangling one; a link to a file
// descriptor (/dev/stdout) is written in place, appending, never replaced.
// Before, the rename replaced the link itself: "-o /dev/stdout" with
// standard output redirected to a file replaced /dev/stdout by a file.
func TestCreateSymlink(t *testing.T) {
	for _, anon := range []bool{true, false} {
		useAnon = anon
		dir := t.TempDir()
		target, link := filepath.Join(dir, "target"), filepath.Join(dir, "link")
		if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("target", link); err != nil {
			t.Fatal(err)
		}
		write := func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }
		if err := WriteFile(link, write); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced (%v)", err)
		}
		checkFile(t, target, "new\n")
		// A dangling link: its target is created.
		if err := os.Symlink("sub/../new", filepath.Join(dir, "dangling")); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(filepath.Join(dir, "dangling"), write); err != nil {
			t.Fatal(err)
		}
		checkFile(t, filepath.Join(dir, "new"), "new\n")
		checkOnly(t, dir, "dangling", "link", "new", "sub", "target")
	}
	useAnon = true

	// A link to a file descriptor: /dev/fd/N of an open file.
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString("first\n")
	fdPath := "/dev/fd/" + strconv.Itoa(int(f.Fd()))
	if _, err := os.Lstat(fdPath); err != nil {
		t.Skip("no /dev/fd:", err)
	}
	if err := WriteFile(fdPath, func(w io.Writer) error { _, err := io.WriteString(w, "second\n"); return err }); err != nil {
		t.Fatal(err)
	}
	checkFile(t, out, "first\nsecond\n")
	checkOnly(t, dir, "out")
}
